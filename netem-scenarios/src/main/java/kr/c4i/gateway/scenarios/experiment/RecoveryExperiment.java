package kr.c4i.gateway.scenarios.experiment;

import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import kr.c4i.gateway.interfacedb.InterfaceDatabaseClient.InboxStats;
import kr.c4i.gateway.interfacedb.InterfaceDatabaseClient.OutboxStats;
import kr.c4i.gateway.scenarios.net.EmulatedNetwork;
import kr.c4i.gateway.scenarios.node.GatewayNode;
import kr.c4i.gateway.scenarios.node.KmtfBodies;
import kr.c4i.gateway.scenarios.node.NamespaceProbe;
import kr.c4i.gateway.scenarios.node.NodeSettings;
import kr.c4i.gateway.core.transport.TransportKind;

/**
 * Table 2: the receiving node (host 2) is stopped in an emergency, the publisher (host 1) prepares the messages
 * while it is gone, and the receiver recovers. The response time runs from t0 (the receiver is back: see
 * {@link RecoveryOrder}) to the last message committed in its inbox, and is broken down into reconnect or
 * discovery, first message and last message.
 */
final class RecoveryExperiment {

    static final int PUBLISHER = 1;
    static final int RECEIVER = 2;
    private static final Duration PREPARE_TIMEOUT = Duration.ofSeconds(30);
    private static final Duration STALL = Duration.ofSeconds(3);

    private final EmulatedNetwork network;
    private final RunPlan plan;
    private final ScenarioTypes types;

    RecoveryExperiment(EmulatedNetwork network, RunPlan plan, ScenarioTypes types) {
        this.network = network;
        this.plan = plan;
        this.types = types;
    }

    RepetitionResult run(Testbed pair, int repetition) throws Exception {
        Instant started = Instant.now();
        TransportKind transport = pair.transport();
        GatewayNode publisher = pair.node(PUBLISHER);
        GatewayNode receiver = pair.node(RECEIVER);
        String tag = "rec-" + transport.label() + "-" + repetition + "-"
                + Long.toString(System.nanoTime() % 1_000_000, 36);
        List<byte[]> bodies = KmtfBodies.of(types.recovery(), plan.recoverySize(), plan.recoveryMessages());
        StringBuilder note = new StringBuilder();

        network.emergencyStop(RECEIVER);
        receiver.crashed();

        publisher.database().insertNumbered(tag, types.recovery(), bodies);
        OutboxStats prepared = awaitSent(publisher, tag);
        if (prepared.unsent() > 0) {
            note.append("the publisher had sent ").append(prepared.rows() - prepared.unsent()).append(" of ")
                    .append(prepared.rows()).append(" when the receiver came back; ");
        }

        Instant t0;
        NamespaceProbe probe;
        int jmsPort = transport == TransportKind.JMS ? NodeSettings.JMS_PORT : 0;
        String publisherAddress = network.topology().hostAddress(PUBLISHER);
        if (plan.recoveryOrder() == RecoveryOrder.RESTART_THEN_LIFT) {
            receiver.start(plan.nodeStartTimeout());
            probe = new NamespaceProbe(receiver.pid(), network.topology().hostInterface(), jmsPort, publisherAddress);
            t0 = Instant.now();
            network.uncut(RECEIVER);
        }
        else {
            network.uncut(RECEIVER);
            receiver.start(plan.nodeStartTimeout());
            probe = new NamespaceProbe(receiver.pid(), network.topology().hostInterface(), jmsPort, publisherAddress);
            t0 = receiver.readyAt();
        }
        Map<Integer, Long> got;
        InboxStats inbox;
        try (probe) {
            got = pair.awaitInboxes(tag, List.of(RECEIVER), plan.recoveryMessages(),
                    Instant.now().plus(plan.deliveryTimeout()));
            inbox = receiver.database().inboxStats(tag);
        }
        long delivered = got.get(RECEIVER);
        if (delivered < plan.recoveryMessages()) {
            note.append("only ").append(delivered).append(" of ").append(plan.recoveryMessages())
                    .append(" delivered within ").append(plan.deliveryTimeout().toSeconds()).append(" s; ");
        }

        Map<String, Double> m = new LinkedHashMap<>();
        Instant reconnect = transport == TransportKind.JMS ? jmsReconnect(publisher, probe, t0) : probe.firstFrame();
        put(m, Metrics.RESPONSE_MS, t0, inbox.lastReceived(), delivered >= plan.recoveryMessages());
        put(m, Metrics.RECONNECT_MS, t0, reconnect, true);
        put(m, Metrics.FIRST_FRAME_MS, t0, probe.firstFrame(), true);
        put(m, Metrics.FIRST_MESSAGE_MS, t0, inbox.firstReceived(), true);
        put(m, Metrics.LAST_MESSAGE_MS, t0, inbox.lastReceived(), true);
        m.put(Metrics.BOOT_MS, (double) receiver.bootTime().toMillis());
        m.put(Metrics.SENT_BEFORE, (double) (prepared.rows() - prepared.unsent()));
        return new RepetitionResult(ExperimentKind.RECOVERY.key(), transport.label(), CellKeys.RECOVERY, repetition,
                started, plan.recoveryMessages(), delivered, m, note.toString().strip());
    }

    /** JMS: the TCP connection from the publisher's broker, else the publisher's log line saying its bridge is up. */
    private static @Nullable Instant jmsReconnect(GatewayNode publisher, NamespaceProbe probe, Instant t0) {
        if (probe.established() != null) {
            return probe.established();
        }
        String bridge = "kmtf-bridge-to-n" + RECEIVER;
        return publisher.eventAfter(t0.minusSeconds(60), l -> l.contains("AMQ221027") && l.contains(bridge))
                .map(GatewayNode.LogEvent::at).orElse(null);
    }

    /**
     * Waits until the publisher has sent everything (JMS: into its own broker, to forward later), or sends no more
     * for {@link #STALL} (a transport that holds messages back while no receiver is there).
     */
    private static OutboxStats awaitSent(GatewayNode publisher, String tag) throws Exception {
        Instant deadline = Instant.now().plus(PREPARE_TIMEOUT);
        OutboxStats stats = publisher.database().outboxStats(tag);
        Instant progressed = Instant.now();
        while (stats.unsent() > 0 && Instant.now().isBefore(deadline)
                && Instant.now().isBefore(progressed.plus(STALL))) {
            Thread.sleep(50);
            OutboxStats next = publisher.database().outboxStats(tag);
            if (next.unsent() < stats.unsent()) {
                progressed = Instant.now();
            }
            stats = next;
        }
        return stats;
    }

    /** Milliseconds from t0 to {@code at}, when both are known (and the value is meaningful). */
    static void put(Map<String, Double> metrics, String name, @Nullable Instant t0, @Nullable Instant at,
            boolean meaningful) {
        if (t0 != null && at != null && meaningful) {
            metrics.put(name, Duration.between(t0, at).toNanos() / 1e6);
        }
    }
}
