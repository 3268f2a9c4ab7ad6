package kr.c4i.gateway.dds.interop;

import static org.awaitility.Awaitility.await;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

import org.awaitility.core.ConditionTimeoutException;

/**
 * One running native peer and the lines it printed. Closing it kills the process if it is still running, so a
 * try-with-resources block ends every peer a test starts, also when the test fails. The peer bounds itself too
 * (its timeout argument), in case this JVM dies first.
 */
final class PeerProcess implements AutoCloseable {

    private final InteropPeer peer;
    private final Process process;
    private final List<String> lines = new ArrayList<>();
    private final StringBuilder errors = new StringBuilder();
    private final Thread stdoutReader;
    private final Thread stderrReader;

    private PeerProcess(InteropPeer peer, Process process) {
        this.peer = peer;
        this.process = process;
        this.stdoutReader = Thread.ofPlatform().daemon().name("interop-stdout-" + peer.origin()).start(() -> {
            try (BufferedReader out = new BufferedReader(
                    new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line = out.readLine(); line != null; line = out.readLine()) {
                    synchronized (this.lines) {
                        this.lines.add(line);
                        this.lines.notifyAll();
                    }
                }
            }
            catch (IOException ex) {
                synchronized (this.errors) {
                    this.errors.append("(stdout unreadable: ").append(ex).append(")\n");
                }
            }
        });
        this.stderrReader = Thread.ofPlatform().daemon().name("interop-stderr-" + peer.origin()).start(() -> {
            try (BufferedReader err = new BufferedReader(
                    new InputStreamReader(process.getErrorStream(), StandardCharsets.UTF_8))) {
                for (String line = err.readLine(); line != null; line = err.readLine()) {
                    synchronized (this.errors) {
                        this.errors.append(line).append('\n');
                    }
                }
            }
            catch (IOException ex) {
                // The process is gone; its exit value tells the rest.
            }
        });
    }

    /**
     * Starts {@code kmtf_peer mode topic reliability count timeout domain}.
     *
     * @param timeout how long the peer may run in all before it gives up by itself
     */
    static PeerProcess start(InteropPeer peer, String mode, String topic, boolean reliable, int count,
            Duration timeout, int domainId) throws IOException {
        Path executable = peer.executable();
        ProcessBuilder builder = new ProcessBuilder(executable.toString(), mode, topic,
                reliable ? "reliable" : "best_effort", Integer.toString(count), Long.toString(timeout.toMillis()),
                Integer.toString(domainId), peer.origin());
        builder.environment().putAll(peer.environment());
        builder.directory(executable.getParent().toFile());
        return new PeerProcess(peer, builder.start());
    }

    /** Waits for a line starting with {@code prefix}; fails with everything the peer said if none comes. */
    String awaitLine(String prefix, Duration timeout) throws InterruptedException {
        return awaitLine(line -> line.startsWith(prefix), "a line starting with " + prefix, timeout);
    }

    String awaitLine(Predicate<String> wanted, String what, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        int seen = 0;
        synchronized (this.lines) {
            while (true) {
                for (; seen < this.lines.size(); seen++) {
                    String line = this.lines.get(seen);
                    if (wanted.test(line)) {
                        return line;
                    }
                    if (line.startsWith("ERROR") || line.startsWith("TIMEOUT")) {
                        throw new AssertionError(this.peer + " gave up while the test waited for " + what + ": "
                                + report());
                    }
                }
                long left = deadline - System.nanoTime();
                if (left <= 0 || (!this.process.isAlive() && !this.stdoutReader.isAlive())) {
                    throw new AssertionError("No " + what + " from the " + this.peer + " within " + timeout + ": "
                            + report());
                }
                TimeUnit.NANOSECONDS.timedWait(this.lines, Math.min(left, 50_000_000L));
            }
        }
    }

    void send(String line) throws IOException {
        OutputStream in = this.process.getOutputStream();
        in.write((line + "\n").getBytes(StandardCharsets.UTF_8));
        in.flush();
    }

    /** Waits for the peer to exit and returns its exit code; fails if it is still running after {@code timeout}. */
    int awaitExit(Duration timeout) throws InterruptedException {
        if (!this.process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            throw new AssertionError("The " + this.peer + " did not exit within " + timeout + ": " + report());
        }
        this.stdoutReader.join(5_000);
        this.stderrReader.join(1_000);
        return this.process.exitValue();
    }

    /**
     * Waits for the peer to exit, but no longer than until it has printed nothing for {@code quiet} (then it is
     * stopped, as a BEST_EFFORT subscriber waiting for samples that were lost would wait for its whole timeout).
     *
     * @return the exit code, or empty if the peer was stopped
     */
    OptionalInt awaitExitOrQuiet(Duration quiet, Duration timeout) throws InterruptedException {
        int[] count = {-1};
        long[] lastChange = {System.nanoTime()};
        try {
            await().atMost(timeout).pollInSameThread().pollInterval(Duration.ofMillis(10)).until(() -> {
                int now = lines().size();
                if (now != count[0]) {
                    count[0] = now;
                    lastChange[0] = System.nanoTime();
                }
                return !this.process.isAlive() || System.nanoTime() - lastChange[0] > quiet.toNanos();
            });
        }
        catch (ConditionTimeoutException ex) {
            throw new AssertionError("The " + this.peer + " did not exit within " + timeout + ": " + report(), ex);
        }
        if (this.process.isAlive()) {
            close();
            return OptionalInt.empty();
        }
        return OptionalInt.of(awaitExit(Duration.ofSeconds(5)));
    }

    List<String> lines() {
        synchronized (this.lines) {
            return List.copyOf(this.lines);
        }
    }

    List<String> lines(String prefix) {
        return lines().stream().filter(l -> l.startsWith(prefix)).toList();
    }

    boolean isAlive() {
        return this.process.isAlive();
    }

    /** The peer's output except sample lines, its stderr and its state, for failure messages. */
    String report() {
        List<String> all = lines();
        long samples = all.stream().filter(l -> l.startsWith("SAMPLE")).count();
        String state = this.process.isAlive() ? "running" : "exited " + this.process.exitValue();
        synchronized (this.errors) {
            return "pid " + this.process.pid() + " " + state + ", " + samples + " SAMPLE lines, other output "
                    + all.stream().filter(l -> !l.startsWith("SAMPLE")).toList()
                    + (this.errors.isEmpty() ? "" : ", stderr:\n" + this.errors);
        }
    }

    @Override
    public void close() throws InterruptedException {
        if (this.process.isAlive()) {
            this.process.destroy();
            if (!this.process.waitFor(3, TimeUnit.SECONDS)) {
                this.process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
            }
        }
        try {
            this.process.getOutputStream().close();
        }
        catch (IOException ex) {
            // Already closed with the process.
        }
    }
}
