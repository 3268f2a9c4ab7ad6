package kr.c4i.gateway.tools.embedded;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Whether a soak's memory, threads and open files stayed flat: each {@link SoakMetric#judged judged} figure's growth
 * from the baseline sample to the last, flat under {@value #FLAT_PERCENT}%. The baseline is the first sample at or
 * after {@link #SETTLING} (10 minutes), or after a sixth of the run when that is shorter: what a run grows while its
 * caches, pools, JIT and broker journals fill is not a leak.
 *
 * @param baselineAt when the baseline is due
 * @param baseline the first sample at or after {@code baselineAt}, if any
 * @param last the last sample, if any
 * @param growths each judged figure's growth; empty unless the run has a sample after its baseline
 */
record SoakVerdict(Duration baselineAt, Optional<SoakSample> baseline, Optional<SoakSample> last,
        List<Growth> growths) {

    static final Duration SETTLING = Duration.ofMinutes(10);
    static final int FLAT_PERCENT = 10;

    /**
     * One figure's growth.
     *
     * @param growth {@code (last - baseline) / baseline}; NaN when either was not read
     */
    record Growth(SoakMetric metric, double baseline, double last, double growth) {

        boolean measured() {
            return !Double.isNaN(growth);
        }

        /** Under {@value #FLAT_PERCENT}% growth; shrinking is flat. A figure not read is not called growing. */
        boolean flat() {
            return !measured() || growth < FLAT_PERCENT / 100.0;
        }

        String line() {
            String figures = String.format(Locale.ROOT, "%-55s %10.1f -> %10.1f", metric.label(), baseline, last);
            if (!measured()) {
                return figures + "   not measured";
            }
            return figures + String.format(Locale.ROOT, "  %+7.1f%%  %s", 100 * growth, flat() ? "flat" : "GROWING");
        }
    }

    /** When a run of {@code duration} takes its baseline: at 10 minutes, or at a sixth of a shorter run. */
    static Duration baselineAt(Duration duration) {
        Duration sixth = duration.dividedBy(6);
        return sixth.compareTo(SETTLING) < 0 ? sixth : SETTLING;
    }

    /**
     * Why a run of {@code duration} sampled every {@code every} would have no sample after its baseline (samples are
     * taken at every multiple of {@code every} and at the end), or empty when it has one.
     */
    static Optional<String> tooShort(Duration duration, Duration every) {
        Duration due = baselineAt(duration);
        long periods = (due.toNanos() + every.toNanos() - 1) / every.toNanos();
        Duration baselineSample = every.multipliedBy(periods);
        if (baselineSample.compareTo(duration) < 0) {
            return Optional.empty();
        }
        return Optional.of("--sample-every " + OptionValues.spelling(every) + " leaves no sample after the baseline, "
                + "due at " + OptionValues.spelling(due) + " of a " + OptionValues.spelling(duration)
                + " run: sample more often or run longer");
    }

    /** The verdict on these samples, in the order taken, of a run meant to last {@code duration}. */
    static SoakVerdict of(List<SoakMetric> metrics, List<SoakSample> samples, Duration duration) {
        Duration due = baselineAt(duration);
        Optional<SoakSample> baseline = samples.stream().filter(s -> s.elapsed().compareTo(due) >= 0).findFirst();
        Optional<SoakSample> last = samples.isEmpty() ? Optional.empty() : Optional.of(samples.getLast());
        List<Growth> growths = new ArrayList<>();
        if (baseline.isPresent() && baseline.get() != last.get()) {
            for (SoakMetric metric : metrics) {
                if (metric.judged()) {
                    double from = baseline.get().value(metric);
                    double to = last.get().value(metric);
                    growths.add(new Growth(metric, from, to, growth(from, to)));
                }
            }
        }
        return new SoakVerdict(due, baseline, last, List.copyOf(growths));
    }

    /** {@code (last - baseline) / baseline}; from nothing, any rise is endless growth. */
    static double growth(double baseline, double last) {
        if (Double.isNaN(baseline) || Double.isNaN(last)) {
            return Double.NaN;
        }
        if (baseline <= 0) {
            return last <= baseline ? 0 : Double.POSITIVE_INFINITY;
        }
        return (last - baseline) / baseline;
    }

    /** Whether there was a sample after the baseline to judge by. */
    boolean judged() {
        return !growths.isEmpty();
    }

    /** Judged, and every judged figure flat. */
    boolean flat() {
        return judged() && growths.stream().allMatch(Growth::flat);
    }

    List<SoakMetric> growing() {
        return growths.stream().filter(g -> !g.flat()).map(Growth::metric).toList();
    }

    /** The verdict as the command prints it and the summary keeps it. */
    List<String> lines() {
        List<String> lines = new ArrayList<>();
        if (!judged()) {
            lines.add("verdict: not judged, no sample after the baseline due at " + ProgressLine.duration(baselineAt));
            return lines;
        }
        lines.add("growth from the sample at " + ProgressLine.duration(baseline.orElseThrow().elapsed())
                + " to the last, at " + ProgressLine.duration(last.orElseThrow().elapsed()) + " (flat: under "
                + FLAT_PERCENT + "%):");
        growths.forEach(g -> lines.add("  " + g.line()));
        lines.add(flat() ? "verdict: flat"
                : "verdict: GROWING: " + String.join(", ", growing().stream().map(SoakMetric::column).toList()));
        return lines;
    }
}
