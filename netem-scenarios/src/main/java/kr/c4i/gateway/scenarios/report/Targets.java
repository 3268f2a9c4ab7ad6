package kr.c4i.gateway.scenarios.report;

import java.util.ArrayList;
import java.util.List;

import kr.c4i.gateway.scenarios.experiment.CellKeys;
import kr.c4i.gateway.scenarios.experiment.ExperimentKind;
import kr.c4i.gateway.scenarios.experiment.LossCell;
import kr.c4i.gateway.scenarios.experiment.Metrics;
import kr.c4i.gateway.scenarios.experiment.RepetitionResult;
import kr.c4i.gateway.scenarios.experiment.RunResult;

/** The targets, each checked against a run: met, missed, or not measured by it. */
public final class Targets {

    /** DDS recovery must be faster than this (ms). */
    public static final double RECOVERY_DDS_LIMIT_MS = 500;
    /** ... and this many times faster than the study's DDS. */
    public static final double RECOVERY_DDS_SPEEDUP = 5;
    /** DDS wire bytes at the largest N over those at N = 1 (multicast). */
    public static final double FANOUT_DDS_GROWTH = 1.1;
    /** DDS msg/s over the loss-adjusted capacity. */
    public static final double LOSS_DDS_EFFICIENCY = 0.7;

    private static final String JMS = "jms";
    private static final String DDS = "dds";

    /** Whether a target was met. */
    public enum Status {
        MET, MISSED, NOT_MEASURED
    }

    /**
     * One target and how the run did.
     *
     * @param id short stable name
     * @param description the target in words
     * @param status met, missed, or not measured
     * @param measured the numbers behind the status
     */
    public record Check(String id, String description, Status status, String measured) {
    }

    private Targets() {
    }

    public static boolean anyMissed(List<Check> checks) {
        return checks.stream().anyMatch(c -> c.status() == Status.MISSED);
    }

    public static List<Check> evaluate(RunResult run) {
        List<Check> checks = new ArrayList<>();
        recovery(run, checks);
        fanOut(run, checks);
        loss(run, checks);
        NormTargets.checks(run, checks);
        return checks;
    }

    private static void recovery(RunResult run, List<Check> checks) {
        Stats dds = Cells.stats(run, ExperimentKind.RECOVERY, DDS, CellKeys.RECOVERY, Metrics.RESPONSE_MS);
        long ddsIncomplete = Cells.incomplete(run, ExperimentKind.RECOVERY, DDS, CellKeys.RECOVERY);
        Stats jms = Cells.stats(run, ExperimentKind.RECOVERY, JMS, CellKeys.RECOVERY, Metrics.RESPONSE_MS);
        long jmsIncomplete = Cells.incomplete(run, ExperimentKind.RECOVERY, JMS, CellKeys.RECOVERY);
        boolean ddsRan = !Cells.of(run, ExperimentKind.RECOVERY, DDS, CellKeys.RECOVERY).isEmpty();
        boolean jmsRan = !Cells.of(run, ExperimentKind.RECOVERY, JMS, CellKeys.RECOVERY).isEmpty();

        checks.add(check("recovery-dds-fast", "Recovery: DDS response time under " + Fmt.whole(RECOVERY_DDS_LIMIT_MS)
                + " ms", ddsRan, ddsIncomplete == 0 && dds.present() && dds.mean() < RECOVERY_DDS_LIMIT_MS,
                recoveryText(dds, ddsIncomplete)));
        double studyDds = StudyFigures.RECOVERY_DDS.mean();
        checks.add(check("recovery-dds-vs-study", "Recovery: DDS at least " + Fmt.whole(RECOVERY_DDS_SPEEDUP)
                + "x faster than the study's DDS (" + Fmt.whole(studyDds) + " ms)", ddsRan,
                ddsIncomplete == 0 && dds.present() && dds.mean() * RECOVERY_DDS_SPEEDUP <= studyDds,
                ddsRan && dds.present() ? Fmt.ratio(studyDds / dds.mean()) + "x faster" : recoveryText(dds, ddsIncomplete)));
        double studyJms = StudyFigures.RECOVERY_JMS.mean();
        checks.add(check("recovery-jms-vs-study", "Recovery: JMS under the study's JMS (" + Fmt.whole(studyJms) + " ms)",
                jmsRan, jmsIncomplete == 0 && jms.present() && jms.mean() < studyJms,
                recoveryText(jms, jmsIncomplete) + (jms.present() ? ", " + Fmt.ratio(studyJms / jms.mean())
                        + "x faster than the study" : "")));
    }

    private static String recoveryText(Stats stats, long incomplete) {
        return (stats.present() ? "mean " + Fmt.whole(stats.mean()) + " ms over " + stats.n() : "no complete run")
                + (incomplete > 0 ? ", " + incomplete + " incomplete" : "");
    }

    private static void fanOut(RunResult run, List<Check> checks) {
        int maxN = run.plan().subscribers().stream().mapToInt(Integer::intValue).max().orElse(1);
        Stats dds1 = Cells.stats(run, ExperimentKind.FANOUT, DDS, CellKeys.fanOut(1), Metrics.WIRE_BYTES);
        Stats ddsN = Cells.stats(run, ExperimentKind.FANOUT, DDS, CellKeys.fanOut(maxN), Metrics.WIRE_BYTES);
        Stats jms1 = Cells.stats(run, ExperimentKind.FANOUT, JMS, CellKeys.fanOut(1), Metrics.WIRE_BYTES);
        boolean ddsMeasured = dds1.present() && ddsN.present() && maxN > 1;
        checks.add(check("fanout-dds-multicast", "1:N: DDS wire bytes at N=" + maxN + " at most "
                + Fmt.ratio(FANOUT_DDS_GROWTH) + "x those at N=1 (multicast)", ddsMeasured,
                ddsMeasured && ddsN.mean() <= FANOUT_DDS_GROWTH * dds1.mean(),
                ddsMeasured ? Fmt.whole(ddsN.mean()) + " / " + Fmt.whole(dds1.mean()) + " bytes = "
                        + Fmt.ratio(ddsN.mean() / dds1.mean()) + "x" : ""));
        boolean both = dds1.present() && jms1.present();
        checks.add(check("fanout-dds-vs-jms", "1:N: DDS wire bytes at N=1 no more than JMS at N=1", both,
                both && dds1.mean() <= jms1.mean(),
                both ? "DDS " + Fmt.whole(dds1.mean()) + ", JMS " + Fmt.whole(jms1.mean()) + " bytes (DDS/JMS "
                        + Fmt.ratio(dds1.mean() / jms1.mean()) + ")" : ""));
    }

    private static void loss(RunResult run, List<Check> checks) {
        List<RepetitionResult> ddsReps = run.repetitions().stream()
                .filter(r -> r.experiment().equals(ExperimentKind.LOSS.key()) && r.transport().equals(DDS)
                        && !r.cell().equals(CellKeys.CALIBRATION))
                .toList();
        long incomplete = ddsReps.stream().filter(r -> !r.complete()).count();
        checks.add(check("loss-dds-complete", "Loss: DDS RELIABLE delivers every message in every cell",
                !ddsReps.isEmpty(), incomplete == 0, ddsReps.size() - incomplete + " of " + ddsReps.size()
                        + " repetitions complete"));

        List<String> belowCapacity = new ArrayList<>();
        List<String> notFaster = new ArrayList<>();
        int capacityCells = 0;
        int comparedCells = 0;
        for (LossCell cell : run.plan().lossCells()) {
            Stats dds = Cells.stats(run, ExperimentKind.LOSS, DDS, cell.key(), Metrics.MSG_PER_S);
            Stats capacity = Cells.stats(run, ExperimentKind.LOSS, DDS, cell.key(), Metrics.CAPACITY);
            Stats jms = Cells.stats(run, ExperimentKind.LOSS, JMS, cell.key(), Metrics.MSG_PER_S);
            if (dds.present() && capacity.present()) {
                capacityCells++;
                if (dds.mean() < LOSS_DDS_EFFICIENCY * capacity.mean()) {
                    belowCapacity.add(cell.key() + ": " + Fmt.number(dds.mean()) + " of " + Fmt.number(capacity.mean())
                            + " msg/s (" + Fmt.percent(dds.mean() / capacity.mean()) + ")");
                }
            }
            if (dds.present() && jms.present()) {
                comparedCells++;
                if (!(dds.mean() > jms.mean())) {
                    notFaster.add(cell.key() + ": DDS " + Fmt.number(dds.mean()) + " vs JMS " + Fmt.number(jms.mean()));
                }
            }
        }
        checks.add(check("loss-dds-capacity", "Loss: DDS at least " + Fmt.percent(LOSS_DDS_EFFICIENCY)
                + " of the loss-adjusted link capacity in every cell", capacityCells > 0, belowCapacity.isEmpty(),
                belowCapacity.isEmpty() ? capacityCells + " cells" : String.join("; ", belowCapacity)));
        checks.add(check("loss-dds-beats-jms", "Loss: DDS delivers more msg/s than JMS in every cell",
                comparedCells > 0, notFaster.isEmpty(),
                notFaster.isEmpty() ? comparedCells + " cells" : String.join("; ", notFaster)));
    }

    private static Check check(String id, String description, boolean measured, boolean met, String text) {
        return new Check(id, description, !measured ? Status.NOT_MEASURED : met ? Status.MET : Status.MISSED,
                measured ? text : "not measured by this run");
    }
}
