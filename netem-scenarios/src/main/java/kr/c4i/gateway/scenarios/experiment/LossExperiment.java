package kr.c4i.gateway.scenarios.experiment;

import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

import org.jspecify.annotations.Nullable;

import kr.c4i.gateway.interfacedb.InterfaceDatabaseClient.InboxStats;
import kr.c4i.gateway.scenarios.net.EmulatedNetwork;
import kr.c4i.gateway.scenarios.net.LinkShape;
import kr.c4i.gateway.scenarios.net.PortCounters.LossCount;
import kr.c4i.gateway.scenarios.net.PortCounters;
import kr.c4i.gateway.scenarios.net.Rate;
import kr.c4i.gateway.scenarios.node.KmtfBodies;

/**
 * Tables 4 and 5: 1:1 from host 1 to host 2 with both hosts' links at the cell's rate and loss (loss on every
 * frame each host sends: data one way, acknowledgements the other). Messages per second delivered, and how many
 * arrived by the deadline. A lossless calibration at 1 Gbit/s first measures the transport's wire bytes per
 * message, from which each cell's loss-adjusted capacity follows.
 */
final class LossExperiment {

    static final int PUBLISHER = 1;
    static final int RECEIVER = 2;
    private static final List<Integer> HOSTS = List.of(PUBLISHER, RECEIVER);
    private static final Duration DRAIN_TIMEOUT = Duration.ofSeconds(90);
    private static final int SETTLE_MESSAGES = 5;

    private final EmulatedNetwork network;
    private final RunPlan plan;
    private final ScenarioTypes types;
    private final Consumer<String> log;

    LossExperiment(EmulatedNetwork network, RunPlan plan, ScenarioTypes types, Consumer<String> log) {
        this.network = network;
        this.plan = plan;
        this.types = types;
        this.log = log;
    }

    /** The lossless run: wire bytes per message on an unimpaired 1 Gbit/s link. */
    RepetitionResult calibrate(Testbed pair) throws Exception {
        return measure(pair, null, 1);
    }

    RepetitionResult run(Testbed pair, LossCell cell, int repetition, @Nullable Double bytesPerMessage)
            throws Exception {
        RepetitionResult result = measure(pair, cell, repetition);
        if (bytesPerMessage == null || bytesPerMessage <= 0) {
            return result;
        }
        Map<String, Double> m = new LinkedHashMap<>(result.metrics());
        double capacity = capacity(cell, bytesPerMessage);
        m.put(Metrics.CAPACITY, capacity);
        result.metric(Metrics.MSG_PER_S).ifPresent(rate -> m.put(Metrics.EFFICIENCY, rate / capacity));
        return new RepetitionResult(result.experiment(), result.transport(), result.cell(), result.repetition(),
                result.startedAt(), result.expected(), result.delivered(), m, result.note());
    }

    /** Link rate x (1 - loss) / wire bytes per message, in messages per second. */
    static double capacity(LossCell cell, double bytesPerMessage) {
        return cell.rate().bytesPerSecond() * (1 - cell.loss()) / bytesPerMessage;
    }

    private RepetitionResult measure(Testbed pair, @Nullable LossCell cell, int repetition) throws Exception {
        String cellKey = cell == null ? CellKeys.CALIBRATION : CellKeys.loss(cell);
        Duration settled = pair.awaitSettled(ExperimentKind.LOSS.key() + " " + cellKey, plan.deliveryTimeout());
        Instant started = Instant.now();
        String tag = "loss-" + pair.transport().label() + "-" + repetition + "-"
                + Long.toString(System.nanoTime() % 1_000_000, 36);
        List<byte[]> bodies = KmtfBodies.of(types.loss(), plan.lossSize(), plan.lossMessages());
        Duration timeout = cell == null ? plan.deliveryTimeout() : plan.lossTimeout(cell);
        StringBuilder note = new StringBuilder();

        LinkShape shape = cell == null ? new LinkShape(Rate.GBIT_1, 0, plan.queuePackets())
                : new LinkShape(cell.rate(), cell.loss(), plan.queuePackets());
        network.shape(HOSTS, shape);
        long delivered;
        InboxStats inbox;
        PortCounters sent;
        Map<String, LossCount> lossBefore;
        Map<String, LossCount> lossAfter;
        Instant deadline;
        Instant lastSent;
        try {
            lossBefore = network.lossCounters();
            PortCounters before = network.port(PUBLISHER);
            pair.node(PUBLISHER).database().insertNumbered(tag, types.loss(), bodies);
            deadline = Instant.now().plus(timeout);
            delivered = pair.awaitInboxes(tag, List.of(RECEIVER), plan.lossMessages(), deadline).get(RECEIVER);
            sent = network.port(PUBLISHER).minus(before);
            lossAfter = network.lossCounters();
            inbox = pair.node(RECEIVER).database().inboxStats(tag);
            lastSent = pair.node(PUBLISHER).database().outboxStats(tag).lastSent();
        }
        finally {
            network.shape(HOSTS, new LinkShape(Rate.GBIT_1, 0, plan.queuePackets()));
        }
        if (delivered < plan.lossMessages()) {
            note.append("only ").append(delivered).append(" of ").append(plan.lossMessages()).append(" within ")
                    .append(timeout.toSeconds()).append(" s");
            long drained = pair.awaitInboxes(tag, List.of(RECEIVER), plan.lossMessages(),
                    Instant.now().plus(DRAIN_TIMEOUT)).get(RECEIVER);
            note.append(drained >= plan.lossMessages() ? "; the rest arrived once the link was restored"
                    : "; " + drained + " after " + DRAIN_TIMEOUT.toSeconds() + " s on the restored link");
            log.accept(pair.transport().label() + " loss " + cellKey + ": " + note);
        }
        if (cell != null) {
            // After a slow, lossy cell TCP keeps a backed-off timer and (BBR) a pacing rate of the slow link: the
            // next measurement would pay for this one. Fresh connections, warmed on the restored link, instead.
            network.resetTcp(PUBLISHER, RECEIVER);
            pair.warmUp(Map.of(types.loss(), List.of(RECEIVER)), SETTLE_MESSAGES, plan.lossSize(), DRAIN_TIMEOUT);
        }

        Map<String, Double> m = new LinkedHashMap<>();
        m.put(Metrics.SETTLE_MS, (double) settled.toMillis());
        if (inbox.firstCreated() != null) {
            Instant end = delivered >= plan.lossMessages() && inbox.lastReceived() != null ? inbox.lastReceived()
                    : deadline;
            double seconds = Duration.between(inbox.firstCreated(), end).toNanos() / 1e9;
            m.put(Metrics.DURATION_MS, seconds * 1000);
            m.put(Metrics.MSG_PER_S, seconds > 0 ? delivered / seconds : 0);
        }
        else {
            m.put(Metrics.MSG_PER_S, 0.0);
        }
        m.put(Metrics.WIRE_BYTES, (double) sent.rxBytes());
        m.put(Metrics.WIRE_PACKETS, (double) sent.rxPackets());
        m.put(Metrics.BYTES_PER_MESSAGE, sent.rxBytes() / (double) plan.lossMessages());
        RecoveryExperiment.put(m, Metrics.FIRST_DELIVERY_MS, inbox.firstCreated(), inbox.firstReceived(), true);
        RecoveryExperiment.put(m, Metrics.SENT_MS, inbox.firstCreated(), lastSent, true);
        String pub = network.topology().switchPort(PUBLISHER);
        String sub = network.topology().switchPort(RECEIVER);
        if (lossAfter.containsKey(pub)) {
            double ratio = lossAfter.get(pub).minus(lossBefore.getOrDefault(pub, new LossCount(0, 0))).ratio();
            if (!Double.isNaN(ratio)) {
                m.put(Metrics.MEASURED_LOSS, ratio);
            }
        }
        if (lossAfter.containsKey(sub)) {
            double ratio = lossAfter.get(sub).minus(lossBefore.getOrDefault(sub, new LossCount(0, 0))).ratio();
            if (!Double.isNaN(ratio)) {
                m.put(Metrics.MEASURED_LOSS_BACK, ratio);
            }
        }
        return new RepetitionResult(ExperimentKind.LOSS.key(), pair.transport().label(), cellKey, repetition, started,
                plan.lossMessages(), delivered, m, note.toString());
    }
}
