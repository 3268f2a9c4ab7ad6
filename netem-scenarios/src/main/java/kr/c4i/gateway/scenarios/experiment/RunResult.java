package kr.c4i.gateway.scenarios.experiment;

import java.time.Instant;
import java.util.List;

/**
 * Everything a run produced: how it was set up, every repetition, and what could not be done. Written as
 * {@code results.json}; reports and charts are rendered from it alone.
 *
 * @param command the command line that made the run
 * @param startedAt when the run started
 * @param finishedAt when it finished
 * @param plan what the run was asked to do
 * @param setup how the network and the nodes were set up
 * @param repetitions every repetition of every cell
 * @param problems what could not be done (a transport whose nodes did not start, a failed repetition)
 */
public record RunResult(String command, Instant startedAt, Instant finishedAt, RunPlan plan, RunSetup setup,
        List<RepetitionResult> repetitions, List<String> problems) {

    public RunResult {
        repetitions = List.copyOf(repetitions);
        problems = List.copyOf(problems);
    }

    /** The repetitions of one cell. */
    public List<RepetitionResult> cell(ExperimentKind experiment, String transport, String cell) {
        return repetitions.stream().filter(r -> r.experiment().equals(experiment.key())
                && r.transport().equals(transport) && r.cell().equals(cell)).toList();
    }
}
