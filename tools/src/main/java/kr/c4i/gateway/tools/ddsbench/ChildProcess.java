package kr.c4i.gateway.tools.ddsbench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

import org.jspecify.annotations.Nullable;

/**
 * A process the benchmark started: its merged output collected line by line, a line to its standard input, and an
 * end that always comes (standard input closed, then SIGTERM, then SIGKILL). A shutdown hook kills whatever is
 * still running when the benchmark exits.
 */
final class ChildProcess implements AutoCloseable {

    private static final Set<ChildProcess> RUNNING = ConcurrentHashMap.newKeySet();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> RUNNING.forEach(c -> c.process.destroyForcibly()),
                "dds-bench-reaper"));
    }

    private static volatile @Nullable Path log;

    private final String name;
    private final List<String> command;
    private final Process process;
    private final List<String> lines = Collections.synchronizedList(new ArrayList<>());
    private final Thread reader;
    private boolean closed;

    private ChildProcess(String name, List<String> command, Process process, boolean echo) {
        this.name = name;
        this.command = List.copyOf(command);
        this.process = process;
        this.reader = Thread.ofPlatform().daemon().name("out-" + name).start(() -> {
            try (BufferedReader out = new BufferedReader(
                    new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line = out.readLine(); line != null; line = out.readLine()) {
                    this.lines.add(line);
                    if (echo) {
                        System.out.println("    | " + name + ": " + line);
                    }
                }
            }
            catch (IOException ex) {
                this.lines.add("(output of " + name + " unreadable: " + ex.getMessage() + ")");
            }
        });
    }

    static ChildProcess start(String name, List<String> command, Map<String, String> environment, boolean echo)
            throws IOException {
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().putAll(environment);
        ChildProcess child = new ChildProcess(name, command, builder.start(), echo);
        RUNNING.add(child);
        return child;
    }

    /** Appends every child's command and output to {@code file} when it is closed; null for none. */
    static void logTo(@Nullable Path file) {
        log = file;
    }

    long pid() {
        return this.process.pid();
    }

    boolean isAlive() {
        return this.process.isAlive();
    }

    /** A copy of the output so far. */
    List<String> lines() {
        synchronized (this.lines) {
            return List.copyOf(this.lines);
        }
    }

    /**
     * Waits for the first output line that matches.
     *
     * @throws IllegalStateException if the process ends or the timeout passes first; the message shows its last
     *         lines
     */
    String await(Predicate<String> matches, String what, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        int seen = 0;
        while (true) {
            List<String> now = lines();
            for (int i = seen; i < now.size(); i++) {
                if (matches.test(now.get(i))) {
                    return now.get(i);
                }
            }
            seen = now.size();
            if (!this.process.isAlive()) {
                this.reader.join(1000);
                if (lines().size() > seen) {
                    continue;
                }
                throw new IllegalStateException(this.name + " exited (status " + this.process.exitValue()
                        + ") before " + what + "; its output ended: " + tail());
            }
            if (System.nanoTime() - deadline >= 0) {
                throw new IllegalStateException(this.name + " did not report " + what + " within "
                        + timeout.toSeconds() + " s; its output ended: " + tail());
            }
            Thread.sleep(2);
        }
    }

    String awaitPrefix(String prefix, Duration timeout) throws InterruptedException {
        return await(line -> line.startsWith(prefix), "'" + prefix + "'", timeout);
    }

    void send(String line) throws IOException {
        OutputStream in = this.process.getOutputStream();
        in.write((line + "\n").getBytes(StandardCharsets.UTF_8));
        in.flush();
    }

    /** Waits for the process to end by itself. */
    boolean waitFor(Duration timeout) throws InterruptedException {
        boolean ended = this.process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
        if (ended) {
            this.reader.join(1000);
        }
        return ended;
    }

    int exitValue() {
        return this.process.exitValue();
    }

    /** The last lines of output, without SLF4J's start-up warnings. */
    String tail() {
        List<String> now = lines().stream().filter(l -> !l.startsWith("SLF4J")).toList();
        return String.join(" | ", now.subList(Math.max(0, now.size() - 6), now.size()));
    }

    /** Closes standard input, then terminates and if need be kills the process; waits for it. */
    @Override
    public synchronized void close() {
        if (this.closed) {
            return;
        }
        this.closed = true;
        try {
            try {
                this.process.getOutputStream().close();
            }
            catch (IOException ex) {
                // Already gone.
            }
            if (!this.process.waitFor(3, TimeUnit.SECONDS)) {
                this.process.destroy();
                if (!this.process.waitFor(3, TimeUnit.SECONDS)) {
                    this.process.destroyForcibly();
                    this.process.waitFor(5, TimeUnit.SECONDS);
                }
            }
            this.reader.join(1000);
        }
        catch (InterruptedException ex) {
            this.process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
        finally {
            RUNNING.remove(this);
            appendLog();
        }
    }

    private void appendLog() {
        Path file = log;
        if (file == null) {
            return;
        }
        List<String> text = new ArrayList<>();
        text.add("== " + this.name + " (pid " + this.process.pid() + ", exit "
                + (this.process.isAlive() ? "?" : Integer.toString(this.process.exitValue())) + "): "
                + String.join(" ", this.command));
        text.addAll(lines());
        try {
            Files.write(file, text, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        }
        catch (IOException ex) {
            System.err.println("Unable to write the log " + file + ": " + ex.getMessage());
            log = null;
        }
    }

    /** Sends SIGTERM at once (ddsperf prints its last statistics and exits), then closes. */
    synchronized void terminate() {
        if (!this.closed) {
            this.process.destroy();
        }
        close();
    }

    /** Memory of the running process; NaN figures once it has ended. */
    ProcStatus memory() {
        return ProcStatus.of(this.process.pid());
    }

    @Override
    public String toString() {
        return this.name + " (pid " + this.process.pid() + ")";
    }
}
