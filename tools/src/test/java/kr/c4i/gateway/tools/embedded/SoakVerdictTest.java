package kr.c4i.gateway.tools.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import kr.c4i.gateway.core.NodeId;

/** The soak's verdict: growth from the baseline sample to the last, flat under 10%, the baseline at 10 minutes. */
class SoakVerdictTest {

    private static final SoakMetric RSS = SoakMetric.JVM_RSS;
    private static final SoakMetric THREADS = SoakMetric.JVM_THREADS;
    private static final SoakMetric LATENCY = SoakMetric.LATENCY_P99;
    private static final List<SoakMetric> METRICS = List.of(RSS, THREADS, LATENCY);

    @ParameterizedTest(name = "{0} to {1}: {2}")
    @CsvSource(textBlock = """
            100, 109.9, 0.099
            100, 110,   0.10
            100, 50,    -0.5
            250, 250,   0
            """)
    void growthIsTheLastOverTheBaselineLessOne(double baseline, double last, double growth) {
        assertThat(SoakVerdict.growth(baseline, last)).isCloseTo(growth, within(1e-9));
    }

    @Test
    void growthFromNothingIsEndlessAndNoFigureIsNoGrowth() {
        assertThat(SoakVerdict.growth(0, 3)).isInfinite();
        assertThat(SoakVerdict.growth(0, 0)).isZero();
        assertThat(SoakVerdict.growth(Double.NaN, 3)).isNaN();
        assertThat(SoakVerdict.growth(3, Double.NaN)).isNaN();
    }

    @ParameterizedTest(name = "a run of {0}: baseline at {1}")
    @CsvSource(textBlock = """
            PT1H,   PT10M
            PT2H,   PT10M
            PT30M,  PT5M
            PT3M,   PT30S
            PT40S,  PT6.666666666S
            """)
    void theBaselineIsAtTenMinutesOrASixthOfAShorterRun(Duration duration, Duration baselineAt) {
        assertThat(SoakVerdict.baselineAt(duration)).isEqualTo(baselineAt);
    }

    @Test
    void growthCountsFromTheFirstSampleAtOrAfterTheBaselineToTheLast() {
        List<SoakSample> samples = new ArrayList<>();
        for (int minute = 0; minute <= 60; minute++) {
            // Memory doubles in the first ten minutes (warming up), then creeps by 5%; threads grow by a third after.
            double rss = minute <= 10 ? 200 + 20 * minute : 400 + 20 * (minute - 10) / 50.0;
            double threads = minute <= 10 ? 100 : 150;
            samples.add(sample(Duration.ofMinutes(minute), Map.of(RSS.column(), rss, THREADS.column(), threads,
                    LATENCY.column(), 5.0 * minute)));
        }
        SoakVerdict verdict = SoakVerdict.of(METRICS, samples, Duration.ofHours(1));

        assertThat(verdict.baseline()).get().extracting(SoakSample::elapsed).isEqualTo(Duration.ofMinutes(10));
        assertThat(verdict.growths()).extracting(g -> g.metric().column())
                .as("only memory, threads and open files are judged").containsExactly(RSS.column(), THREADS.column());
        assertThat(verdict.growths().getFirst().growth()).isCloseTo(0.05, within(1e-9));
        assertThat(verdict.growths().getFirst().flat()).isTrue();
        assertThat(verdict.growths().get(1).growth()).isCloseTo(0.5, within(1e-9));
        assertThat(verdict.judged()).isTrue();
        assertThat(verdict.flat()).isFalse();
        assertThat(verdict.growing()).containsExactly(THREADS);
        assertThat(verdict.lines()).last().isEqualTo("verdict: GROWING: jvm_threads");
        assertThat(verdict.lines()).anyMatch(line -> line.contains(RSS.label()) && line.contains("+5.0%")
                && line.endsWith("flat"));
    }

    @Test
    void aSampleTakenLateStillCountsAsTheBaseline() {
        List<SoakSample> samples = List.of(sample(Duration.ZERO, Map.of(RSS.column(), 100.0)),
                sample(Duration.ofSeconds(612), Map.of(RSS.column(), 300.0)),
                sample(Duration.ofMinutes(60), Map.of(RSS.column(), 320.0)));
        SoakVerdict verdict = SoakVerdict.of(List.of(RSS), samples, Duration.ofHours(1));
        assertThat(verdict.baseline()).get().extracting(SoakSample::elapsed).isEqualTo(Duration.ofSeconds(612));
        assertThat(verdict.flat()).isTrue();
        assertThat(verdict.lines()).first().asString().startsWith("growth from the sample at 10 min 12 s to the last, "
                + "at 1 h 00 min");
    }

    @Test
    void tenPercentOrMoreIsGrowingAndLessIsFlat() {
        SoakVerdict growing = SoakVerdict.of(List.of(RSS), List.of(sample(Duration.ofMinutes(10), Map.of(RSS.column(),
                100.0)), sample(Duration.ofMinutes(60), Map.of(RSS.column(), 110.0))), Duration.ofHours(1));
        SoakVerdict shrinking = SoakVerdict.of(List.of(RSS), List.of(sample(Duration.ofMinutes(10), Map.of(RSS.column(),
                100.0)), sample(Duration.ofMinutes(60), Map.of(RSS.column(), 60.0))), Duration.ofHours(1));
        assertThat(growing.flat()).isFalse();
        assertThat(shrinking.flat()).isTrue();
    }

    @Test
    void aFigureNotReadIsReportedButNotCalledGrowing() {
        SoakVerdict verdict = SoakVerdict.of(List.of(RSS, THREADS), List.of(
                sample(Duration.ofMinutes(10), Map.of(RSS.column(), 100.0, THREADS.column(), 50.0)),
                sample(Duration.ofMinutes(60), Map.of(THREADS.column(), 51.0))), Duration.ofHours(1));
        assertThat(verdict.flat()).isTrue();
        assertThat(verdict.lines()).anyMatch(line -> line.contains(RSS.label()) && line.endsWith("not measured"));
    }

    @Test
    void aShortRunTakesItsBaselineAtASixthOfItsLength() {
        List<SoakSample> samples = new ArrayList<>();
        for (int seconds = 0; seconds <= 180; seconds += 30) {
            double rss = seconds == 0 ? 50.0 : 100.0 + seconds / 30;
            samples.add(sample(Duration.ofSeconds(seconds), Map.of(RSS.column(), rss)));
        }
        SoakVerdict verdict = SoakVerdict.of(List.of(RSS), samples, Duration.ofMinutes(3));
        assertThat(verdict.baseline()).get().extracting(SoakSample::elapsed).isEqualTo(Duration.ofSeconds(30));
        assertThat(verdict.growths().getFirst().baseline()).isEqualTo(101.0);
        assertThat(verdict.growths().getFirst().last()).isEqualTo(106.0);
        assertThat(verdict.flat()).isTrue();
    }

    @Test
    void aRunStoppedBeforeASampleFollowsItsBaselineIsNotJudged() {
        List<SoakSample> early = List.of(sample(Duration.ZERO, Map.of(RSS.column(), 100.0)),
                sample(Duration.ofMinutes(5), Map.of(RSS.column(), 500.0)));
        List<SoakSample> onlyTheBaseline = List.of(sample(Duration.ZERO, Map.of(RSS.column(), 100.0)),
                sample(Duration.ofMinutes(10), Map.of(RSS.column(), 500.0)));
        for (List<SoakSample> samples : List.of(early, onlyTheBaseline, List.<SoakSample>of())) {
            SoakVerdict verdict = SoakVerdict.of(List.of(RSS), samples, Duration.ofHours(1));
            assertThat(verdict.judged()).isFalse();
            assertThat(verdict.flat()).isFalse();
            assertThat(verdict.lines()).containsExactly("verdict: not judged, no sample after the baseline due at "
                    + "10 min 00 s");
        }
    }

    @ParameterizedTest(name = "--duration {0} --sample-every {1}")
    @CsvSource(textBlock = """
            PT1H,  PT1M
            PT3M,  PT30S
            PT40S, PT10S
            PT20S, PT5S
            PT2M,  PT1M
            """)
    void aRunWithASampleAfterItsBaselineIsLongEnough(Duration duration, Duration every) {
        assertThat(SoakVerdict.tooShort(duration, every)).isEmpty();
    }

    @Test
    void aRunWithoutASampleAfterItsBaselineIsTooShortAndSaysWhy() {
        assertThat(SoakVerdict.tooShort(Duration.ofMinutes(1), Duration.ofMinutes(1))).contains("--sample-every 1m "
                + "leaves no sample after the baseline, due at 10s of a 1m run: sample more often or run longer");
        assertThat(SoakVerdict.tooShort(Duration.ofHours(1), Duration.ofMinutes(90))).isPresent();
        assertThat(SoakVerdict.tooShort(Duration.ofMinutes(10), Duration.ofMinutes(10))).isPresent();
    }

    @Test
    void everyNodesDatabaseHasItsJudgedFigures() {
        List<SoakMetric> all = SoakMetric.all(List.of(NodeId.of("a"), NodeId.of("b")));
        assertThat(all).filteredOn(SoakMetric::judged).extracting(SoakMetric::column).containsExactly("jvm_rss_mb",
                "heap_after_gc_mb", "jvm_threads", "jvm_open_files", "pg_a_private_mb", "pg_b_private_mb");
        assertThat(all).extracting(SoakMetric::column).doesNotHaveDuplicates()
                .contains("gc_time_ms", "pg_a_memory_mb", "pg_a_shared_mb", "pg_a_open_files", "pg_a_processes",
                        "db_a_size_mb", "db_b_size_mb", "outbox_lag", "inbox_lag", "latency_p99_ms");
    }

    private static SoakSample sample(Duration elapsed, Map<String, Double> values) {
        return new SoakSample(elapsed, Instant.parse("2026-11-26T00:00:00Z").plus(elapsed), values);
    }
}
