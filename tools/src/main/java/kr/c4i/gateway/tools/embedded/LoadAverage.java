package kr.c4i.gateway.tools.embedded;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Optional;

/**
 * The machine's load average (1, 5 and 15 minutes, from {@code /proc/loadavg}): a benchmark's figures
 * mean little without how busy the machine was.
 */
public record LoadAverage(double oneMinute, double fiveMinutes, double fifteenMinutes) {

    static final Path PROC_LOADAVG = Path.of("/proc/loadavg");

    /** The current load average, or empty where the file is missing or unreadable (not Linux). */
    public static Optional<LoadAverage> read() {
        return read(PROC_LOADAVG);
    }

    static Optional<LoadAverage> read(Path file) {
        try {
            String[] fields = Files.readString(file).trim().split("\\s+");
            return Optional.of(new LoadAverage(Double.parseDouble(fields[0]), Double.parseDouble(fields[1]),
                    Double.parseDouble(fields[2])));
        }
        catch (IOException | RuntimeException ex) {
            return Optional.empty();
        }
    }

    @Override
    public String toString() {
        return String.format(Locale.ROOT, "%.2f %.2f %.2f", oneMinute, fiveMinutes, fifteenMinutes);
    }
}
