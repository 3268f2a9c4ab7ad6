package kr.c4i.gateway.tools;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * CPU time the whole machine has spent busy, from {@code /proc/stat}: for the benchmarks whose embedded PostgreSQL
 * servers run as processes of their own, whose work the JVM's own CPU time leaves out. On a quiet machine it is the
 * benchmark's; anything else running counts too, which is why the benchmarks print it beside the JVM's.
 */
public final class MachineCpu {

    /** Linux counts CPU in USER_HZ, 100 a second. */
    private static final long NANOS_PER_TICK = 10_000_000L;

    private MachineCpu() {
    }

    /** Busy CPU time since boot over every core (user, nice, system, interrupts); -1 where it cannot be read. */
    public static long busyNanos() {
        try {
            return busyTicks(Files.readString(Path.of("/proc/stat"))) * NANOS_PER_TICK;
        }
        catch (IOException | RuntimeException ex) {
            return -1;
        }
    }

    /** The busy ticks of the first line of {@code /proc/stat}'s text: all but idle, iowait and the guests' time. */
    static long busyTicks(String stat) {
        String cpu = stat.substring(0, stat.indexOf('\n'));
        if (!cpu.startsWith("cpu ")) {
            throw new IllegalArgumentException("Not /proc/stat's first line: " + cpu);
        }
        String[] f = cpu.substring(4).trim().split("\\s+");
        // user nice system idle iowait irq softirq steal guest guest_nice; guest time is in user and nice already.
        return Long.parseLong(f[0]) + Long.parseLong(f[1]) + Long.parseLong(f[2]) + Long.parseLong(f[5])
                + Long.parseLong(f[6]);
    }
}
