package kr.c4i.gateway.scenarios.experiment;

import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

import kr.c4i.gateway.interfacedb.InterfaceDatabaseClient.InboxStats;
import kr.c4i.gateway.scenarios.net.EmulatedNetwork;
import kr.c4i.gateway.scenarios.net.PortCounters;
import kr.c4i.gateway.scenarios.node.KmtfBodies;

/**
 * Table 3: host 1 publishes messages of the type routed to N subscribers; what the publisher's host put on the
 * wire is its switch port's received bytes, and the bit rate is that over the sending interval (first outbox
 * insert to the last message in the last subscriber's inbox).
 */
final class FanOutExperiment {

    static final int PUBLISHER = 1;
    /** Lets the last acknowledgements and the publisher's answers to them reach the counters. */
    private static final Duration SETTLE = Duration.ofMillis(250);

    private final EmulatedNetwork network;
    private final RunPlan plan;
    private final ScenarioTypes types;

    FanOutExperiment(EmulatedNetwork network, RunPlan plan, ScenarioTypes types) {
        this.network = network;
        this.plan = plan;
        this.types = types;
    }

    RepetitionResult run(Testbed fanOut, int subscribers, int repetition) throws Exception {
        Duration settled = fanOut.awaitSettled(ExperimentKind.FANOUT.key() + " " + CellKeys.fanOut(subscribers),
                plan.deliveryTimeout());
        Instant started = Instant.now();
        String type = types.fanOut().get(subscribers);
        List<Integer> receivers = IntStream.rangeClosed(2, subscribers + 1).boxed().toList();
        String tag = "fan-" + fanOut.transport().label() + "-" + subscribers + "-" + repetition + "-"
                + Long.toString(System.nanoTime() % 1_000_000, 36);
        List<byte[]> bodies = KmtfBodies.of(type, plan.fanOutSize(), plan.fanOutMessages());

        PortCounters before = network.port(PUBLISHER);
        fanOut.node(PUBLISHER).database().insertNumbered(tag, type, bodies);
        Map<Integer, Long> got = fanOut.awaitInboxes(tag, receivers, plan.fanOutMessages(),
                Instant.now().plus(plan.deliveryTimeout()));
        Thread.sleep(SETTLE);
        PortCounters sent = network.port(PUBLISHER).minus(before);

        Instant firstCreated = null;
        Instant firstReceived = null;
        Instant lastReceived = null;
        for (int host : receivers) {
            InboxStats s = fanOut.node(host).database().inboxStats(tag);
            firstCreated = earliest(firstCreated, s.firstCreated());
            firstReceived = earliest(firstReceived, s.firstReceived());
            lastReceived = latest(lastReceived, s.lastReceived());
        }
        Instant lastSent = fanOut.node(PUBLISHER).database().outboxStats(tag).lastSent();
        long delivered = got.values().stream().mapToLong(Long::longValue).min().orElse(0);
        Map<String, Double> m = new LinkedHashMap<>();
        m.put(Metrics.SETTLE_MS, (double) settled.toMillis());
        m.put(Metrics.WIRE_BYTES, (double) sent.rxBytes());
        m.put(Metrics.WIRE_PACKETS, (double) sent.rxPackets());
        m.put(Metrics.BYTES_PER_MESSAGE, sent.rxBytes() / (double) plan.fanOutMessages());
        String note = "";
        if (firstCreated != null && lastReceived != null) {
            double seconds = Duration.between(firstCreated, lastReceived).toNanos() / 1e9;
            m.put(Metrics.INTERVAL_MS, seconds * 1000);
            if (seconds > 0) {
                m.put(Metrics.BIT_RATE, sent.rxBytes() * 8 / seconds);
            }
        }
        RecoveryExperiment.put(m, Metrics.FIRST_DELIVERY_MS, firstCreated, firstReceived, true);
        RecoveryExperiment.put(m, Metrics.SENT_MS, firstCreated, lastSent, true);
        if (delivered < plan.fanOutMessages()) {
            note = "not every subscriber got every message within " + plan.deliveryTimeout().toSeconds() + " s: " + got;
        }
        return new RepetitionResult(ExperimentKind.FANOUT.key(), fanOut.transport().label(),
                CellKeys.fanOut(subscribers), repetition, started, plan.fanOutMessages(), delivered, m, note);
    }

    static Instant earliest(Instant a, Instant b) {
        return a == null ? b : b == null || a.isBefore(b) ? a : b;
    }

    static Instant latest(Instant a, Instant b) {
        return a == null ? b : b == null || a.isAfter(b) ? a : b;
    }
}
