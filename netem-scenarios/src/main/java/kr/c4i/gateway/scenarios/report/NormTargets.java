package kr.c4i.gateway.scenarios.report;

import java.time.Duration;
import java.util.ArrayList;
import java.util.IntSummaryStatistics;
import java.util.List;
import java.util.OptionalDouble;

import org.jspecify.annotations.Nullable;

import kr.c4i.gateway.scenarios.experiment.CellKeys;
import kr.c4i.gateway.scenarios.experiment.ExperimentKind;
import kr.c4i.gateway.scenarios.experiment.LossCell;
import kr.c4i.gateway.scenarios.experiment.Metrics;
import kr.c4i.gateway.scenarios.experiment.RepetitionResult;
import kr.c4i.gateway.scenarios.experiment.RunResult;
import kr.c4i.gateway.scenarios.experiment.WanPlan;
import kr.c4i.gateway.scenarios.experiment.WanVariant;
import kr.c4i.gateway.scenarios.net.Rate;
import kr.c4i.gateway.scenarios.node.WanLinkKind;
import kr.c4i.gateway.scenarios.report.Targets.Check;
import kr.c4i.gateway.scenarios.report.Targets.Status;

/**
 * The targets for the {@code norm} WAN link, per cell and variant of the {@code wan} experiment: every
 * message delivered, at least 90% of the payload bound, more than the bound with compression (a variant with
 * compression off has no such target), and FLASH p99 limits at 2 Mbit/s and 128 kbit/s. The FLASH target names a
 * 10 MB ROUTINE backlog; the experiment's backlog is its ROUTINE load, which is reported as it is. Across a delay (a
 * satellite hop) the targets are issue 30's: every message delivered, the same share of the bound, and FLASH p99 under
 * {@value #DELAYED_FLASH_P99_MS} ms at 30% loss and 128 kbit/s; more than the bound is not asked there.
 */
public final class NormTargets {

    /** Share of the payload bound the link must carry in every cell. */
    public static final double BOUND_SHARE = 0.9;
    /** FLASH p99 limit at 2 Mbit/s (ms). */
    public static final double FLASH_P99_2MBIT_MS = 1000;
    /** FLASH p99 limit at 128 kbit/s (ms). */
    public static final double FLASH_P99_128KBIT_MS = 2500;
    /** FLASH p99 limit across a delay, at 30% loss and 128 kbit/s (ms). */
    public static final double DELAYED_FLASH_P99_MS = 2500;
    /** The ROUTINE backlog the FLASH target names (bytes). */
    public static final long TARGET_BACKLOG_BYTES = 10_000_000;

    private static final String NORM = WanLinkKind.NORM.label();

    private NormTargets() {
    }

    /**
     * One loss cell of the {@code wan} experiment over {@code norm} in one variant, each target met, missed or not
     * measured.
     *
     * @param cell loss and rate
     * @param delay the WAN's one-way delay; zero for none
     * @param variant the bodies and compression it ran with
     * @param repetitions repetitions run
     * @param incomplete repetitions in which a ROUTINE or FLASH message did not arrive in time
     * @param msgPerS messages per second across the WAN
     * @param bound the payload bound of the cell
     * @param flashP99 the worst repetition's FLASH p99 (ms); NaN when none was measured
     * @param flashLimitMs the cell's FLASH p99 limit (ms); NaN when the target sets none at its rate
     * @param reliable every message in every repetition
     * @param boundShare at least {@link #BOUND_SHARE} of the bound
     * @param aboveBound more than the bound (what compression should reach); not measured with compression off
     * @param flash the FLASH p99 under its limit
     */
    public record Cell(LossCell cell, Duration delay, WanVariant variant, int repetitions, long incomplete,
            Stats msgPerS, double bound, double flashP99, double flashLimitMs, Status reliable, Status boundShare,
            Status aboveBound, Status flash) {

        /** Its key in result files. */
        public String key() {
            return CellKeys.wan(cell.key(), delay, variant);
        }

        public boolean delayed() {
            return !delay.isZero();
        }
    }

    /** The FLASH p99 limit at a rate (ms), NaN where the target sets none. */
    public static double flashLimitMs(Rate rate) {
        return rate.bitsPerSecond() == Rate.MBIT_2.bitsPerSecond() ? FLASH_P99_2MBIT_MS
                : rate.bitsPerSecond() == Rate.KBIT_128.bitsPerSecond() ? FLASH_P99_128KBIT_MS : Double.NaN;
    }

    /** The FLASH p99 limit of a cell (ms), NaN where the target sets none: across a delay, only at 30% x 128 kbit/s. */
    public static double flashLimitMs(LossCell cell, Duration delay) {
        if (delay.isZero()) {
            return flashLimitMs(cell.rate());
        }
        return cell.rate().bitsPerSecond() == Rate.KBIT_128.bitsPerSecond() && Math.round(cell.loss() * 100) == 30
                ? DELAYED_FLASH_P99_MS : Double.NaN;
    }

    /** The most ROUTINE bytes written at once at site 1 before a cell's FLASH probes. */
    public static long largestBacklogBytes(WanPlan wan) {
        return (long) wan.messageCounts().getMax() * wan.size();
    }

    /** The ROUTINE load the cells' FLASH probes follow: {@code 1,000 x 200 B = 200 kB}, or a range of them. */
    public static String backlogText(WanPlan wan) {
        IntSummaryStatistics counts = wan.messageCounts();
        if (counts.getMin() == counts.getMax()) {
            return Fmt.whole(counts.getMax()) + " x " + wan.size() + " B = "
                    + Fmt.whole(largestBacklogBytes(wan) / 1000.0) + " kB";
        }
        return Fmt.whole(counts.getMin()) + "-" + Fmt.whole(counts.getMax()) + " x " + wan.size() + " B = "
                + Fmt.whole((double) counts.getMin() * wan.size() / 1000.0) + "-"
                + Fmt.whole(largestBacklogBytes(wan) / 1000.0) + " kB";
    }

    /**
     * The {@code wan} plan's loss cells as the {@code norm} link did in them, each variant of a cell after the other
     * (empty when it did not run).
     */
    public static List<Cell> cells(RunResult run) {
        WanPlan wan = run.plan().wan();
        List<Cell> cells = new ArrayList<>();
        if (!run.plan().runs(ExperimentKind.WAN)) {
            return cells;
        }
        for (Duration delay : wan.delays()) {
            for (LossCell cell : wan.cells()) {
                for (WanVariant variant : wan.variants()) {
                    Cell c = cell(run, wan, cell, delay, variant);
                    if (c != null) {
                        cells.add(c);
                    }
                }
            }
        }
        return cells;
    }

    private static @Nullable Cell cell(RunResult run, WanPlan wan, LossCell cell, Duration delay, WanVariant variant) {
        String key = CellKeys.wan(cell.key(), delay, variant);
        List<RepetitionResult> reps = Cells.of(run, ExperimentKind.WAN, NORM, key);
        if (reps.isEmpty()) {
            return null;
        }
        long incomplete = reps.stream().filter(r -> !allArrived(r, wan)).count();
        Stats rate = Cells.stats(run, ExperimentKind.WAN, NORM, key, Metrics.MSG_PER_S);
        double bound = cell.payloadBound(wan.size());
        double p99 = reps.stream().map(r -> r.metric(Metrics.FLASH_P99_MS)).filter(OptionalDouble::isPresent)
                .mapToDouble(OptionalDouble::getAsDouble).max().orElse(Double.NaN);
        double limit = flashLimitMs(cell, delay);
        boolean p99Missing = reps.stream().anyMatch(r -> r.metric(Metrics.FLASH_P99_MS).isEmpty());
        return new Cell(cell, delay, variant, reps.size(), incomplete, rate, bound, p99, limit,
                incomplete == 0 ? Status.MET : Status.MISSED,
                status(rate.present(), rate.mean() >= BOUND_SHARE * bound),
                variant.compressed() && delay.isZero() ? status(rate.present(), rate.mean() > bound)
                        : Status.NOT_MEASURED,
                Double.isNaN(limit) ? Status.NOT_MEASURED
                        : status(true, !p99Missing && incomplete == 0 && p99 < limit));
    }

    /** The outage's repetitions over the norm link at these delays, every variant; none when the plan has no outage. */
    private static List<RepetitionResult> outages(RunResult run, WanPlan wan, List<Duration> delays) {
        if (wan.outage() == null) {
            return List.of();
        }
        return delays.stream().flatMap(d -> wan.variants().stream()
                .flatMap(v -> Cells.of(run, ExperimentKind.WAN, NORM, wan.outageKey(d, v)).stream())).toList();
    }

    /** ROUTINE and FLASH: the repetition's count, and every FLASH probe it sent. */
    private static boolean allArrived(RepetitionResult r, WanPlan wan) {
        return r.complete() && r.metric(Metrics.FLASH_DELIVERED).orElse(0) >= wan.flashMessages();
    }

    private static Status status(boolean measured, boolean met) {
        return !measured ? Status.MISSED : met ? Status.MET : Status.MISSED;
    }

    /** The targets as checks of the run, each naming the cells that missed it. */
    static void checks(RunResult run, List<Check> checks) {
        List<Cell> all = cells(run);
        List<Cell> cells = all.stream().filter(c -> !c.delayed()).toList();
        boolean ran = !cells.isEmpty();
        @Nullable WanPlan wan = run.plan().runs(ExperimentKind.WAN) ? run.plan().wan() : null;
        List<RepetitionResult> outage = wan == null ? List.of() : outages(run, wan, List.of(Duration.ZERO));
        long outageIncomplete = outage.stream().filter(r -> !r.complete()).count();
        long reps = cells.stream().mapToLong(Cell::repetitions).sum() + outage.size();
        long incomplete = cells.stream().mapToLong(Cell::incomplete).sum() + outageIncomplete;
        checks.add(check("wan-norm-reliable", "WAN norm: RELIABLE, every message (ROUTINE, FLASH, outage) delivered "
                + "in every repetition", ran, incomplete == 0, reps - incomplete + " of " + reps
                        + " repetitions complete" + missed(cells, Cell::reliable, c -> c.incomplete() + " incomplete")));
        checks.add(check("wan-norm-bound", "WAN norm: at least " + Fmt.percent(BOUND_SHARE) + " of the payload bound "
                + "(rate x (1 - loss) / (8 x message size)) in every cell", ran, none(cells, Cell::boundShare),
                count(cells) + missed(cells, Cell::boundShare, NormTargets::shareText)));
        List<Cell> compressedCells = cells.stream().filter(c -> c.aboveBound() != Status.NOT_MEASURED).toList();
        checks.add(check("wan-norm-above-bound", "WAN norm: with compression more msg/s than the payload bound in every "
                + "cell", !compressedCells.isEmpty(), none(compressedCells, Cell::aboveBound),
                count(compressedCells) + missed(compressedCells, Cell::aboveBound, NormTargets::shareText)));
        List<Cell> flashCells = cells.stream().filter(c -> c.flash() != Status.NOT_MEASURED).toList();
        String backlog = wan == null ? "" : backlogText(wan);
        checks.add(check("wan-norm-flash", "WAN norm: FLASH p99 under " + Fmt.whole(FLASH_P99_2MBIT_MS) + " ms at 2 "
                + "Mbit/s and " + Fmt.whole(FLASH_P99_128KBIT_MS) + " ms at 128 kbit/s (target: with a 10 MB ROUTINE "
                + "backlog; this run's ROUTINE load: " + backlog + ")", !flashCells.isEmpty(),
                none(flashCells, Cell::flash), count(flashCells) + ", worst p99 "
                        + Fmt.whole(flashCells.stream().mapToDouble(Cell::flashP99).max().orElse(Double.NaN)) + " ms"
                        + missed(flashCells, Cell::flash, c -> "p99 " + Fmt.whole(c.flashP99()) + " ms")
                        + (wan != null && largestBacklogBytes(wan) < TARGET_BACKLOG_BYTES
                                ? "; measured behind " + backlog + ", not the target's 10 MB" : "")));
        if (wan != null && wan.delayed()) {
            delayedChecks(run, all.stream().filter(Cell::delayed).toList(), checks);
        }
    }

    /** Across a delay, when the run had one: every message delivered, the bound's share, FLASH at 30% x 128k. */
    private static void delayedChecks(RunResult run, List<Cell> cells, List<Check> checks) {
        boolean ran = !cells.isEmpty();
        WanPlan wan = run.plan().wan();
        List<RepetitionResult> outage = !ran ? List.of()
                : outages(run, wan, wan.delays().stream().filter(d -> !d.isZero()).toList());
        long reps = cells.stream().mapToLong(Cell::repetitions).sum() + outage.size();
        long incomplete = cells.stream().mapToLong(Cell::incomplete).sum()
                + outage.stream().filter(r -> !r.complete()).count();
        checks.add(check("wan-norm-delay-reliable", "WAN norm across a delay: every message (ROUTINE, FLASH, outage) "
                + "delivered in every repetition", ran, incomplete == 0, reps - incomplete + " of " + reps
                        + " repetitions complete" + missed(cells, Cell::reliable, c -> c.incomplete() + " incomplete")));
        checks.add(check("wan-norm-delay-bound", "WAN norm across a delay: at least " + Fmt.percent(BOUND_SHARE)
                + " of the payload bound in every cell", ran, none(cells, Cell::boundShare),
                count(cells) + missed(cells, Cell::boundShare, NormTargets::shareText)));
        List<Cell> flashCells = cells.stream().filter(c -> c.flash() != Status.NOT_MEASURED).toList();
        checks.add(check("wan-norm-delay-flash", "WAN norm across a delay: FLASH p99 under "
                + Fmt.whole(DELAYED_FLASH_P99_MS) + " ms at 30% loss and 128 kbit/s behind the ROUTINE load",
                !flashCells.isEmpty(), none(flashCells, Cell::flash), count(flashCells) + ", worst p99 "
                        + Fmt.whole(flashCells.stream().mapToDouble(Cell::flashP99).max().orElse(Double.NaN)) + " ms"
                        + missed(flashCells, Cell::flash, c -> "p99 " + Fmt.whole(c.flashP99()) + " ms")));
    }

    private static String count(List<Cell> cells) {
        return cells.size() + (cells.size() == 1 ? " cell" : " cells");
    }

    private static String shareText(Cell c) {
        return Fmt.number(c.msgPerS().mean()) + " of " + Fmt.number(c.bound()) + " msg/s ("
                + Fmt.percent(c.msgPerS().mean() / c.bound()) + ")";
    }

    private static boolean none(List<Cell> cells, java.util.function.Function<Cell, Status> target) {
        return cells.stream().noneMatch(c -> target.apply(c) == Status.MISSED);
    }

    private static String missed(List<Cell> cells, java.util.function.Function<Cell, Status> target,
            java.util.function.Function<Cell, String> text) {
        List<String> missed = cells.stream().filter(c -> target.apply(c) == Status.MISSED)
                .map(c -> c.key() + ": " + text.apply(c)).toList();
        return missed.isEmpty() ? "" : "; missed " + String.join("; ", missed);
    }

    private static Check check(String id, String description, boolean measured, boolean met, String text) {
        return new Check(id, description, !measured ? Status.NOT_MEASURED : met ? Status.MET : Status.MISSED,
                measured ? text : "not measured by this run");
    }
}
