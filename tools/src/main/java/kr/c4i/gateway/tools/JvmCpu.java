package kr.c4i.gateway.tools;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * CPU time of this JVM and of its JIT compiler, for the benchmarks' warm-ups: a phase measured while the compiler is
 * still at work counts the compiler's CPU as the product's.
 */
public final class JvmCpu {

    /** Linux counts a thread's CPU in USER_HZ, 100 a second. */
    private static final long NANOS_PER_TICK = 10_000_000L;

    private JvmCpu() {
    }

    /** CPU time this JVM has used, every thread and native library included. */
    public static long processNanos() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
    }

    /**
     * CPU time this JVM's JIT compiler threads have used (the threads {@code /proc/self/task} names
     * {@code C1 CompilerThre...} and {@code C2 CompilerThre...}, which no management bean shows; 0 off Linux). A
     * compiler thread that ended meanwhile takes its time with it, so this is at least what was spent.
     */
    public static long jitNanos() {
        long ticks = 0;
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(Path.of("/proc/self/task"))) {
            for (Path task : tasks) {
                try {
                    String stat = Files.readString(task.resolve("stat"));
                    String name = stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
                    if (name.startsWith("C1 Compiler") || name.startsWith("C2 Compiler")) {
                        // After the name: state, then utime and stime are the 12th and 13th fields.
                        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                        ticks += Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
                    }
                }
                catch (IOException | RuntimeException ex) {
                    // A thread that ended while being read.
                }
            }
        }
        catch (IOException | RuntimeException ex) {
            return 0;
        }
        return ticks * NANOS_PER_TICK;
    }
}
