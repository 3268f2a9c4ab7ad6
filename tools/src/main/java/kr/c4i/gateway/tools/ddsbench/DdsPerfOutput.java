package kr.c4i.gateway.tools.ddsbench;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Parses the lines Cyclone's {@code ddsperf} 0.10 prints (and the identical lines the benchmark's own Java
 * subscriber prints), and reduces them to one figure each.
 *
 * <ul>
 * <li>{@code sub}: once a second {@code [pid] 3.000  size 200 total 1494117 lost 0 delta 571815 lost 0 rate
 * 572.75 kS/s 916.40 Mb/s (149.66 kS/s 239.45 Mb/s)}.</li>
 * <li>{@code ping}: once a second per pong peer {@code [pid] 3.000  host:pid size 200 mean 11.553us min 6.998us
 * 50% 11.380us 90% 12.416us 99% 20.160us max 1053.607us cnt 43064}. ddsperf records
 * {@code (now - source timestamp) / 2}, half the round trip, so round-trip figures are twice these (see
 * {@code process_pong} in ddsperf.c 0.10.2); percentiles cover at most the first 20000 round trips of each
 * second.</li>
 * </ul>
 * ddsperf's own {@code rss:} figure is not used: it comes from {@code getrusage}, whose maximum RSS Linux carries
 * over {@code execve}, so a ddsperf started by a JVM reports the JVM's size; the benchmark reads
 * {@code /proc/<pid>/status} instead.
 */
public final class DdsPerfOutput {

    private static final String NUMBER = "([0-9]+(?:\\.[0-9]*)?)";

    private static final Pattern SUB = Pattern.compile("^\\[(\\d+)]\\s+" + NUMBER + "\\s+size (\\d+) total (\\d+) lost "
            + "(\\d+) delta (\\d+) lost (\\d+) rate " + NUMBER + " kS/s");

    private static final Pattern PING = Pattern.compile("^\\[(\\d+)]\\s+" + NUMBER + "\\s+(?:\\S+\\s+)?(\\S+) size "
            + "(\\d+) mean " + NUMBER + "us min " + NUMBER + "us 50% " + NUMBER + "us 90% " + NUMBER + "us 99% "
            + NUMBER + "us max " + NUMBER + "us cnt (\\d+)");

    private DdsPerfOutput() {
    }

    /**
     * One second of a subscriber's report.
     *
     * @param time seconds since the process started
     * @param size the sample size
     * @param total samples received so far
     * @param lost samples known lost so far
     * @param delta samples received in this interval
     * @param deltaLost samples lost in this interval
     * @param rateKs samples per second in this interval, in thousands
     */
    public record SubInterval(double time, int size, long total, long lost, long delta, long deltaLost,
            double rateKs) {
    }

    /**
     * One second of a ping's report for one pong peer; latencies as ddsperf prints them (half round trips).
     */
    public record LatencyWindow(double time, String peer, int size, double meanUs, double minUs, double p50Us,
            double p90Us, double p99Us, double maxUs, long count) {
    }

    /** The steady-state figures of a subscriber's run. */
    public record Throughput(double rateKs, long received, long lost, int intervals) {
    }

    /** Round-trip percentiles, in microseconds. */
    public record RoundTrip(double p50Us, double p99Us, long count, int windows) {
    }

    public static Optional<SubInterval> parseSub(String line) {
        Matcher m = SUB.matcher(line.strip());
        if (!m.find()) {
            return Optional.empty();
        }
        return Optional.of(new SubInterval(Double.parseDouble(m.group(2)), Integer.parseInt(m.group(3)),
                Long.parseLong(m.group(4)), Long.parseLong(m.group(5)), Long.parseLong(m.group(6)),
                Long.parseLong(m.group(7)), Double.parseDouble(m.group(8))));
    }

    public static Optional<LatencyWindow> parsePing(String line) {
        Matcher m = PING.matcher(line.strip());
        if (!m.find()) {
            return Optional.empty();
        }
        return Optional.of(new LatencyWindow(Double.parseDouble(m.group(2)), m.group(3), Integer.parseInt(m.group(4)),
                Double.parseDouble(m.group(5)), Double.parseDouble(m.group(6)), Double.parseDouble(m.group(7)),
                Double.parseDouble(m.group(8)), Double.parseDouble(m.group(9)), Double.parseDouble(m.group(10)),
                Long.parseLong(m.group(11))));
    }

    public static List<SubInterval> subIntervals(List<String> lines) {
        return lines.stream().map(DdsPerfOutput::parseSub).flatMap(Optional::stream).toList();
    }

    public static List<LatencyWindow> latencyWindows(List<String> lines) {
        return lines.stream().map(DdsPerfOutput::parsePing).flatMap(Optional::stream).toList();
    }

    /**
     * The mean rate of the intervals in which data flowed for the whole second: those with data, without the first
     * (the publisher started during it) and the last (it stopped during it). With fewer than three intervals with
     * data, the mean of all of them.
     */
    public static Throughput steadyThroughput(List<SubInterval> intervals) {
        List<SubInterval> flowing = intervals.stream().filter(i -> i.delta() > 0).toList();
        if (flowing.isEmpty()) {
            return new Throughput(0, 0, intervals.isEmpty() ? 0 : intervals.getLast().lost(), 0);
        }
        List<SubInterval> steady = flowing.size() >= 3 ? flowing.subList(1, flowing.size() - 1) : flowing;
        double rate = steady.stream().mapToDouble(SubInterval::rateKs).average().orElse(0);
        SubInterval last = intervals.getLast();
        return new Throughput(rate, last.total(), last.lost(), steady.size());
    }

    /**
     * Round trips from ping windows: the median of the windows' medians and of their 99th percentiles, doubled
     * (ddsperf prints half round trips), keeping only windows that end after {@code warmupSeconds} of the ping
     * process's life.
     */
    public static RoundTrip roundTrip(List<LatencyWindow> windows, double warmupSeconds) {
        List<LatencyWindow> kept = windows.stream().filter(w -> w.time() > warmupSeconds).toList();
        if (kept.isEmpty()) {
            return new RoundTrip(Double.NaN, Double.NaN, 0, 0);
        }
        double p50 = 2 * median(kept.stream().mapToDouble(LatencyWindow::p50Us).toArray());
        double p99 = 2 * median(kept.stream().mapToDouble(LatencyWindow::p99Us).toArray());
        return new RoundTrip(p50, p99, kept.stream().mapToLong(LatencyWindow::count).sum(), kept.size());
    }

    static double median(double[] values) {
        if (values.length == 0) {
            return Double.NaN;
        }
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int middle = sorted.length / 2;
        return sorted.length % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
    }

    /**
     * The value at quantile {@code q} (0..1) of sorted values, nearest rank.
     */
    static long quantile(long[] sorted, int length, double q) {
        if (length == 0) {
            return -1;
        }
        int rank = (int) Math.ceil(q * length);
        return sorted[Math.max(0, Math.min(length - 1, rank - 1))];
    }

    /** Formats a subscriber line as ddsperf does, so one parser reads both. */
    static String subLine(long pid, double time, int size, long total, long lost, long delta, long deltaLost,
            double seconds) {
        double rate = delta / seconds / 1e3;
        double mbps = delta * (double) size * 8 / seconds / 1e6;
        return String.format(java.util.Locale.ROOT,
                "[%d] %.3f  size %d total %d lost %d delta %d lost %d rate %.2f kS/s %.2f Mb/s (0.00 kS/s 0.00 Mb/s)",
                pid, time, size, total, lost, delta, deltaLost, rate, mbps);
    }
}
