package kr.c4i.gateway.tools.ddsbench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * How busy the machine was during a phase, and how much of that was not the benchmark: {@code /proc/stat} gives the
 * machine's busy time, {@code /proc/self/stat} this JVM's CPU time plus that of its ended (reaped) children.
 * Linux only; NaN elsewhere.
 *
 * @param total jiffies of all CPUs
 * @param busy jiffies not idle or waiting for I/O
 * @param own this process's and its reaped children's jiffies
 */
record CpuShare(long total, long busy, long own) {

    static CpuShare now() {
        try {
            String[] cpu = Files.readAllLines(Path.of("/proc/stat")).getFirst().strip().split("\\s+");
            long total = 0;
            for (int i = 1; i < Math.min(cpu.length, 9); i++) {
                total += Long.parseLong(cpu[i]);
            }
            long idle = Long.parseLong(cpu[4]) + Long.parseLong(cpu[5]);
            String stat = Files.readString(Path.of("/proc/self/stat"));
            // Fields after the command name, which is in parentheses and may contain spaces.
            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).strip().split("\\s+");
            // utime, stime, cutime, cstime are fields 14..17 of the file, 12..15 after the name.
            long own = Long.parseLong(fields[11]) + Long.parseLong(fields[12]) + Long.parseLong(fields[13])
                    + Long.parseLong(fields[14]);
            return new CpuShare(total, total - idle, own);
        }
        catch (IOException | RuntimeException ex) {
            return new CpuShare(0, 0, 0);
        }
    }

    /** Percent of the machine that other processes used since {@code start}. */
    double othersPercentSince(CpuShare start) {
        long total = this.total - start.total;
        if (total <= 0 || start.total == 0) {
            return Double.NaN;
        }
        long others = (this.busy - start.busy) - (this.own - start.own);
        return Math.max(0, 100.0 * others / total);
    }

    /** Percent of the machine that was busy since {@code start}. */
    double busyPercentSince(CpuShare start) {
        long total = this.total - start.total;
        return total <= 0 || start.total == 0 ? Double.NaN : 100.0 * (this.busy - start.busy) / total;
    }
}
