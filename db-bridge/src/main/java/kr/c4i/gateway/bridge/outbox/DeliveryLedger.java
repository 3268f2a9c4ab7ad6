package kr.c4i.gateway.bridge.outbox;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Queue;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.ToLongFunction;

import javax.sql.DataSource;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import kr.c4i.gateway.core.NodeId;
import kr.c4i.gateway.core.transport.Outbound;
import kr.c4i.gateway.core.transport.ReceiptHandler;
import kr.c4i.gateway.custody.CustodyEvent;
import kr.c4i.gateway.custody.CustodyLog;
import kr.c4i.gateway.jdbc.Transactions;
import kr.c4i.gateway.kmtf.catalogue.Reliability;

/**
 * Which RELIABLE messages each destination has not yet receipted, for transports that report receipts instead of
 * storing durably (DDS), so that neither a receiver that was away nor a sender killed mid-stream loses a message.
 *
 * <p>A delivery first waits in memory: most are receipted within milliseconds, and a row per message and destination
 * written by the send and deleted by the receipt was the dearest thing the bridge did (docs/benchmarks.md). One still
 * unreceipted after {@code resendAfter}, or shown missing by a receipt of a later message of its type, is written to
 * {@code outbox_delivery} (it is <em>spilled</em>), where the resender finds it. What a bridge holds in memory is
 * covered in the database by its row in {@code outbox_sender} (db-bridge V15): the lowest outbox id it still awaits a
 * receipt for, renewed in every send's transaction and at every {@link #upkeep}. Should the bridge die, another one on
 * the database (its pair, or itself started again) finds the row silent for {@code resendMax} and takes over: every
 * RELIABLE row sent from that id on, until the dead bridge was last heard of, goes into {@code outbox_delivery}, due at
 * once (the inbox absorbs what had arrived).
 *
 * <p>A message is due again when its destination has receipted a later message of the same type (the poller sends
 * in outbox order and a RELIABLE DDS topic delivers in order, so an earlier one still unreceipted was never
 * delivered: the receiver was away, or only got the writer's history), or when it has gone {@code resendMax}
 * without a receipt. Resending merely because receipts are slow would add load exactly when a receiver is behind,
 * and turn a backlog into a storm. The urgent rows a bridge behind its outbox sends ahead of the others
 * ({@link UrgentRowsAhead}) leave outbox order: their receipts show nothing missing (the rows before them may not be
 * sent yet), in memory or once spilled ({@code in_order}, db-bridge V18), and they are shown missing only by a receipt
 * of a row sent after them, which has a higher id. Nor do the receipts of deliveries taken over from a silent bridge:
 * its writer's order is not this bridge's.
 *
 * <p>A receipt is a custody step: the custody log records it, naming the rows of the sends it receipts.
 *
 * <p>All but {@link #receipted} run on the outbox poller's thread.
 */
public final class DeliveryLedger implements ReceiptHandler {

    private static final Logger log = LoggerFactory.getLogger(DeliveryLedger.class);

    /** The most deliveries awaited in memory; past it, the oldest are spilled at the next upkeep. */
    static final int MAX_WAITING = 100_000;

    private static final String SPILL = """
            INSERT INTO outbox_delivery (message_id, destination, last_sent_at, next_attempt_at, sent_in, in_order)
            SELECT m, d, s, n, nullif(l, 0), o
              FROM unnest(?::text[], ?::text[], ?::timestamptz[], ?::timestamptz[], ?::bigint[], ?::boolean[])
                   AS u(m, d, s, n, l, o)
            ON CONFLICT (message_id, destination) DO NOTHING""";

    // Renewed with the lowest outbox id a send awaits: a send may claim rows below those it awaits already (another
    // bridge on the database rolled a batch back), never above what the row covers.
    private static final String SENDING = """
            INSERT INTO outbox_sender AS s (instance, renewed_at, unsettled_from) VALUES (?, clock_timestamp(), ?)
            ON CONFLICT (instance) DO UPDATE
               SET renewed_at = excluded.renewed_at, unsettled_from = least(s.unsettled_from, excluded.unsettled_from)""";

    private static final String RENEW = """
            INSERT INTO outbox_sender AS s (instance, renewed_at, unsettled_from) VALUES (?, clock_timestamp(), ?)
            ON CONFLICT (instance) DO UPDATE SET renewed_at = excluded.renewed_at, unsettled_from = excluded.unsettled_from""";

    private static final String SILENT = """
            DELETE FROM outbox_sender
             WHERE instance <> ? AND renewed_at < clock_timestamp() - ? * interval '1 millisecond'
            RETURNING instance, unsettled_from, renewed_at""";

    private static final String SENT_SINCE = """
            SELECT id, message_id, kmtf_type, precedence, body, created_at, traceparent, sent_at, sent_in
              FROM outbox
             WHERE id >= ? AND sent_at IS NOT NULL AND sent_at <= ?
             ORDER BY id""";

    private static final String ADOPT = """
            INSERT INTO outbox_delivery (message_id, destination, last_sent_at, next_attempt_at, sent_in, in_order)
            SELECT m, d, s, clock_timestamp(), nullif(l, 0), false
              FROM unnest(?::text[], ?::text[], ?::timestamptz[], ?::bigint[]) AS u(m, d, s, l)
            ON CONFLICT (message_id, destination) DO NOTHING""";

    private static final String RELEASE = "DELETE FROM outbox_sender WHERE instance = ?";

    // A receipt of a delivery spilled to the ledger deletes its row. Only rows this ledger tracks: receipts of
    // BEST_EFFORT messages, or of another origin's, change nothing.
    private static final String RECEIPT = """
            DELETE FROM outbox_delivery d
             USING outbox o
             WHERE d.destination = ? AND d.message_id = ANY (?)
               AND o.message_id = d.message_id
            RETURNING o.kmtf_type, o.id, d.message_id, d.sent_in, d.in_order""";

    private static final String DUE = """
            SELECT d.message_id, d.destination, d.attempts,
                   o.id, o.kmtf_type, o.precedence, o.body, o.created_at, o.traceparent
              FROM outbox_delivery d JOIN outbox o ON o.message_id = d.message_id
             WHERE (o.id < (SELECT p.upto FROM unnest(?::text[], ?::text[], ?::bigint[]) AS p(node, type, upto)
                             WHERE p.node = d.destination AND p.type = o.kmtf_type)
                    OR d.last_sent_at < ?::timestamptz - ? * interval '1 millisecond')
               AND d.next_attempt_at <= ?::timestamptz
             ORDER BY d.next_attempt_at
             LIMIT ?
               FOR UPDATE OF d SKIP LOCKED""";

    private static final String RESCHEDULE = """
            UPDATE outbox_delivery
               SET attempts = attempts + 1,
                   last_sent_at = ?::timestamptz,
                   next_attempt_at = ?::timestamptz + least(? * power(2, attempts), ?) * interval '1 millisecond'
             WHERE message_id = ? AND destination = ?""";

    private static final String DROP = "DELETE FROM outbox_delivery WHERE message_id = ? AND destination = ?";

    private static final String UNRECEIPTED = "SELECT count(*) FROM outbox_delivery";

    /** A delivery that is due again, with the outbox row it belongs to. */
    record Due(String messageId, NodeId destination, int attempts, OutboxRow row) {
    }

    /**
     * A delivery awaited in memory: its outbox row, its send and the custody log row of the send (0: none);
     * {@code ahead}: sent ahead of rows with lower ids.
     */
    private record Waiting(long outboxId, String type, Instant sentAt, long sentIn, boolean ahead) {
    }

    /** A delivery to write into {@code outbox_delivery}. */
    private record Spilled(String messageId, NodeId destination, Waiting waiting, Instant nextAttempt) {
    }

    /** The RELIABLE deliveries of one send, awaited once its transaction has committed ({@link #await}). */
    static final class Sent {

        static final Sent NONE = new Sent(Map.of());

        private final Map<NodeId, Map<String, Waiting>> deliveries;

        private Sent(Map<NodeId, Map<String, Waiting>> deliveries) {
            this.deliveries = deliveries;
        }
    }

    private final DataSource dataSource;
    private final Duration resendAfter;
    private final Duration resendMax;
    private final Clock clock;
    private final CustodyLog custody;
    private final String instance;
    /** Per destination, the deliveries awaited in memory, oldest send first. */
    private final Map<NodeId, LinkedHashMap<String, Waiting>> waiting = new TreeMap<>();
    private int waitingCount;
    /** Per destination and type, the highest outbox id it has receipted: how far it has got. */
    private final Map<Progress, Long> progress = new ConcurrentHashMap<>();
    private final Queue<Receipt> receipts = new ConcurrentLinkedQueue<>();

    private record Progress(NodeId destination, String type) {
    }

    /**
     * @param resendAfter the first wait before a missing message is sent again, and how long a delivery waits in
     *        memory for its receipt before it is written to the ledger
     * @param resendMax how long a message may go without any receipt before it is sent again, and how long a bridge's
     *        {@code outbox_sender} row may go unrenewed before another takes over what it awaited
     * @param clock the time of sends, receipts and resends, and what their ages are measured against (rather
     *        than the database's clock, so tests move it instead of waiting)
     * @param custody where receipts are logged as custody steps
     */
    public DeliveryLedger(DataSource dataSource, Duration resendAfter, Duration resendMax, Clock clock,
            CustodyLog custody) {
        this.dataSource = dataSource;
        this.resendAfter = resendAfter;
        this.resendMax = resendMax;
        this.clock = clock;
        this.custody = custody;
        this.instance = UUID.randomUUID().toString();
    }

    private OffsetDateTime now() {
        return utc(clock.instant());
    }

    private static OffsetDateTime utc(Instant instant) {
        return OffsetDateTime.ofInstant(instant, ZoneOffset.UTC);
    }

    /**
     * Notes, in the send's transaction, that its RELIABLE messages await a receipt from each destination: this
     * bridge's {@code outbox_sender} row covers them from here on. They are awaited once the transaction has
     * committed ({@link #await}).
     *
     * @param outboxId the outbox row of each message, by message id
     * @param sentIn the custody log row of each message's send, by message id (0 for none), which its receipt names
     * @param ahead whether a message was sent ahead of rows with lower ids, by message id
     */
    Sent sent(Connection tx, List<Outbound> sent, ToLongFunction<String> outboxId, ToLongFunction<String> sentIn,
            Predicate<String> ahead) throws SQLException {
        Map<NodeId, Map<String, Waiting>> deliveries = new HashMap<>();
        Instant now = clock.instant();
        long lowest = Long.MAX_VALUE;
        for (Outbound outbound : sent) {
            if (outbound.type().reliability() != Reliability.RELIABLE) {
                continue;
            }
            String messageId = outbound.envelope().messageId();
            Waiting w = new Waiting(outboxId.applyAsLong(messageId), outbound.type().id(), now,
                    sentIn.applyAsLong(messageId), ahead.test(messageId));
            lowest = Math.min(lowest, w.outboxId());
            for (NodeId destination : outbound.destinations()) {
                deliveries.computeIfAbsent(destination, d -> new LinkedHashMap<>()).put(messageId, w);
            }
        }
        if (deliveries.isEmpty()) {
            return Sent.NONE;
        }
        try (PreparedStatement ps = tx.prepareStatement(SENDING)) {
            ps.setString(1, instance);
            ps.setLong(2, lowest);
            ps.executeUpdate();
        }
        return new Sent(deliveries);
    }

    /** Awaits the receipts of a send whose transaction has committed. */
    synchronized void await(Sent sent) {
        sent.deliveries.forEach((destination, deliveries) -> {
            LinkedHashMap<String, Waiting> of = waiting.computeIfAbsent(destination, d -> new LinkedHashMap<>());
            for (Map.Entry<String, Waiting> delivery : deliveries.entrySet()) {
                if (of.putIfAbsent(delivery.getKey(), delivery.getValue()) == null) {
                    waitingCount++;
                }
            }
        });
    }

    /**
     * Queues receipts for {@link #applyReceipts}. Writing them here, on the transport's thread, would race the
     * publisher's still-open transaction; the poller applies them between its own transactions instead, so a receipt
     * that overtook the publisher's commit finds its delivery awaited. A receipt lost in a crash only costs a resend,
     * which the receiver absorbs and receipts again.
     */
    @Override
    public void receipted(NodeId receiver, List<String> messageIds) {
        receipts.add(new Receipt(receiver, messageIds));
    }

    /** Whether receipts wait for {@link #applyReceipts}. */
    boolean hasQueuedReceipts() {
        return !receipts.isEmpty();
    }

    private record Receipt(NodeId receiver, List<String> messageIds) {
    }

    /**
     * Applies the queued receipts, one transaction per receiver (the custody log, and the ledger's rows of deliveries
     * spilled to it), keys in order; then spills the deliveries the receipts show missing. Returns how many receipts.
     */
    synchronized int applyReceipts() throws SQLException {
        Map<NodeId, SortedSet<String>> byReceiver = new TreeMap<>();
        for (Receipt receipt = receipts.poll(); receipt != null; receipt = receipts.poll()) {
            byReceiver.computeIfAbsent(receipt.receiver(), r -> new TreeSet<>()).addAll(receipt.messageIds());
        }
        int applied = 0;
        Map<Progress, Long> advanced = new HashMap<>();
        for (Map.Entry<NodeId, SortedSet<String>> entry : byReceiver.entrySet()) {
            NodeId receiver = entry.getKey();
            Map<String, Waiting> awaited = waiting.getOrDefault(receiver, new LinkedHashMap<>());
            Map<String, Waiting> here = new LinkedHashMap<>();
            List<String> spilled = new ArrayList<>();
            for (String messageId : entry.getValue()) {
                Waiting w = awaited.get(messageId);
                if (w != null) {
                    here.put(messageId, w);
                }
                else {
                    spilled.add(messageId);
                }
            }
            try {
                Map<Progress, Long> reached = here.isEmpty() && spilled.isEmpty() ? Map.of()
                        : Transactions.lazy(dataSource, tx -> receipt(tx, receiver, here, spilled));
                here.keySet().forEach(awaited::remove);
                waitingCount -= here.size();
                reached.forEach((at, id) -> {
                    if (progress.merge(at, id, Math::max) == id.longValue()) {
                        advanced.put(at, id);
                    }
                });
                applied += entry.getValue().size();
            }
            catch (SQLException ex) {
                // Put them back: the database may be away, and they are still true.
                receipts.add(new Receipt(entry.getKey(), List.copyOf(entry.getValue())));
                throw ex;
            }
        }
        spillMissing(advanced);
        return applied;
    }

    /**
     * Logs the receipts of deliveries awaited in memory and of those spilled (deleting their rows) in one transaction;
     * returns how far the receiver has got per type.
     */
    private Map<Progress, Long> receipt(Connection tx, NodeId receiver, Map<String, Waiting> here,
            List<String> spilled) throws SQLException {
        Map<Progress, Long> reached = new HashMap<>();
        CustodyLog.Entries steps = custody.entries();
        here.forEach((messageId, w) -> {
            if (!w.ahead()) {
                reached.merge(new Progress(receiver, w.type()), w.outboxId(), Math::max);
            }
            steps.add(CustodyEvent.RECEIPTED, messageId, custody.link(), List.of(receiver), null, null, null,
                    w.sentIn());
        });
        if (!spilled.isEmpty()) {
            try (PreparedStatement ps = tx.prepareStatement(RECEIPT)) {
                ps.setString(1, receiver.value());
                ps.setArray(2, tx.createArrayOf("text", spilled.toArray(String[]::new)));
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        if (rs.getBoolean(5)) {
                            reached.merge(new Progress(receiver, rs.getString(1)), rs.getLong(2), Math::max);
                        }
                        steps.add(CustodyEvent.RECEIPTED, rs.getString(3), custody.link(), List.of(receiver), null,
                                null, null, rs.getLong(4));
                    }
                }
            }
        }
        steps.write(tx);
        return reached;
    }

    /** Spills, due at once, the deliveries awaited in memory that a receipt of a later one of their type shows missing. */
    private void spillMissing(Map<Progress, Long> advanced) throws SQLException {
        if (advanced.isEmpty()) {
            return;
        }
        Instant now = clock.instant();
        List<Spilled> missing = new ArrayList<>();
        for (Map.Entry<NodeId, LinkedHashMap<String, Waiting>> of : waiting.entrySet()) {
            long upto = advanced.entrySet().stream().filter(e -> e.getKey().destination().equals(of.getKey()))
                    .mapToLong(Map.Entry::getValue).max().orElse(Long.MIN_VALUE);
            // Oldest send first: what was sent before the newest receipted one is all that can be missing. Rows sent
            // ahead are the exception: rows with lower ids may come after them.
            for (Map.Entry<String, Waiting> delivery : of.getValue().entrySet()) {
                Waiting w = delivery.getValue();
                if (w.outboxId() >= upto) {
                    if (w.ahead()) {
                        continue;
                    }
                    break;
                }
                Long reached = advanced.get(new Progress(of.getKey(), w.type()));
                if (reached != null && w.outboxId() < reached) {
                    missing.add(new Spilled(delivery.getKey(), of.getKey(), w, now));
                }
            }
        }
        spill(missing);
    }

    /**
     * Between the poller's transactions: writes into the ledger what has waited in memory for {@code resendAfter}
     * (and the oldest past {@link #MAX_WAITING}), renews this bridge's {@code outbox_sender} row, and takes over what
     * bridges no longer heard of awaited ({@code owed} says which RELIABLE destinations an outbox row is owed to, or
     * empty if it cannot be sent again). Returns how many deliveries it took over.
     */
    synchronized int upkeep(Function<OutboxRow, Optional<Outbound>> owed) throws SQLException {
        Instant now = clock.instant();
        Instant old = now.minus(resendAfter);
        List<Spilled> overdue = new ArrayList<>();
        int over = waitingCount - MAX_WAITING;
        List<Map.Entry<NodeId, Map.Entry<String, Waiting>>> oldestFirst = new ArrayList<>();
        for (Map.Entry<NodeId, LinkedHashMap<String, Waiting>> of : waiting.entrySet()) {
            for (Map.Entry<String, Waiting> delivery : of.getValue().entrySet()) {
                if (!delivery.getValue().sentAt().isAfter(old)) {
                    overdue.add(new Spilled(delivery.getKey(), of.getKey(), delivery.getValue(),
                            delivery.getValue().sentAt()));
                }
                else if (over > 0) {
                    oldestFirst.add(Map.entry(of.getKey(), delivery));
                }
                else {
                    break;
                }
            }
        }
        if (over > overdue.size()) {
            oldestFirst.sort(Comparator.comparing(e -> e.getValue().getValue().outboxId()));
            oldestFirst.stream().limit(over - overdue.size()).forEach(e -> overdue.add(new Spilled(
                    e.getValue().getKey(), e.getKey(), e.getValue().getValue(), e.getValue().getValue().sentAt())));
        }
        // Lazy: lost in a crash with the memory it wrote down, it leaves the row it renewed as it was, which still covers
        // what it spilled (a later durable commit cannot survive it: the log is written in order).
        int adopted = Transactions.lazy(dataSource, tx -> {
            write(tx, overdue);
            renew(tx, lowestAwaited(overdue));
            return adopt(tx, owed);
        });
        forget(overdue);
        return adopted;
    }

    /** The lowest outbox id still awaited in memory once {@code leaving} has left it; null if none. */
    private @Nullable Long lowestAwaited(List<Spilled> leaving) {
        Map<NodeId, Set<String>> gone = new HashMap<>();
        leaving.forEach(s -> gone.computeIfAbsent(s.destination(), d -> new HashSet<>()).add(s.messageId()));
        Long lowest = null;
        for (Map.Entry<NodeId, LinkedHashMap<String, Waiting>> of : waiting.entrySet()) {
            Set<String> out = gone.getOrDefault(of.getKey(), Set.of());
            for (Map.Entry<String, Waiting> delivery : of.getValue().entrySet()) {
                if (!out.contains(delivery.getKey())) {
                    long id = delivery.getValue().outboxId();
                    lowest = lowest == null ? id : Math.min(lowest, id);
                }
            }
        }
        return lowest;
    }

    private void renew(Connection tx, @Nullable Long lowest) throws SQLException {
        try (PreparedStatement ps = tx.prepareStatement(RENEW)) {
            ps.setString(1, instance);
            if (lowest == null) {
                ps.setNull(2, Types.BIGINT);
            }
            else {
                ps.setLong(2, lowest);
            }
            ps.executeUpdate();
        }
    }

    /** Takes over what the bridges silent for {@code resendMax} awaited; returns how many deliveries. */
    private int adopt(Connection tx, Function<OutboxRow, Optional<Outbound>> owed) throws SQLException {
        record Silent(String instance, long from, OffsetDateTime until) {
        }
        List<Silent> silent = new ArrayList<>();
        try (PreparedStatement ps = tx.prepareStatement(SILENT)) {
            ps.setString(1, instance);
            ps.setLong(2, resendMax.toMillis());
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    long from = rs.getLong(2);
                    if (!rs.wasNull()) {
                        silent.add(new Silent(rs.getString(1), from, rs.getObject(3, OffsetDateTime.class)));
                    }
                }
            }
        }
        int adopted = 0;
        for (Silent gone : silent) {
            List<String> ids = new ArrayList<>();
            List<String> destinations = new ArrayList<>();
            List<OffsetDateTime> sentAt = new ArrayList<>();
            List<Long> sentIn = new ArrayList<>();
            try (PreparedStatement ps = tx.prepareStatement(SENT_SINCE)) {
                ps.setLong(1, gone.from());
                ps.setObject(2, gone.until());
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        OutboxRow row = new OutboxRow(rs.getLong(1), rs.getString(2), rs.getString(3),
                                rs.getString(4), rs.getBytes(5), OutboxRow.createdAt(rs, 6), rs.getString(7));
                        Optional<Outbound> outbound = owed.apply(row);
                        if (outbound.isEmpty() || outbound.get().type().reliability() != Reliability.RELIABLE) {
                            continue;
                        }
                        for (NodeId destination : outbound.get().destinations()) {
                            ids.add(row.messageId());
                            destinations.add(destination.value());
                            sentAt.add(rs.getObject(8, OffsetDateTime.class));
                            sentIn.add(rs.getLong(9));
                        }
                    }
                }
            }
            try (PreparedStatement ps = tx.prepareStatement(ADOPT)) {
                ps.setArray(1, tx.createArrayOf("text", ids.toArray(String[]::new)));
                ps.setArray(2, tx.createArrayOf("text", destinations.toArray(String[]::new)));
                ps.setArray(3, tx.createArrayOf("timestamptz", sentAt.toArray()));
                ps.setArray(4, tx.createArrayOf("bigint", sentIn.toArray(Long[]::new)));
                ps.executeUpdate();
            }
            adopted += ids.size();
            log.warn("Bridge instance {} on this database was last heard of at {}: its {} deliveries from outbox row "
                    + "{} on that await receipts are sent again from the ledger", gone.instance(), gone.until(),
                    ids.size(), gone.from());
        }
        return adopted;
    }

    /**
     * On a clean stop: writes what waits in memory into the ledger and gives up this bridge's {@code outbox_sender}
     * row, so nobody has to take over after a silence.
     */
    public synchronized void release() throws SQLException {
        List<Spilled> all = new ArrayList<>();
        waiting.forEach((destination, of) -> of.forEach((messageId, w) -> all.add(new Spilled(messageId, destination,
                w, w.sentAt()))));
        Transactions.durable(dataSource, tx -> {
            write(tx, all);
            try (PreparedStatement ps = tx.prepareStatement(RELEASE)) {
                ps.setString(1, instance);
                ps.executeUpdate();
            }
            return null;
        });
        forget(all);
    }

    private void spill(List<Spilled> deliveries) throws SQLException {
        if (deliveries.isEmpty()) {
            return;
        }
        Transactions.lazy(dataSource, tx -> {
            write(tx, deliveries);
            return null;
        });
        forget(deliveries);
    }

    /** In key order, like the receipts' deletes, so two bridges on one database lock rows in one order. */
    private void write(Connection tx, List<Spilled> deliveries) throws SQLException {
        if (deliveries.isEmpty()) {
            return;
        }
        List<Spilled> ordered = new ArrayList<>(deliveries);
        ordered.sort(Comparator.comparing(Spilled::messageId).thenComparing(s -> s.destination().value()));
        try (PreparedStatement ps = tx.prepareStatement(SPILL)) {
            ps.setArray(1, tx.createArrayOf("text", ordered.stream().map(Spilled::messageId).toArray(String[]::new)));
            ps.setArray(2, tx.createArrayOf("text",
                    ordered.stream().map(s -> s.destination().value()).toArray(String[]::new)));
            ps.setArray(3, tx.createArrayOf("timestamptz",
                    ordered.stream().map(s -> utc(s.waiting().sentAt())).toArray()));
            ps.setArray(4, tx.createArrayOf("timestamptz",
                    ordered.stream().map(s -> utc(s.nextAttempt())).toArray()));
            ps.setArray(5, tx.createArrayOf("bigint",
                    ordered.stream().map(s -> s.waiting().sentIn()).toArray(Long[]::new)));
            ps.setArray(6, tx.createArrayOf("boolean",
                    ordered.stream().map(s -> !s.waiting().ahead()).toArray(Boolean[]::new)));
            ps.executeUpdate();
        }
    }

    private void forget(List<Spilled> deliveries) {
        for (Spilled s : deliveries) {
            LinkedHashMap<String, Waiting> of = waiting.get(s.destination());
            if (of != null && of.remove(s.messageId()) != null) {
                waitingCount--;
            }
        }
    }

    List<Due> claimDue(Connection tx, int limit) throws SQLException {
        Map<Progress, Long> upto = Map.copyOf(progress);
        try (PreparedStatement ps = tx.prepareStatement(DUE)) {
            ps.setArray(1, tx.createArrayOf("text",
                    upto.keySet().stream().map(p -> p.destination().value()).toArray(String[]::new)));
            ps.setArray(2, tx.createArrayOf("text", upto.keySet().stream().map(Progress::type).toArray(String[]::new)));
            ps.setArray(3, tx.createArrayOf("bigint", upto.values().toArray(Long[]::new)));
            OffsetDateTime now = now();
            ps.setObject(4, now);
            ps.setLong(5, resendMax.toMillis());
            ps.setObject(6, now);
            ps.setInt(7, limit);
            try (ResultSet rs = ps.executeQuery()) {
                List<Due> due = new ArrayList<>();
                while (rs.next()) {
                    due.add(new Due(rs.getString(1), NodeId.of(rs.getString(2)), rs.getInt(3),
                            new OutboxRow(rs.getLong(4), rs.getString(1), rs.getString(5), rs.getString(6),
                                    rs.getBytes(7), OutboxRow.createdAt(rs, 8), rs.getString(9))));
                }
                return due;
            }
        }
    }

    void reschedule(Connection tx, List<Due> sent) throws SQLException {
        try (PreparedStatement ps = tx.prepareStatement(RESCHEDULE)) {
            OffsetDateTime now = now();
            for (Due due : sent) {
                ps.setObject(1, now);
                ps.setObject(2, now);
                ps.setLong(3, resendAfter.toMillis());
                ps.setLong(4, resendMax.toMillis());
                ps.setString(5, due.messageId());
                ps.setString(6, due.destination().value());
                ps.addBatch();
            }
            ps.executeBatch();
        }
    }

    /** Deliveries not yet receipted: those awaited in memory and those in the ledger. */
    long unreceipted() throws SQLException {
        int inMemory;
        synchronized (this) {
            inMemory = waitingCount;
        }
        return inMemory + OutboxRepository.count(dataSource, UNRECEIPTED);
    }

    /** Stops awaiting a receipt from a destination the message is no longer sent to (its clearance). */
    void drop(Connection tx, String messageId, NodeId destination) throws SQLException {
        try (PreparedStatement ps = tx.prepareStatement(DROP)) {
            ps.setString(1, messageId);
            ps.setString(2, destination.value());
            ps.executeUpdate();
        }
    }
}
