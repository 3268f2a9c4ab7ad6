package kr.c4i.gateway.tools;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;

import org.jspecify.annotations.Nullable;

/**
 * CPU time of this JVM, of its JIT compiler and of each of its threads, for the benchmarks' warm-ups (a phase measured
 * while the compiler is still at work counts the compiler's CPU as the product's) and profiles.
 */
public final class JvmCpu {

    /** Linux counts a thread's CPU in USER_HZ, 100 a second. */
    private static final long NANOS_PER_TICK = 10_000_000L;

    private static final String JIT_COMPILER = "JIT compiler";

    /** The JVM's own threads, as {@code /proc} names them (their first 15 characters), by what they do. */
    private static final Map<String, String> JVM_THREADS = Map.of("C1 Compiler", JIT_COMPILER, "C2 Compiler",
            JIT_COMPILER, "GC Thread", "garbage collector", "G1 ", "garbage collector", "VM Thread",
            "JVM safepoints (VM Thread)");

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
        return ownThreadNanos().getOrDefault(JIT_COMPILER, 0L);
    }

    /**
     * CPU time so far of this JVM's threads, summed by name with each run of digits as {@code N} ({@code Thread-12
     * (activemq-io-kmtf-a)} and a pool's workers count as one): its Java threads, and its own compiler, collector and
     * VM threads by what they do. Threads of native libraries and threads that ended are not in it.
     */
    public static Map<String, Long> threadNanos() {
        Map<String, Long> nanos = new TreeMap<>(ownThreadNanos());
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        for (long id : threads.getAllThreadIds()) {
            long cpu = threads.getThreadCpuTime(id);
            String name = (cpu > 0) ? threadName(threads, id) : null;
            if (name != null) {
                nanos.merge(name.replaceAll("\\d+", "N"), cpu, Long::sum);
            }
        }
        return nanos;
    }

    private static @Nullable String threadName(ThreadMXBean threads, long id) {
        ThreadInfo info = threads.getThreadInfo(id);
        return (info == null) ? null : info.getThreadName();
    }

    /** The JVM's own threads' CPU time by what they do (which no management bean shows); empty off Linux. */
    private static Map<String, Long> ownThreadNanos() {
        Map<String, Long> ticks = new TreeMap<>();
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(Path.of("/proc/self/task"))) {
            for (Path task : tasks) {
                try {
                    String stat = Files.readString(task.resolve("stat"));
                    String name = stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
                    for (Map.Entry<String, String> kind : JVM_THREADS.entrySet()) {
                        if (name.startsWith(kind.getKey())) {
                            // After the name: state, then utime and stime are the 12th and 13th fields.
                            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                            ticks.merge(kind.getValue(), Long.parseLong(fields[11]) + Long.parseLong(fields[12]),
                                    Long::sum);
                        }
                    }
                }
                catch (IOException | RuntimeException ex) {
                    // A thread that ended while being read.
                }
            }
        }
        catch (IOException | RuntimeException ex) {
            return Map.of();
        }
        ticks.replaceAll((kind, t) -> t * NANOS_PER_TICK);
        return ticks;
    }
}
