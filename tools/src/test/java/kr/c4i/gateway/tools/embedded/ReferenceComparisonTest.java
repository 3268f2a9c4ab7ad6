package kr.c4i.gateway.tools.embedded;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import kr.c4i.gateway.tools.embedded.InboxProbe.Latency;
import kr.c4i.gateway.tools.embedded.ReplicationReference.Durability;
import kr.c4i.gateway.tools.embedded.ReplicationReference.Result;

import static org.assertj.core.api.Assertions.assertThat;

class ReferenceComparisonTest {

    private static final Instant START = Instant.parse("2026-11-22T10:00:00Z");
    private static final Optional<LoadAverage> QUIET = Optional.of(new LoadAverage(0.1, 0.25, 0.5));
    private static final Optional<LoadAverage> BUSY = Optional.of(new LoadAverage(2.35, 1.5, 1));

    @TempDir
    Path dir;

    @Test
    void printsBothFiguresTheirRatioAndTheLoad() {
        // 50,000 rows in 1.0 s: 50,000 rows/s; the bridge at 6,000 msg/s is 0.12 of it.
        Result reference = new Result(new Latency(50_000, 12.5, 480.25, 900, START, START.plusSeconds(1)), 61_234.4,
                new Durability(Map.of("synchronous_commit", "on", "fsync", "on")));
        ReferenceComparison comparison = new ReferenceComparison(6000, 9000, Optional.of(reference), QUIET, BUSY);

        assertThat(comparison.ratio()).hasValueSatisfying(ratio -> assertThat(ratio).isEqualTo(0.12));
        assertThat(comparison.lines()).containsExactly(
                "reference                : 50000 rows/s over 50000 rows (publisher fed at 61234 rows/s)",
                "reference method         : PostgreSQL logical replication, fsync=on, synchronous_commit=on",
                "reference latency        : p50 12.5 ms, p99 480.3 ms under full load",
                "bridge / reference       : 0.120 (6000 msg/s / 50000 rows/s)",
                "load average (1/5/15 min): 0.10 0.25 0.50 at start, 2.35 1.50 1.00 at end");
    }

    @Test
    void callsTheRatioABoundWhenOneSideKeptPaceWithItsFeed() {
        // 50,000 rows/s replicated of 51,000 fed: 98% of the feed, so replication was not the limit.
        Result keptPace = new Result(new Latency(50_000, 12.5, 480.25, 900, START, START.plusSeconds(1)), 51_000,
                new Durability(Map.of()));
        Result behind = new Result(keptPace.latency(), 53_000, new Durability(Map.of()));
        // The bridge at 25,000 msg/s of 40,000 fed fell behind its feed; of 25,500 fed it kept pace.
        assertThat(new ReferenceComparison(25_000, 40_000, Optional.of(keptPace), QUIET, QUIET).lines()).contains(
                "bridge / reference       : 0.500 (25000 msg/s / 50000 rows/s); an upper bound: the reference kept"
                        + " pace with its feed (98.0% of it)");
        assertThat(new ReferenceComparison(25_000, 25_500, Optional.of(behind), QUIET, QUIET).lines()).contains(
                "bridge / reference       : 0.500 (25000 msg/s / 50000 rows/s); a lower bound: the bridge kept pace"
                        + " with its feed (98.0% of it)");
        assertThat(new ReferenceComparison(25_000, 25_500, Optional.of(keptPace), QUIET, QUIET).lines()).contains(
                "bridge / reference       : 0.500 (25000 msg/s / 50000 rows/s); both kept pace with their feeds (the"
                        + " bridge 98.0%, the reference 98.0%): the ratio compares the feeds");
        assertThat(new ReferenceComparison(25_000, 40_000, Optional.of(behind), QUIET, QUIET).lines()).contains(
                "bridge / reference       : 0.500 (25000 msg/s / 50000 rows/s)");
    }

    @Test
    void saysSoWhenTheReferenceWasSkippedOrHasNoFigure() {
        ReferenceComparison skipped = new ReferenceComparison(6000, 9000, Optional.empty(), QUIET, Optional.empty());
        assertThat(skipped.lines()).containsExactly(
                "reference                : skipped (--no-reference)",
                "load average (1/5/15 min): 0.10 0.25 0.50 at start, n/a at end");
        Result instant = new Result(new Latency(10, 0, 0, 0, START, START), 0, new Durability(Map.of()));
        ReferenceComparison noFigure = new ReferenceComparison(6000, 9000, Optional.of(instant), QUIET, QUIET);
        assertThat(noFigure.ratio()).isEmpty();
        assertThat(noFigure.lines()).contains("bridge / reference       : n/a (no reference figure)");
    }

    @Test
    void readsTheLoadAverageFromProc() throws Exception {
        Path loadavg = Files.writeString(dir.resolve("loadavg"), "0.08 0.23 0.31 1/512 12345\n");
        assertThat(LoadAverage.read(loadavg)).contains(new LoadAverage(0.08, 0.23, 0.31));
        assertThat(LoadAverage.read(dir.resolve("missing"))).isEmpty();
        assertThat(LoadAverage.read(Files.writeString(dir.resolve("garbled"), "load\n"))).isEmpty();
    }
}
