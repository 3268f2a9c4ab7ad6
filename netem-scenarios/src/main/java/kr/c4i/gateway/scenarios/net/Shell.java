package kr.c4i.gateway.scenarios.net;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Runs {@link ShellCommand}s, each bounded in time. Output is drained by platform threads: blocking pipe reads on
 * virtual threads could pin both carriers of a two-core machine while nodes' consoles are busy. A failing command that may not fail becomes a
 * {@link ShellException} carrying the command and what it printed.
 */
public final class Shell {

    /** Long enough for {@code ip netns del} of a busy namespace, short enough that nothing hangs a run. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(30);

    private final Consumer<String> trace;

    /** @param trace receives every command line before it runs (the {@code --verbose} output) */
    public Shell(Consumer<String> trace) {
        this.trace = trace;
    }

    public static Shell quiet() {
        return new Shell(line -> { });
    }

    /**
     * What a command printed.
     *
     * @param exitCode the command's exit code
     * @param stdout what it wrote to standard output
     * @param stderr what it wrote to standard error
     */
    public record Result(int exitCode, String stdout, String stderr) {

        public boolean ok() {
            return exitCode == 0;
        }
    }

    public Result run(ShellCommand command) {
        return run(command, DEFAULT_TIMEOUT);
    }

    public void runAll(List<ShellCommand> commands) {
        commands.forEach(this::run);
    }

    /**
     * @throws ShellException if the command cannot start, outlives the timeout, or fails while it may not
     */
    public Result run(ShellCommand command, Duration timeout) {
        trace.accept(command.display());
        Process process;
        try {
            process = new ProcessBuilder(command.argv()).start();
        }
        catch (IOException ex) {
            throw new ShellException("Unable to run '" + command.display() + "': " + ex.getMessage(), ex);
        }
        CompletableFuture<String> out = drain(process.getInputStream());
        CompletableFuture<String> err = drain(process.getErrorStream());
        try (OutputStream stdin = process.getOutputStream()) {
            if (command.stdin() != null) {
                stdin.write(command.stdin().getBytes(StandardCharsets.UTF_8));
            }
        }
        catch (IOException ex) {
            // the program exited without reading; its exit code tells the rest
        }
        try {
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
                throw new ShellException("'" + command.display() + "' did not finish within " + timeout.toSeconds()
                        + " s", null);
            }
            Result result = new Result(process.exitValue(), out.get(5, TimeUnit.SECONDS), err.get(5, TimeUnit.SECONDS));
            if (!result.ok() && !command.mayFail()) {
                throw new ShellException("'" + command.display() + "' failed with exit code " + result.exitCode()
                        + (result.stderr().isBlank() ? "" : ": " + result.stderr().strip()), null);
            }
            return result;
        }
        catch (InterruptedException ex) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new ShellException("Interrupted while running '" + command.display() + "'", ex);
        }
        catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException ex) {
            throw new ShellException("Unable to read the output of '" + command.display() + "'", ex);
        }
    }

    private static CompletableFuture<String> drain(InputStream stream) {
        CompletableFuture<String> text = new CompletableFuture<>();
        Thread.ofPlatform().daemon().name("shell-drain").start(() -> {
            try (stream) {
                text.complete(new String(stream.readAllBytes(), StandardCharsets.UTF_8));
            }
            catch (IOException ex) {
                text.complete("");
            }
        });
        return text;
    }
}
