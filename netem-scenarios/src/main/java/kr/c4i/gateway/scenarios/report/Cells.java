package kr.c4i.gateway.scenarios.report;

import java.util.List;

import kr.c4i.gateway.scenarios.experiment.ExperimentKind;
import kr.c4i.gateway.scenarios.experiment.RepetitionResult;
import kr.c4i.gateway.scenarios.experiment.RunResult;

/** Statistics of one cell's repetitions. */
public final class Cells {

    private Cells() {
    }

    /** The metric over the cell's repetitions that have it. */
    public static Stats stats(RunResult run, ExperimentKind experiment, String transport, String cell, String metric) {
        return Stats.of(run.cell(experiment, transport, cell).stream().map(r -> r.metric(metric))
                .filter(java.util.OptionalDouble::isPresent).map(java.util.OptionalDouble::getAsDouble).toList());
    }

    /** Messages delivered per repetition. */
    public static Stats delivered(RunResult run, ExperimentKind experiment, String transport, String cell) {
        return Stats.of(run.cell(experiment, transport, cell).stream().map(r -> (double) r.delivered()).toList());
    }

    /** Repetitions of the cell that did not deliver everything in time. */
    public static long incomplete(RunResult run, ExperimentKind experiment, String transport, String cell) {
        return run.cell(experiment, transport, cell).stream().filter(r -> !r.complete()).count();
    }

    public static List<RepetitionResult> of(RunResult run, ExperimentKind experiment, String transport, String cell) {
        return run.cell(experiment, transport, cell);
    }
}
