package kr.c4i.gateway.bridge.outbox;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.ToLongFunction;

import javax.sql.DataSource;

import kr.c4i.gateway.core.NodeId;
import kr.c4i.gateway.core.transport.Outbound;
import kr.c4i.gateway.core.transport.ReceiptHandler;
import kr.c4i.gateway.custody.CustodyEvent;
import kr.c4i.gateway.custody.CustodyLog;
import kr.c4i.gateway.jdbc.Transactions;
import kr.c4i.gateway.kmtf.catalogue.Reliability;

/**
 * Which RELIABLE messages each destination has not yet receipted, for transports that report
 * receipts instead of storing durably (DDS). The publisher records a row per message and
 * destination in its send transaction; a receipt deletes its row; the resender sends again what stays
 * unreceipted, so neither a receiver that was away nor a sender killed mid-stream loses a message.
 *
 * <p>A message is due again when its destination has receipted a later message of the same type
 * (the poller sends in outbox order and a RELIABLE DDS topic delivers in order, so an earlier one
 * still unreceipted was never delivered: the receiver was away, or only got the writer's history),
 * or when it has gone {@code resendMax} without a receipt. Resending merely because receipts are
 * slow would add load exactly when a receiver is behind, and turn a backlog into a storm.
 *
 * <p>A receipt is a custody step: the custody log records it in the transaction that deletes its ledger rows, naming
 * the rows of the sends it receipts (kept in the ledger row, {@code sent_in}).
 */
public final class DeliveryLedger implements ReceiptHandler {

    private static final String RECORD = """
            INSERT INTO outbox_delivery (message_id, destination, last_sent_at, next_attempt_at, sent_in)
            SELECT m, d, ?::timestamptz, ?::timestamptz, nullif(s, 0)
              FROM unnest(?::text[], ?::text[], ?::bigint[]) AS u(m, d, s)
            ON CONFLICT (message_id, destination) DO NOTHING""";

    // A receipted delivery leaves the ledger at once: a delete writes less than marking the row and deleting it
    // later. Only rows this ledger tracks: receipts of BEST_EFFORT messages, or of another origin's, change nothing.
    private static final String RECEIPT = """
            DELETE FROM outbox_delivery d
             USING outbox o
             WHERE d.destination = ? AND d.message_id = ANY (?)
               AND o.message_id = d.message_id
            RETURNING o.kmtf_type, o.id, d.message_id, d.sent_in""";

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

    private final DataSource dataSource;
    private final Duration resendAfter;
    private final Duration resendMax;
    private final Clock clock;
    private final CustodyLog custody;
    /** Per destination and type, the highest outbox id it has receipted: how far it has got. */
    private final Map<Progress, Long> progress = new ConcurrentHashMap<>();
    private final Queue<Receipt> receipts = new ConcurrentLinkedQueue<>();

    private record Progress(NodeId destination, String type) {
    }

    /**
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
    }

    private OffsetDateTime now() {
        return OffsetDateTime.ofInstant(clock.instant(), ZoneOffset.UTC);
    }

    /** Records the RELIABLE messages of a batch as awaiting a receipt from each destination. */
    void record(Connection tx, List<Outbound> sent) throws SQLException {
        record(tx, sent, id -> 0);
    }

    /**
     * The same, with the custody log row of each message's send ({@code sentIn}, 0 for none), which its receipt's step
     * names.
     */
    void record(Connection tx, List<Outbound> sent, ToLongFunction<String> sentIn) throws SQLException {
        // In key order, like applyReceipts, so concurrent bridges on one database lock rows in one order.
        SortedSet<String[]> keys = new TreeSet<>(Comparator.<String[], String>comparing(k -> k[0])
                .thenComparing(k -> k[1]));
        for (Outbound outbound : sent) {
            if (outbound.type().reliability() == Reliability.RELIABLE) {
                outbound.destinations().forEach(d -> keys.add(new String[] { outbound.envelope().messageId(), d.value() }));
            }
        }
        if (keys.isEmpty()) {
            return;
        }
        try (PreparedStatement ps = tx.prepareStatement(RECORD)) {
            OffsetDateTime now = now();
            ps.setObject(1, now);
            ps.setObject(2, now);
            ps.setArray(3, tx.createArrayOf("text", keys.stream().map(k -> k[0]).toArray()));
            ps.setArray(4, tx.createArrayOf("text", keys.stream().map(k -> k[1]).toArray()));
            ps.setArray(5, tx.createArrayOf("bigint", keys.stream().map(k -> sentIn.applyAsLong(k[0])).toArray()));
            ps.executeUpdate();
        }
    }

    /**
     * Queues receipts for {@link #applyReceipts}. Writing them here, on the transport's thread, would
     * wait on the ledger rows of the publisher's still-open transaction (and could deadlock with it);
     * the poller applies them between its own transactions instead, so a receipt that overtook the
     * publisher's commit finds its row. A receipt lost in a crash, or applied by another bridge on the
     * same database before the row was committed, only costs a resend, which the receiver absorbs and
     * receipts again.
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
     * Writes the queued receipts, one transaction per receiver (the ledger's delete and the custody log), keys in
     * order; returns how many.
     */
    int applyReceipts() throws SQLException {
        Map<NodeId, SortedSet<String>> byReceiver = new TreeMap<>();
        for (Receipt receipt = receipts.poll(); receipt != null; receipt = receipts.poll()) {
            byReceiver.computeIfAbsent(receipt.receiver(), r -> new TreeSet<>()).addAll(receipt.messageIds());
        }
        int applied = 0;
        for (Map.Entry<NodeId, SortedSet<String>> entry : byReceiver.entrySet()) {
            NodeId receiver = entry.getKey();
            try {
                Map<Progress, Long> reached = Transactions.durable(dataSource, tx -> receipt(tx, receiver,
                        entry.getValue()));
                reached.forEach((at, id) -> progress.merge(at, id, Math::max));
                applied += entry.getValue().size();
            }
            catch (SQLException ex) {
                // Put them back: the database may be away, and they are still true.
                receipts.add(new Receipt(entry.getKey(), List.copyOf(entry.getValue())));
                throw ex;
            }
        }
        return applied;
    }

    /** Deletes the receipted deliveries and logs them; returns how far the receiver has got per type. */
    private Map<Progress, Long> receipt(Connection tx, NodeId receiver, SortedSet<String> messageIds)
            throws SQLException {
        Map<Progress, Long> reached = new HashMap<>();
        CustodyLog.Entries steps = custody.entries();
        try (PreparedStatement ps = tx.prepareStatement(RECEIPT)) {
            ps.setString(1, receiver.value());
            ps.setArray(2, tx.createArrayOf("text", messageIds.toArray()));
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    reached.merge(new Progress(receiver, rs.getString(1)), rs.getLong(2), Math::max);
                    steps.add(CustodyEvent.RECEIPTED, rs.getString(3), custody.link(), List.of(receiver), null, null,
                            null, rs.getLong(4));
                }
            }
        }
        steps.write(tx);
        return reached;
    }

    List<Due> claimDue(Connection tx, int limit) throws SQLException {
        Map<Progress, Long> upto = Map.copyOf(progress);
        try (PreparedStatement ps = tx.prepareStatement(DUE)) {
            ps.setArray(1, tx.createArrayOf("text", upto.keySet().stream().map(p -> p.destination().value()).toArray()));
            ps.setArray(2, tx.createArrayOf("text", upto.keySet().stream().map(Progress::type).toArray()));
            ps.setArray(3, tx.createArrayOf("bigint", upto.values().toArray()));
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

    long unreceipted() throws SQLException {
        return OutboxRepository.count(dataSource, UNRECEIPTED);
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
