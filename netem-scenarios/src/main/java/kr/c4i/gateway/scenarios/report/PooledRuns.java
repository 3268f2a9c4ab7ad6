package kr.c4i.gateway.scenarios.report;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import kr.c4i.gateway.scenarios.experiment.RepetitionResult;
import kr.c4i.gateway.scenarios.experiment.RunResult;
import kr.c4i.gateway.scenarios.experiment.RunSetup;

/**
 * Several runs of one plan on one setup pooled into one, so the study's 15 repetitions can be measured in parts
 * (the loss experiment alone takes longer than a working session). Runs that differ in anything but their
 * repetition count are refused: their repetitions would not measure the same thing.
 */
public final class PooledRuns {

    private PooledRuns() {
    }

    /**
     * @param command the command that pooled them, recorded with each part's
     * @throws IllegalArgumentException if fewer than two runs are given or they differ in plan or setup
     */
    public static RunResult pool(List<RunResult> runs, String command) {
        if (runs.size() < 2) {
            throw new IllegalArgumentException("pooling needs at least two runs, got " + runs.size());
        }
        RunResult first = runs.getFirst();
        for (RunResult run : runs.subList(1, runs.size())) {
            requireSame("plan", first.plan().withRepetitions(1), run.plan().withRepetitions(1), run);
            requireSame("setup", comparable(first.setup()), comparable(run.setup()), run);
        }
        List<RunResult> ordered = runs.stream().sorted(Comparator.comparing(RunResult::startedAt)).toList();
        Map<String, Integer> numbers = new HashMap<>();
        List<RepetitionResult> repetitions = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        StringBuilder parts = new StringBuilder(command).append(" (pooled from ").append(ordered.size())
                .append(" runs:");
        int total = 0;
        for (RunResult run : ordered) {
            parts.append(" '").append(run.command()).append("' started ").append(run.startedAt()).append(';');
            total += run.plan().repetitions();
            for (RepetitionResult r : run.repetitions()) {
                int number = numbers.merge(r.experiment() + '|' + r.transport() + '|' + r.cell(), 1, Integer::sum);
                repetitions.add(new RepetitionResult(r.experiment(), r.transport(), r.cell(), number, r.startedAt(),
                        r.expected(), r.delivered(), r.metrics(), r.note()));
            }
            run.problems().forEach(p -> problems.add(run.startedAt() + ": " + p));
        }
        parts.setLength(parts.length() - 1);
        parts.append(')');
        Instant started = ordered.getFirst().startedAt();
        Instant finished = ordered.stream().map(RunResult::finishedAt).max(Comparator.naturalOrder()).orElseThrow();
        return new RunResult(parts.toString(), started, finished, first.plan().withRepetitions(total),
                first.setup(), repetitions, problems);
    }

    private static void requireSame(String what, Object expected, Object actual, RunResult run) {
        if (!expected.equals(actual)) {
            throw new IllegalArgumentException("The run started " + run.startedAt() + " has another " + what
                    + " than the first, so their repetitions do not measure the same thing: " + expected
                    + " vs " + actual);
        }
    }

    /**
     * The setup without what may differ between runs of one build on one machine: the subnet, the directory of the
     * node jar's copy (bin/scenarios copies it into a directory of each run's own); a run saved before security was
     * recorded ran plain.
     */
    private static RunSetup comparable(RunSetup s) {
        return new RunSetup(s.backend(), s.congestionControl(), s.arpRetryMillis(), s.hosts(), "", s.queues(),
                s.kernel(), s.cpus(), s.java(), jarName(s.nodeJar()), s.nodeHeap(), s.types(), s.nodeProperties(),
                s.gatewayProperties(), Boolean.TRUE.equals(s.secured()));
    }

    private static String jarName(String path) {
        return path.substring(path.lastIndexOf('/') + 1);
    }
}
