package kr.c4i.gateway.scenarios.experiment;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.jspecify.annotations.Nullable;

import kr.c4i.gateway.scenarios.net.Rate;
import kr.c4i.gateway.core.transport.TransportKind;

/**
 * What a run does: experiments, transports, repetitions and every cell's size. {@link #full} is the study's
 * set; {@link #quick} is the CI set (one repetition, fewer messages, two loss cells).
 *
 * @param experiments experiments to run, in this order per transport
 * @param transports transports to run, each through every experiment
 * @param repetitions repetitions of every cell (the study ran 15)
 * @param quick whether this is the quick set
 * @param recoveryMessages messages prepared on the publisher while the receiver is stopped (study: 200)
 * @param recoverySize bytes per recovery message (study: 1,024)
 * @param fanOutMessages messages per 1:N repetition (study: 1,000)
 * @param fanOutSize bytes per 1:N message (study: 200)
 * @param subscribers the N of 1:N (study: 1, 3, 5)
 * @param lossMessages messages per loss repetition (study: 1,000)
 * @param lossSize bytes per loss message (study: 200)
 * @param lossCells loss and link rate of each loss cell (study: 10% and 30% x 128k, 256k, 2M)
 * @param queuePackets full-size frames each shaper may queue
 * @param recoveryOrder whether a stopped node restarts before or after its cut is lifted
 * @param nodeStartTimeout how long all nodes of a deployment may take to report READY
 * @param deliveryTimeout how long recovery and 1:N repetitions may take to deliver everything
 * @param cellTimeout how long a loss repetition may take; null: from the cell's nominal capacity
 * @param warmupMessages messages per type sent (and not measured) after a deployment starts
 * @param wan the {@code wan} experiment's links and cells; absent in runs made before it existed
 */
public record RunPlan(List<ExperimentKind> experiments, List<TransportKind> transports, int repetitions, boolean quick,
        int recoveryMessages, int recoverySize, int fanOutMessages, int fanOutSize, List<Integer> subscribers,
        int lossMessages, int lossSize, List<LossCell> lossCells, int queuePackets, RecoveryOrder recoveryOrder,
        Duration nodeStartTimeout, Duration deliveryTimeout, @Nullable Duration cellTimeout, int warmupMessages,
        WanPlan wan) {

    /** Rough wire size of a 200-byte message, only for deadlines. */
    private static final int DEADLINE_WIRE_BYTES = 400;
    private static final Duration MIN_CELL_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration MAX_CELL_TIMEOUT = Duration.ofSeconds(600);

    public RunPlan {
        experiments = List.copyOf(experiments);
        transports = List.copyOf(transports);
        subscribers = List.copyOf(subscribers);
        lossCells = List.copyOf(lossCells);
        if (experiments.isEmpty() || transports.isEmpty()) {
            throw new IllegalArgumentException("choose at least one experiment and one transport");
        }
        if (repetitions < 1 || repetitions > 1000) {
            throw new IllegalArgumentException("repetitions must be between 1 and 1000, was " + repetitions);
        }
        for (int n : subscribers) {
            if (n < 1) {
                throw new IllegalArgumentException("subscribers must be at least 1, was " + n);
            }
        }
        positive("messages", recoveryMessages, fanOutMessages, lossMessages, warmupMessages);
        if (wan == null) {
            wan = quick ? WanPlan.quick() : WanPlan.full();
        }
    }

    /** A plan with the {@code wan} experiment's default set (quick or full). */
    public RunPlan(List<ExperimentKind> experiments, List<TransportKind> transports, int repetitions, boolean quick,
            int recoveryMessages, int recoverySize, int fanOutMessages, int fanOutSize, List<Integer> subscribers,
            int lossMessages, int lossSize, List<LossCell> lossCells, int queuePackets, RecoveryOrder recoveryOrder,
            Duration nodeStartTimeout, Duration deliveryTimeout, @Nullable Duration cellTimeout, int warmupMessages) {
        this(experiments, transports, repetitions, quick, recoveryMessages, recoverySize, fanOutMessages, fanOutSize,
                subscribers, lossMessages, lossSize, lossCells, queuePackets, recoveryOrder, nodeStartTimeout,
                deliveryTimeout, cellTimeout, warmupMessages, null);
    }

    /** The study's set: 15 repetitions, every cell, the study's message counts. */
    public static RunPlan full(List<ExperimentKind> experiments, List<TransportKind> transports) {
        return new RunPlan(experiments, transports, 15, false, 200, 1024, 1000, 200, List.of(1, 3, 5), 1000, 200,
                studyLossCells(), 50, RecoveryOrder.RESTART_THEN_LIFT, Duration.ofSeconds(240),
                Duration.ofSeconds(180), null, 20);
    }

    /** The CI set: one repetition, 200 messages per 1:N and loss repetition, two loss cells. */
    public static RunPlan quick(List<ExperimentKind> experiments, List<TransportKind> transports) {
        return new RunPlan(experiments, transports, 1, true, 200, 1024, 200, 200, List.of(1, 3, 5), 200, 200,
                List.of(new LossCell(0.1, Rate.MBIT_2), new LossCell(0.3, Rate.KBIT_256)), 50,
                RecoveryOrder.RESTART_THEN_LIFT, Duration.ofSeconds(240), Duration.ofSeconds(120), null, 20);
    }

    public static List<LossCell> studyLossCells() {
        List<LossCell> cells = new ArrayList<>();
        for (double loss : new double[] { 0.1, 0.3 }) {
            for (Rate rate : List.of(Rate.KBIT_128, Rate.KBIT_256, Rate.MBIT_2)) {
                cells.add(new LossCell(loss, rate));
            }
        }
        return cells;
    }

    /** The same plan with another repetition count. */
    public RunPlan withRepetitions(int count) {
        return new RunPlan(experiments, transports, count, quick, recoveryMessages, recoverySize, fanOutMessages,
                fanOutSize, subscribers, lossMessages, lossSize, lossCells, queuePackets, recoveryOrder,
                nodeStartTimeout, deliveryTimeout, cellTimeout, warmupMessages, wan);
    }

    /** The same plan with another {@code wan} set. */
    public RunPlan withWan(WanPlan chosen) {
        return new RunPlan(experiments, transports, repetitions, quick, recoveryMessages, recoverySize, fanOutMessages,
                fanOutSize, subscribers, lossMessages, lossSize, lossCells, queuePackets, recoveryOrder,
                nodeStartTimeout, deliveryTimeout, cellTimeout, warmupMessages, chosen);
    }

    public boolean runs(ExperimentKind kind) {
        return experiments.contains(kind);
    }

    /** The deadline of one loss repetition: 6x the time the cell's capacity needs, within 60-600 s. */
    public Duration lossTimeout(LossCell cell) {
        if (cellTimeout != null) {
            return cellTimeout;
        }
        double nominalSeconds = lossMessages * DEADLINE_WIRE_BYTES * 8.0
                / (cell.rate().bitsPerSecond() * (1 - cell.loss()));
        Duration computed = Duration.ofMillis(Math.round(nominalSeconds * 6000));
        return computed.compareTo(MIN_CELL_TIMEOUT) < 0 ? MIN_CELL_TIMEOUT
                : computed.compareTo(MAX_CELL_TIMEOUT) > 0 ? MAX_CELL_TIMEOUT : computed;
    }

    /** Hosts the 1:N deployment needs: the publisher and the largest N. */
    public int fanOutHosts() {
        return 1 + subscribers.stream().mapToInt(Integer::intValue).max().orElse(1);
    }

    /**
     * A deployment of one transport: nodes on hosts 1 to {@code hosts}, started once for the experiments it serves.
     *
     * @param name part of its directories and log lines
     */
    public record Deployment(String name, int hosts, List<ExperimentKind> experiments) {

        public Deployment {
            experiments = List.copyOf(experiments);
        }

        public boolean runs(ExperimentKind kind) {
            return experiments.contains(kind);
        }
    }

    /**
     * The deployments a transport starts, in order: the 1:1 experiments (recovery, loss) on a pair of hosts, as the
     * study ran them, then 1:N on the publisher and the largest N. A node that recovers discovers, and under DDS
     * Security shakes hands with, every other node of its deployment: among six it took up to 6 s, among two under
     * half a second (docs/results.md, 2026-11-27).
     */
    public List<Deployment> deployments() {
        List<Deployment> deployments = new ArrayList<>();
        List<ExperimentKind> pair = new ArrayList<>();
        for (ExperimentKind kind : List.of(ExperimentKind.RECOVERY, ExperimentKind.LOSS)) {
            if (runs(kind)) {
                pair.add(kind);
            }
        }
        if (!pair.isEmpty()) {
            deployments.add(new Deployment("pair", 2, pair));
        }
        if (runs(ExperimentKind.FANOUT)) {
            deployments.add(new Deployment("fanout", Math.max(2, fanOutHosts()), List.of(ExperimentKind.FANOUT)));
        }
        return deployments;
    }

    /** Progress steps of one transport: each deployment's start and every repetition. */
    public int stepsPerTransport() {
        return deployments().stream().mapToInt(this::steps).sum();
    }

    /** Progress steps of one deployment: its start and every repetition of its experiments. */
    public int steps(Deployment deployment) {
        int steps = 1;
        if (deployment.runs(ExperimentKind.RECOVERY)) {
            steps += repetitions;
        }
        if (deployment.runs(ExperimentKind.LOSS)) {
            steps += 1 + lossCells.size() * repetitions;
        }
        if (deployment.runs(ExperimentKind.FANOUT)) {
            steps += subscribers.size() * repetitions;
        }
        return steps;
    }

    /** Progress steps of the whole run. */
    public int steps() {
        return (transportExperiments() ? stepsPerTransport() * transports.size() : 0) + wanSteps();
    }

    /** Whether an experiment runs that has one deployment per transport (all but {@code wan}). */
    public boolean transportExperiments() {
        return runs(ExperimentKind.RECOVERY) || runs(ExperimentKind.LOSS) || runs(ExperimentKind.FANOUT);
    }

    /** Progress steps of the {@code wan} experiment: per link its deployment's start and every repetition. */
    public int wanSteps() {
        return runs(ExperimentKind.WAN) ? wan.links().size() * (1 + wan.cellCount() * repetitions) : 0;
    }

    private static void positive(String what, int... values) {
        for (int v : values) {
            if (v < 1 || v > 1_000_000) {
                throw new IllegalArgumentException(what + " must be between 1 and 1000000, was " + v);
            }
        }
    }
}
