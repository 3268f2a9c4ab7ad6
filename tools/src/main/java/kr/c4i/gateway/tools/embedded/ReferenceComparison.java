package kr.c4i.gateway.tools.embedded;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

import kr.c4i.gateway.tools.embedded.ReplicationReference.Result;

/**
 * The bench's last lines: the bridge's throughput against the reference's (PostgreSQL's logical
 * replication) measured in the same run, and the machine's load around the run. The ratio is the
 * figure to compare across machines and runs; the absolute figures move with the machine's load.
 */
record ReferenceComparison(double bridgePerSecond, Optional<Result> reference, Optional<LoadAverage> loadAtStart,
        Optional<LoadAverage> loadAtEnd) {

    /**
     * A reference this close to the rate its publisher was fed at kept pace with the feed: replication could have
     * gone faster, so its figure is the feed's and the ratio an upper bound.
     */
    static final double FEED_BOUND_SHARE = 0.95;

    /** Bridge over reference, or empty without a usable reference figure. */
    Optional<Double> ratio() {
        return reference.map(Result::rowsPerSecond)
                .filter(rate -> rate > 0 && Double.isFinite(rate) && Double.isFinite(bridgePerSecond))
                .map(rate -> bridgePerSecond / rate);
    }

    List<String> lines() {
        List<String> lines = new ArrayList<>();
        reference.ifPresentOrElse(result -> {
            lines.add(format("reference                : %.0f rows/s over %d rows (publisher fed at %.0f rows/s)",
                    result.rowsPerSecond(), result.latency().rows(), result.fedPerSecond()));
            lines.add("reference method         : PostgreSQL logical replication, " + result.durability());
            lines.add(format("reference latency        : p50 %.1f ms, p99 %.1f ms under full load",
                    result.latency().p50Millis(), result.latency().p99Millis()));
            lines.add("bridge / reference       : "
                    + ratio().map(r -> format("%.3f (%.0f msg/s / %.0f rows/s)", r, bridgePerSecond,
                            result.rowsPerSecond()) + feedBound(result)).orElse("n/a (no reference figure)"));
        }, () -> lines.add("reference                : skipped (--no-reference)"));
        lines.add("load average (1/5/15 min): " + load(loadAtStart) + " at start, " + load(loadAtEnd) + " at end");
        return lines;
    }

    private static String feedBound(Result result) {
        double share = result.rowsPerSecond() / result.fedPerSecond();
        return (result.fedPerSecond() > 0 && share >= FEED_BOUND_SHARE)
                ? format("; an upper bound: the reference kept pace with its feed (%.1f%% of it)", 100 * share)
                : "";
    }

    private static String load(Optional<LoadAverage> load) {
        return load.map(LoadAverage::toString).orElse("n/a");
    }

    private static String format(String format, Object... arguments) {
        return String.format(Locale.ROOT, format, arguments);
    }
}
