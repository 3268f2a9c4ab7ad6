package kr.c4i.gateway.e2e;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * What a node process left behind when it crashed, put into the failure a build machine keeps: the JVM's crash report
 * when it could write one, else the crashing thread's stack from the core dump. A JVM killed by SIGSEGV (exit 139)
 * wrote no report: the fault came in a native thread that blocks signals, as Cyclone DDS's own threads do, or in a
 * native stack that overflowed, and the core is all there is.
 */
final class NodeCrash {

    private static final Map<Integer, String> SIGNALS = Map.of(4, "SIGILL", 6, "SIGABRT", 7, "SIGBUS", 8, "SIGFPE",
            9, "SIGKILL", 11, "SIGSEGV", 15, "SIGTERM");
    /** The signals a fault raises (not a kill or a stop asked for), which leave a crash report or a core. */
    private static final Set<Integer> FAULTS = Set.of(4, 6, 7, 8, 11);
    private static final int REPORT_LINES = 30;
    private static final long GDB_SECONDS = 120;

    private NodeCrash() {
    }

    /** "node a exited with 139 (killed by SIGSEGV)". */
    static String describe(String name, int exitCode) {
        String text = name + " exited with " + exitCode;
        if (exitCode > 128) {
            text += " (killed by " + SIGNALS.getOrDefault(exitCode - 128, "signal " + (exitCode - 128)) + ")";
        }
        return text;
    }

    /** Empty unless the process died of a signal that leaves a crash report or a core; else those, quoted. */
    static String report(int exitCode, Path workDir, Path java) {
        if (!FAULTS.contains(exitCode - 128)) {
            return "";
        }
        StringBuilder report = new StringBuilder();
        first(workDir, "hs_err_pid").ifPresent(file -> report.append("\nThe JVM's crash report ").append(file)
                .append(" begins:\n").append(head(file)));
        first(workDir, "core").ifPresentOrElse(core -> report.append("\nThe crashing thread in the core dump ")
                .append(core).append(":\n").append(backtrace(java, core)), () -> report.append(
                        "\nNo core dump in ").append(workDir).append(" (kernel.core_pattern: ").append(corePattern())
                        .append(")"));
        return report.toString();
    }

    private static Optional<Path> first(Path dir, String prefix) {
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(file -> file.getFileName().toString().startsWith(prefix)).findFirst();
        }
        catch (IOException ex) {
            return Optional.empty();
        }
    }

    private static String head(Path file) {
        try (Stream<String> lines = Files.lines(file, StandardCharsets.ISO_8859_1)) {
            return String.join("\n", lines.limit(REPORT_LINES).toList());
        }
        catch (IOException ex) {
            return "(unreadable: " + ex + ")";
        }
    }

    /** gdb's backtrace of the thread the signal came to, or why there is none. */
    private static String backtrace(Path java, Path core) {
        try {
            Path out = Files.createTempFile(core.getParent(), "gdb", ".txt");
            Process gdb = new ProcessBuilder("gdb", "-batch", "-nx", "-ex", "bt 40", java.toString(), core.toString())
                    .redirectErrorStream(true).redirectOutput(out.toFile()).start();
            if (!gdb.waitFor(GDB_SECONDS, TimeUnit.SECONDS)) {
                gdb.destroyForcibly();
                return "(gdb did not finish in " + GDB_SECONDS + " s)";
            }
            List<String> frames = Files.readAllLines(out, StandardCharsets.ISO_8859_1).stream()
                    .filter(line -> line.startsWith("#") || line.startsWith("Program terminated")
                            || line.startsWith("[Current thread"))
                    .distinct() // gdb names the top frame twice, on loading the core and in the backtrace
                    .toList();
            return frames.isEmpty() ? "(gdb printed no frames; see " + out + ")" : String.join("\n", frames);
        }
        catch (IOException ex) {
            return "(no gdb to read it: " + ex.getMessage() + ")";
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            return "(interrupted)";
        }
    }

    private static String corePattern() {
        try {
            return Files.readString(Path.of("/proc/sys/kernel/core_pattern")).strip();
        }
        catch (IOException ex) {
            return "unreadable";
        }
    }
}
