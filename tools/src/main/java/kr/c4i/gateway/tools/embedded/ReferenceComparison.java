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
 *
 * @param bridgeFedPerSecond how fast the load generator got the bridge's rows into node a's outbox
 */
record ReferenceComparison(double bridgePerSecond, double bridgeFedPerSecond, Optional<Result> reference,
        Optional<LoadAverage> loadAtStart, Optional<LoadAverage> loadAtEnd) {

    /**
     * A side this close to the rate its rows were fed at kept pace with its feed and might have gone faster: its
     * figure is the feed's. A reference held so makes the ratio an upper bound, a bridge held so a lower one.
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

    private String feedBound(Result result) {
        Optional<Double> bridge = shareOfFeed(bridgePerSecond, bridgeFedPerSecond);
        Optional<Double> replication = shareOfFeed(result.rowsPerSecond(), result.fedPerSecond());
        if (bridge.isPresent() && replication.isPresent()) {
            return format("; both kept pace with their feeds (the bridge %.1f%%, the reference %.1f%%): the ratio"
                    + " compares the feeds", 100 * bridge.get(), 100 * replication.get());
        }
        if (replication.isPresent()) {
            return format("; an upper bound: the reference kept pace with its feed (%.1f%% of it)",
                    100 * replication.get());
        }
        return bridge.map(share -> format("; a lower bound: the bridge kept pace with its feed (%.1f%% of it)",
                100 * share)).orElse("");
    }

    /** What share of its feed a side moved, when that is {@link #FEED_BOUND_SHARE} or more. */
    private static Optional<Double> shareOfFeed(double perSecond, double fedPerSecond) {
        return Optional.of(fedPerSecond).filter(fed -> fed > 0).map(fed -> perSecond / fed)
                .filter(share -> share >= FEED_BOUND_SHARE);
    }

    private static String load(Optional<LoadAverage> load) {
        return load.map(LoadAverage::toString).orElse("n/a");
    }

    private static String format(String format, Object... arguments) {
        return String.format(Locale.ROOT, format, arguments);
    }
}
