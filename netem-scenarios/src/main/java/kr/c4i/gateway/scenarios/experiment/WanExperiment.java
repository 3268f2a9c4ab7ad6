package kr.c4i.gateway.scenarios.experiment;

import java.io.IOException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.function.Consumer;
import java.util.random.RandomGenerator;

import kr.c4i.gateway.interfacedb.InterfaceDatabaseClient;
import kr.c4i.gateway.interfacedb.InterfaceDatabaseClient.InboxStats;
import kr.c4i.gateway.interfacedb.RawOutboxRow;
import kr.c4i.gateway.scenarios.net.DelayCounters;
import kr.c4i.gateway.scenarios.net.LinkShape;
import kr.c4i.gateway.scenarios.net.PortCounters;
import kr.c4i.gateway.scenarios.net.Rate;
import kr.c4i.gateway.scenarios.net.WanNetwork;
import kr.c4i.gateway.scenarios.node.WanDeploymentPlan;
import kr.c4i.gateway.scenarios.node.WanLinkKind;

/**
 * Two sites joined by their WAN gateways over one impaired link, LANs unimpaired. Per loss cell: ROUTINE messages
 * from site 1's first node to site 2's first node (messages per second across the WAN, delivered of sent), with
 * FLASH messages written one by one while that load crosses (their latency, outbox to inbox). The outage cell: the
 * WAN cut, messages of every precedence written during the cut (ROUTINE first, FLASH last), the cut lifted after
 * the outage: every one delivered, and in which order of precedence. Each cell runs with a variant's bodies and
 * compression, and reports what the link's compression made of them: the gateways' counters of the DATA frames they
 * sent during the cell ({@link WanFrameCounters}).
 */
final class WanExperiment {

    static final String SENDER = WanDeploymentPlan.nodeId(1, 1);
    static final String RECEIVER = WanDeploymentPlan.nodeId(2, 1);
    private static final String ROUTINE = "ROUTINE";
    private static final String FLASH = "FLASH";
    /** The note of a cell whose compression ratio is missing. */
    private static final String UNCOUNTED = "compression not measured: the gateways' frame counters could not be read";
    private static final Duration MIN_FLASH_SPACING = Duration.ofMillis(20);
    /** The mixed bodies' seed: every run writes the same sequence of them, as the demo's mix does with its seed. */
    private static final long MIX_SEED = 42;
    private static final String INSERT = """
            INSERT INTO outbox (message_id, kmtf_type, precedence, body)
            SELECT ? || '-' || (n + ?), ?, ?, b FROM unnest(?::bytea[]) WITH ORDINALITY AS t(b, n)""";

    private final WanNetwork network;
    private final RunPlan plan;
    private final String type;
    private final Consumer<String> log;
    private final RandomGenerator mixDraws = new SplittableRandom(MIX_SEED);

    /** @param type the RELIABLE KMTF type every message is written as (its precedence set per message) */
    WanExperiment(WanNetwork network, RunPlan plan, String type, Consumer<String> log) {
        this.network = network;
        this.plan = plan;
        this.type = type;
        this.log = log;
    }

    /** The routing table: site 2's first node receives the type. */
    static Map<String, List<String>> subscriptions(String type) {
        return Map.of(RECEIVER, List.of(type));
    }

    /**
     * Messages of the step's variant from site 1 to site 2 on the unimpaired WAN until they all arrive: JIT,
     * connections, discovery. As many as the step's cell writes ({@link WanStep#warmUpMessages}).
     */
    void warmUp(WanTestbed bed, WanStep step, Duration timeout) throws Exception {
        String tag = tag("warm", 0);
        int count = step.warmUpMessages(plan.wan(), plan.warmupMessages());
        insert(bed, tag, 0, ROUTINE, bodies(step.variant(), count));
        long got = bed.awaitInbox(RECEIVER, tag, count, Instant.now().plus(timeout));
        if (got < count) {
            throw new IllegalStateException("Warm-up of the wan " + bed.link().label() + " deployment: " + got + " of "
                    + count + " crossed the WAN within " + timeout.toSeconds() + " s");
        }
    }

    /**
     * One repetition of a loss cell: ROUTINE load and FLASH probes of the variant's bodies, keyed with the WAN delay
     * the network has and the variant.
     */
    RepetitionResult run(WanTestbed bed, LossCell cell, WanVariant variant, int repetition) throws Exception {
        WanPlan wan = plan.wan();
        Duration delay = network.wanDelay();
        Instant started = Instant.now();
        String tag = tag("wan", repetition);
        String flashTag = tag + "f";
        int messages = wan.messagesIn(cell);
        Duration timeout = wan.timeout(cell.rate(), cell.loss(), messages + wan.flashMessages());
        Duration spacing = Duration.ofMillis(Math.round(
                wan.nominalSeconds(cell.rate(), cell.loss(), messages) * 1000 / (2.0 * wan.flashMessages())));
        if (spacing.compareTo(MIN_FLASH_SPACING) < 0) {
            spacing = MIN_FLASH_SPACING;
        }
        StringBuilder note = new StringBuilder();
        List<byte[]> load = bodies(variant, messages);
        network.shapeWan(new LinkShape(cell.rate(), cell.loss(), plan.queuePackets()));
        long delivered;
        long flashDelivered;
        PortCounters sent;
        DelayCounters delayed;
        Instant deadline;
        Optional<WanFrameCounters> counted;
        try {
            PortCounters before = network.wanPort(1);
            DelayCounters delayBefore = network.delayCounters();
            Optional<WanFrameCounters> countedBefore = frameCounters(bed, note);
            insert(bed, tag, 0, ROUTINE, load);
            for (int i = 1; i <= wan.flashMessages(); i++) {
                Thread.sleep(spacing);
                writeOne(bed, flashTag + "-" + i, FLASH, variant);
            }
            deadline = Instant.now().plus(timeout);
            flashDelivered = bed.awaitInbox(RECEIVER, flashTag, wan.flashMessages(), deadline);
            delivered = bed.awaitInbox(RECEIVER, tag, messages, deadline);
            sent = network.wanPort(1).minus(before);
            delayed = network.delayCounters().minus(delayBefore);
            counted = countedSince(bed, countedBefore, note);
        }
        finally {
            network.unshapeWan();
        }
        InterfaceDatabaseClient inbox = bed.node(RECEIVER).database();
        InboxStats stats = inbox.inboxStats(tag);
        Instant lastSent = bed.node(SENDER).database().outboxStats(tag).lastSent();
        if (delivered < messages) {
            note.insert(0, "only " + delivered + " of " + messages + " within " + timeout.toSeconds() + " s"
                    + (note.isEmpty() ? "" : "; "));
        }
        Map<String, Double> m = new LinkedHashMap<>();
        m.put(Metrics.BUDGET_BPS, (double) bed.budget());
        if (stats.firstCreated() != null) {
            Instant end = delivered >= messages && stats.lastReceived() != null ? stats.lastReceived() : deadline;
            double seconds = Duration.between(stats.firstCreated(), end).toNanos() / 1e9;
            m.put(Metrics.DURATION_MS, seconds * 1000);
            m.put(Metrics.MSG_PER_S, seconds > 0 ? delivered / seconds : 0);
        }
        else {
            m.put(Metrics.MSG_PER_S, 0.0);
        }
        m.put(Metrics.WIRE_BYTES, (double) sent.rxBytes());
        m.put(Metrics.WIRE_PACKETS, (double) sent.rxPackets());
        m.put(Metrics.BYTES_PER_MESSAGE, sent.rxBytes() / (double) (messages + wan.flashMessages()));
        RecoveryExperiment.put(m, Metrics.FIRST_DELIVERY_MS, stats.firstCreated(), stats.firstReceived(), true);
        // How soon site 1's node had handed the load to its LAN: the rest of the time is the gateways' and the WAN's.
        RecoveryExperiment.put(m, Metrics.SENT_MS, stats.firstCreated(), lastSent, true);
        List<Double> latencies = latencies(inbox, flashTag);
        m.put(Metrics.FLASH_DELIVERED, (double) flashDelivered);
        if (!latencies.isEmpty()) {
            m.put(Metrics.FLASH_P50_MS, DrainOrder.percentile(latencies, 50));
            m.put(Metrics.FLASH_P99_MS, DrainOrder.percentile(latencies, 99));
            note.append(note.isEmpty() ? "" : "; ").append(slowestFlash(inbox, flashTag));
        }
        putCompression(m, counted);
        putDelay(m, delay, delayed);
        return new RepetitionResult(ExperimentKind.WAN.key(), bed.link().label(),
                CellKeys.wan(cell.key(), delay, variant), repetition, started, messages, delivered, m,
                note.toString());
    }

    /** One repetition of the outage cell of the variant's bodies, keyed with the WAN delay the network has. */
    RepetitionResult outage(WanTestbed bed, WanVariant variant, int repetition) throws Exception {
        WanPlan wan = plan.wan();
        Duration delay = network.wanDelay();
        Duration outage = java.util.Objects.requireNonNull(wan.outage());
        Instant started = Instant.now();
        String tag = tag("cut", repetition);
        int total = wan.outageMessages() * DrainOrder.PRECEDENCES.size();
        Duration timeout = wan.timeout(wan.outageRate(), 0, total);
        StringBuilder problems = new StringBuilder();
        network.shapeWan(new LinkShape(wan.outageRate(), 0, plan.queuePackets()));
        Instant lifted;
        long delivered;
        DelayCounters delayed;
        Optional<WanFrameCounters> counted;
        try {
            DelayCounters delayBefore = network.delayCounters();
            Optional<WanFrameCounters> countedBefore = frameCounters(bed, problems);
            network.cutWan();
            Instant cut = Instant.now();
            try {
                int first = 0;
                for (String precedence : DrainOrder.PRECEDENCES.reversed()) {
                    insert(bed, tag, first, precedence, bodies(variant, wan.outageMessages()));
                    first += wan.outageMessages();
                }
                // The outage is the scenario's own length, not a wait for something to happen.
                Duration left = Duration.between(Instant.now(), cut.plus(outage));
                if (!left.isNegative()) {
                    Thread.sleep(left);
                }
            }
            finally {
                network.restoreWan();
            }
            lifted = Instant.now();
            delivered = bed.awaitInbox(RECEIVER, tag, total, lifted.plus(timeout));
            delayed = network.delayCounters().minus(delayBefore);
            counted = countedSince(bed, countedBefore, problems);
        }
        finally {
            network.unshapeWan();
        }
        InterfaceDatabaseClient inbox = bed.node(RECEIVER).database();
        List<String> order = inbox.strings("SELECT precedence FROM inbox WHERE message_id LIKE '" + tag
                + "-%' ORDER BY received_at, message_id");
        InboxStats stats = inbox.inboxStats(tag);
        Map<String, Double> m = new LinkedHashMap<>();
        m.put(Metrics.BUDGET_BPS, (double) bed.budget());
        if (stats.lastReceived() != null) {
            m.put(Metrics.DRAIN_MS, Duration.between(lifted, stats.lastReceived()).toNanos() / 1e6);
        }
        double inOrder = DrainOrder.inOrderShare(order);
        if (!Double.isNaN(inOrder)) {
            m.put(Metrics.DRAIN_IN_ORDER, inOrder);
        }
        String note = "drain order: " + DrainOrder.runs(order)
                + (delivered < total ? "; only " + delivered + " of " + total + " within " + timeout.toSeconds()
                        + " s of the lift" : "")
                + (problems.isEmpty() ? "" : "; " + problems);
        putCompression(m, counted);
        putDelay(m, delay, delayed);
        String key = wan.outageKey(delay, variant);
        log.accept("wan " + bed.link().label() + " " + key + " " + repetition + ": " + note);
        return new RepetitionResult(ExperimentKind.WAN.key(), bed.link().label(), key, repetition, started, total,
                delivered, m, note);
    }

    /**
     * The gateways' frame counters now; empty if they cannot be read, which the log and the cell's note then say
     * (the cell still counts, without its compression ratio).
     */
    private Optional<WanFrameCounters> frameCounters(WanTestbed bed, StringBuilder note) {
        try {
            return Optional.of(bed.frameCounters());
        }
        catch (IOException | RuntimeException ex) {
            log.accept("wan " + bed.link().label() + ": the gateways' frame counters could not be read: "
                    + ex.getMessage());
            if (note.indexOf(UNCOUNTED) < 0) {
                note.append(note.isEmpty() ? "" : "; ").append(UNCOUNTED);
            }
            return Optional.empty();
        }
    }

    /** What the gateways counted since {@code before}, if both readings were made. */
    private Optional<WanFrameCounters> countedSince(WanTestbed bed, Optional<WanFrameCounters> before,
            StringBuilder note) {
        if (before.isEmpty()) {
            return Optional.empty();
        }
        return frameCounters(bed, note).map(after -> after.minus(before.get()));
    }

    /** The cell's compression ratio, when the gateways' counters were read and they sent messages meanwhile. */
    private static void putCompression(Map<String, Double> m, Optional<WanFrameCounters> counted) {
        counted.ifPresent(c -> c.ratio().ifPresent(ratio -> m.put(Metrics.COMPRESSION_RATIO, ratio)));
    }

    /** The delay and what its queue dropped, for delayed cells only. */
    private static void putDelay(Map<String, Double> m, Duration delay, DelayCounters delayed) {
        if (!delay.isZero()) {
            m.put(Metrics.DELAY_MS, (double) delay.toMillis());
            m.put(Metrics.DELAY_DROPPED, (double) delayed.dropped());
        }
    }

    /** The FLASH latencies, outbox to inbox, in ms. */
    private static List<Double> latencies(InterfaceDatabaseClient inbox, String flashTag) throws Exception {
        List<Double> values = new ArrayList<>();
        for (String ms : inbox.strings("SELECT (extract(epoch FROM received_at - created_at) * 1000)::text "
                + "FROM inbox WHERE message_id LIKE '" + flashTag + "-%'")) {
            values.add(Double.parseDouble(ms));
        }
        return values;
    }

    /**
     * The slowest FLASH message's latency and the hops it carried (each hop's time after its creation), which tell
     * whether it waited before site 1's gateway, across the WAN or after site 2's.
     */
    private static String slowestFlash(InterfaceDatabaseClient inbox, String flashTag) throws Exception {
        List<String> slowest = inbox.strings("SELECT round(extract(epoch FROM received_at - created_at) * 1000)::text "
                + "|| ' ms: ' || trace FROM inbox WHERE message_id LIKE '" + flashTag + "-%' "
                + "ORDER BY received_at - created_at DESC LIMIT 1");
        return "slowest FLASH " + slowest.getFirst();
    }

    /** The variant's next {@code count} bodies of the experiment's type and size. */
    private List<byte[]> bodies(WanVariant variant, int count) {
        return variant.bodies(type, plan.wan().size(), count, mixDraws);
    }

    /**
     * Writes messages of one precedence into the sender's outbox in one statement, ids
     * {@code <tag>-<first + 1>...}: the load starts at once, as the loss experiment's does, not at the pace of one
     * round trip per row.
     */
    private void insert(WanTestbed bed, String tag, int first, String precedence, List<byte[]> bodies)
            throws SQLException {
        try (Connection c = bed.node(SENDER).database().dataSource().getConnection();
                PreparedStatement ps = c.prepareStatement(INSERT)) {
            ps.setString(1, tag);
            ps.setInt(2, first);
            ps.setString(3, type);
            ps.setString(4, precedence);
            ps.setArray(5, c.createArrayOf("bytea", bodies.toArray(byte[][]::new)));
            ps.executeUpdate();
        }
    }

    private void writeOne(WanTestbed bed, String id, String precedence, WanVariant variant) throws Exception {
        bed.node(SENDER).database().insertRaw(new RawOutboxRow(id, type, precedence, bodies(variant, 1).getFirst(),
                null));
    }

    /** Ids unique per run, so a repetition never counts an earlier one's messages. */
    private static String tag(String what, int repetition) {
        return what + repetition + "x" + Long.toString(System.nanoTime() % 1_000_000_000L, 36);
    }

    /**
     * The gateways' budget on a link rate: the rate less the header allowance the shaper's frames need; the whole
     * rate for the {@code norm} link, which takes the IP and UDP headers of its own packets off the budget itself.
     */
    static long budget(WanLinkKind link, Rate rate) {
        return link == WanLinkKind.NORM ? rate.bitsPerSecond() : new LinkShape(rate, 0, 2).payloadBitsPerSecond();
    }
}
