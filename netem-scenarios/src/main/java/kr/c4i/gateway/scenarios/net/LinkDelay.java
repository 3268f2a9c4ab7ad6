package kr.c4i.gateway.scenarios.net;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;

/**
 * A one-way delay on the WAN link while it is open: the delay helper's process in the WAN switch's namespace
 * (started here, so it is ours to stop) and the rule that queues the WAN's frames to it. The helper exits when its
 * standard input closes, which {@link #close} does and the harness's death does too.
 */
public final class LinkDelay implements AutoCloseable {

    /** Frames the delay holds at once; more are dropped and counted. Plenty: 2 Mbit/s for 250 ms is 42 full frames. */
    public static final int MAX_PACKETS = 1024;

    private static final Duration READY_TIMEOUT = Duration.ofSeconds(30);
    private static final Duration EXIT_TIMEOUT = Duration.ofSeconds(5);

    /**
     * How to start the helper's JVM.
     *
     * @param java a Java 22 or later
     * @param classPath the harness's class path (the helper's classes and picocli)
     */
    public record Launcher(Path java, String classPath) {

        /** The given Java with this JVM's class path. */
        public static Launcher of(Path java) {
            return new Launcher(java, System.getProperty("java.class.path"));
        }
    }

    private final WanTopology topology;
    private final Duration delay;
    private final Process process;
    private final Shell shell;
    private final Consumer<String> log;
    private final CompletableFuture<String> ready = new CompletableFuture<>();
    private final StringBuilder output = new StringBuilder();

    private LinkDelay(WanTopology topology, Duration delay, Process process, Shell shell, Consumer<String> log) {
        this.topology = topology;
        this.delay = delay;
        this.process = process;
        this.shell = shell;
        this.log = log;
    }

    /**
     * Starts the helper, waits until it has bound the queue, then queues the WAN's frames to it.
     *
     * @throws ShellException if the helper cannot start or bind the queue (its output says why), or the rule fails
     */
    public static LinkDelay start(WanTopology topology, Duration delay, Launcher launcher, Shell shell,
            Consumer<String> log) {
        if (delay.isNegative() || delay.isZero()) {
            throw new IllegalArgumentException("a link delay must be positive, was " + delay);
        }
        ShellCommand command = WanPlans.delayHelper(topology, delay, MAX_PACKETS, launcher.java(),
                launcher.classPath());
        log.accept("$ " + command.display());
        Process process;
        try {
            process = new ProcessBuilder(command.argv()).redirectErrorStream(true).start();
        }
        catch (IOException ex) {
            throw new ShellException("Unable to start the WAN delay helper: " + ex.getMessage(), ex);
        }
        LinkDelay linkDelay = new LinkDelay(topology, delay, process, shell, log);
        Thread.ofPlatform().daemon().name("wan-delay-output").start(linkDelay::readOutput);
        try {
            linkDelay.awaitReady();
            shell.runAll(WanPlans.delayOn(topology));
        }
        catch (RuntimeException ex) {
            linkDelay.close();
            throw ex;
        }
        log.accept("WAN delay " + delay.toMillis() + " ms on");
        return linkDelay;
    }

    private void awaitReady() {
        try {
            ready.get(READY_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        }
        catch (ExecutionException ex) {
            throw new ShellException("The WAN delay helper exited before it bound its queue: " + output(), ex);
        }
        catch (TimeoutException ex) {
            throw new ShellException("The WAN delay helper did not bind its queue within " + READY_TIMEOUT.toSeconds()
                    + " s: " + output(), ex);
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new ShellException("Interrupted while the WAN delay helper started", ex);
        }
    }

    private void readOutput() {
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(process.getInputStream(),
                StandardCharsets.UTF_8))) {
            for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                synchronized (output) {
                    output.append(line).append('\n');
                }
                log.accept("wan delay helper: " + line);
                if (line.startsWith(kr.c4i.gateway.scenarios.delay.DelayHelper.READY)) {
                    ready.complete(line);
                }
            }
        }
        catch (IOException ex) {
            // the process is gone; its exit tells the rest
        }
        ready.completeExceptionally(new IllegalStateException("exited"));
    }

    private String output() {
        synchronized (output) {
            return output.isEmpty() ? "(no output)" : output.toString().strip();
        }
    }

    public Duration delay() {
        return delay;
    }

    /** Whether the helper still runs (if not, the WAN carries nothing). */
    public boolean alive() {
        return process.isAlive();
    }

    /**
     * The kernel's counters for the delay's queue.
     *
     * @throws IllegalStateException if the helper has exited: the WAN then carries nothing
     */
    public DelayCounters counters() {
        if (!process.isAlive()) {
            throw new IllegalStateException("The WAN delay helper exited (code " + process.exitValue() + "): "
                    + output());
        }
        return DelayCounters.parse(shell.run(WanPlans.delayCounters(topology)).stdout(), WanPlans.DELAY_QUEUE);
    }

    /** Lifts the rule, then ends the helper: its standard input closes, and if it lingers, SIGKILL. */
    @Override
    public void close() {
        try {
            shell.run(WanPlans.delayOff(topology));
        }
        catch (RuntimeException ex) {
            log.accept("Unable to lift the WAN delay rule: " + ex.getMessage());
        }
        try (OutputStream stdin = process.getOutputStream()) {
            // closing it is the signal
        }
        catch (IOException ex) {
            // already closed: the helper is gone
        }
        try {
            if (!process.waitFor(EXIT_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                log.accept("The WAN delay helper did not exit within " + EXIT_TIMEOUT.toSeconds() + " s; killing it");
                process.destroyForcibly();
                process.waitFor(EXIT_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            }
        }
        catch (InterruptedException ex) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
        log.accept("WAN delay " + delay.toMillis() + " ms off");
    }
}
