package kr.c4i.gateway.deploy.docker;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** The suites' commands (docker, compose, the repository's scripts): bounded in time, failing with their output. */
final class Commands {

    private Commands() {
    }

    /**
     * Runs {@code command} in {@code directory} with {@code environment} added to this process's and nothing on its
     * standard input; its output (and error output), or a failure with the end of it when it exits with other than 0
     * or does not end within {@code timeout}.
     */
    static String run(Path directory, Map<String, String> environment, List<String> command, Duration timeout) {
        try {
            Path output = Files.createTempFile("command-", ".log");
            try {
                ProcessBuilder builder = new ProcessBuilder(command).directory(directory.toFile())
                        .redirectErrorStream(true).redirectOutput(output.toFile());
                builder.environment().putAll(environment);
                Process process = builder.start();
                process.getOutputStream().close();
                if (!process.waitFor(timeout.toSeconds(), TimeUnit.SECONDS)) {
                    process.destroyForcibly().waitFor();
                    throw new IllegalStateException(String.join(" ", command) + " did not end within "
                            + timeout.toSeconds() + " s:\n" + tail(output));
                }
                String text = Files.readString(output, StandardCharsets.UTF_8);
                if (process.exitValue() != 0) {
                    throw new IllegalStateException(String.join(" ", command) + " exited with " + process.exitValue()
                            + ":\n" + tail(output));
                }
                return text;
            }
            finally {
                Files.deleteIfExists(output);
            }
        }
        catch (IOException ex) {
            throw new IllegalStateException("Unable to run " + command + ": " + ex.getMessage(), ex);
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while running " + command, ex);
        }
    }

    private static String tail(Path output) throws IOException {
        List<String> lines = Files.readAllLines(output, StandardCharsets.UTF_8);
        return String.join("\n", lines.subList(Math.max(0, lines.size() - 60), lines.size()));
    }
}
