package kr.c4i.gateway.tools.ddsbench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Memory figures of a Linux process from {@code /proc/<pid>/status}, in MB.
 *
 * @param rssMb {@code VmRSS}, resident now
 * @param hwmMb {@code VmHWM}, the peak resident size
 */
record ProcStatus(double rssMb, double hwmMb) {

    static ProcStatus of(long pid) {
        try {
            double rss = Double.NaN;
            double hwm = Double.NaN;
            for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
                if (line.startsWith("VmRSS:")) {
                    rss = kilobytes(line) / 1024.0;
                }
                else if (line.startsWith("VmHWM:")) {
                    hwm = kilobytes(line) / 1024.0;
                }
            }
            return new ProcStatus(rss, hwm);
        }
        catch (IOException | RuntimeException ex) {
            return new ProcStatus(Double.NaN, Double.NaN);
        }
    }

    static ProcStatus self() {
        return of(ProcessHandle.current().pid());
    }

    private static long kilobytes(String line) {
        // "VmRSS:	   84236 kB"
        String digits = line.substring(line.indexOf(':') + 1).replace("kB", "").strip();
        return Long.parseLong(digits);
    }
}
