package kr.c4i.gateway.bridge.outbox;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;

import javax.sql.DataSource;

import kr.c4i.gateway.core.NodeId;
import kr.c4i.gateway.core.transport.Outbound;
import kr.c4i.gateway.core.transport.ReceiptHandler;
import kr.c4i.gateway.kmtf.catalogue.Reliability;

/**
 * Which RELIABLE messages each destination has not yet receipted, for transports that report
 * receipts instead of storing durably (DDS). The publisher records a row per message and
 * destination in its send transaction; receipts mark rows done; the resender sends again what stays
 * unreceipted, so neither a receiver that was away nor a sender killed mid-stream loses a message.
 *
 * <p>A message is due again when its destination has receipted a message sent at least
 * {@code resendAfter} later (the destination is alive and has moved past it), when the destination's
 * receipts resume after a silence longer than {@code resendAfter} and the message was sent at least
 * {@code resendAfter} before that (it was away, or this bridge restarted: it gets everything it
 * lacks at once, but not what is merely still in flight), or when it has gone {@code resendMax}
 * without a receipt at all. Resending merely because receipts are slow would add load exactly when a receiver
 * is behind, and turn a backlog into a storm.
 */
public final class DeliveryLedger implements ReceiptHandler {

    private static final String RECORD = """
            INSERT INTO outbox_delivery (message_id, destination, next_attempt_at)
            SELECT m, d, clock_timestamp() + ? * interval '1 millisecond'
              FROM unnest(?::text[], ?::text[]) AS u(m, d)
            ON CONFLICT (message_id, destination) DO NOTHING""";

    // Only rows this ledger tracks: receipts of BEST_EFFORT messages, or of another origin's, change nothing.
    private static final String RECEIPT = """
            UPDATE outbox_delivery SET receipted_at = clock_timestamp()
             WHERE destination = ? AND message_id = ANY (?) AND receipted_at IS NULL
            RETURNING last_sent_at""";

    private static final String DUE = """
            SELECT d.message_id, d.destination, d.attempts,
                   o.id, o.kmtf_type, o.precedence, o.body, o.created_at
              FROM outbox_delivery d JOIN outbox o ON o.message_id = d.message_id
             WHERE d.receipted_at IS NULL
               AND (d.last_sent_at < (SELECT r.since FROM unnest(?::text[], ?::timestamptz[]) AS r(node, since)
                                       WHERE r.node = d.destination)
                    OR (d.next_attempt_at <= clock_timestamp()
                        AND (d.last_sent_at < clock_timestamp() - ? * interval '1 millisecond'
                             OR d.last_sent_at < (SELECT p.passed
                                                    FROM unnest(?::text[], ?::timestamptz[]) AS p(node, passed)
                                                   WHERE p.node = d.destination))))
             ORDER BY d.next_attempt_at
             LIMIT ?
               FOR UPDATE OF d SKIP LOCKED""";

    private static final String RESCHEDULE = """
            UPDATE outbox_delivery
               SET attempts = attempts + 1,
                   last_sent_at = clock_timestamp(),
                   next_attempt_at = clock_timestamp() + least(? * power(2, attempts), ?) * interval '1 millisecond'
             WHERE message_id = ? AND destination = ?""";

    private static final String UNRECEIPTED = "SELECT count(*) FROM outbox_delivery WHERE receipted_at IS NULL";

    private static final String FORGET = """
            DELETE FROM outbox_delivery WHERE receipted_at < clock_timestamp() - ? * interval '1 millisecond'""";

    /** A delivery that is due again, with the outbox row it belongs to. */
    record Due(String messageId, NodeId destination, int attempts, OutboxRow row) {
    }

    private final DataSource dataSource;
    private final Duration resendAfter;
    private final Duration resendMax;
    /** Per destination, the latest send time of a message it has receipted: how far it has got. */
    private final Map<NodeId, Instant> progress = new ConcurrentHashMap<>();
    private final Queue<Receipt> receipts = new ConcurrentLinkedQueue<>();
    private final Map<NodeId, Instant> lastReceipt = new ConcurrentHashMap<>();
    /**
     * Destinations whose receipts resumed after a silence, and a cut-off {@code resendAfter} before
     * that moment: everything sent to them before it and still unreceipted is due now, until a claim
     * has taken all of it.
     */
    private final Map<NodeId, Instant> resumed = new ConcurrentHashMap<>();

    public DeliveryLedger(DataSource dataSource, Duration resendAfter, Duration resendMax) {
        this.dataSource = dataSource;
        this.resendAfter = resendAfter;
        this.resendMax = resendMax;
    }

    /** Records the RELIABLE messages of a batch as awaiting a receipt from each destination. */
    void record(Connection tx, List<Outbound> sent) throws SQLException {
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
            ps.setLong(1, resendAfter.toMillis());
            ps.setArray(2, tx.createArrayOf("text", keys.stream().map(k -> k[0]).toArray()));
            ps.setArray(3, tx.createArrayOf("text", keys.stream().map(k -> k[1]).toArray()));
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

    private record Receipt(NodeId receiver, List<String> messageIds) {
    }

    /** Writes the queued receipts, one statement per receiver, keys in order; returns how many. */
    int applyReceipts() throws SQLException {
        Map<NodeId, SortedSet<String>> byReceiver = new TreeMap<>();
        for (Receipt receipt = receipts.poll(); receipt != null; receipt = receipts.poll()) {
            byReceiver.computeIfAbsent(receipt.receiver(), r -> new TreeSet<>()).addAll(receipt.messageIds());
        }
        int applied = 0;
        Instant now = Instant.now();
        for (NodeId receiver : byReceiver.keySet()) {
            Instant previous = lastReceipt.put(receiver, now);
            if (previous == null || Duration.between(previous, now).compareTo(resendAfter) > 0) {
                // Only what had time to arrive: a burst still in flight is not what the receiver lacks.
                resumed.put(receiver, now.minus(resendAfter));
            }
        }
        for (Map.Entry<NodeId, SortedSet<String>> entry : byReceiver.entrySet()) {
            try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement(RECEIPT)) {
                ps.setString(1, entry.getKey().value());
                ps.setArray(2, c.createArrayOf("text", entry.getValue().toArray()));
                Instant newest = Instant.MIN;
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        Instant sent = rs.getTimestamp(1).toInstant();
                        newest = sent.isAfter(newest) ? sent : newest;
                    }
                }
                progress.merge(entry.getKey(), newest, (a, b) -> a.isAfter(b) ? a : b);
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

    List<Due> claimDue(Connection tx, int limit) throws SQLException {
        List<String> nodes = new ArrayList<>();
        List<Timestamp> passed = new ArrayList<>();
        progress.forEach((node, newest) -> {
            nodes.add(node.value());
            passed.add(Timestamp.from(newest.minus(resendAfter)));
        });
        Map<NodeId, Instant> back = Map.copyOf(resumed);
        try (PreparedStatement ps = tx.prepareStatement(DUE)) {
            ps.setArray(1, tx.createArrayOf("text", back.keySet().stream().map(NodeId::value).toArray()));
            ps.setArray(2, tx.createArrayOf("timestamptz", back.values().stream().map(Timestamp::from).toArray()));
            ps.setLong(3, resendMax.toMillis());
            ps.setArray(4, tx.createArrayOf("text", nodes.toArray()));
            ps.setArray(5, tx.createArrayOf("timestamptz", passed.toArray()));
            ps.setInt(6, limit);
            try (ResultSet rs = ps.executeQuery()) {
                List<Due> due = new ArrayList<>();
                while (rs.next()) {
                    due.add(new Due(rs.getString(1), NodeId.of(rs.getString(2)), rs.getInt(3),
                            new OutboxRow(rs.getLong(4), rs.getString(1), rs.getString(5), rs.getString(6),
                                    rs.getBytes(7), rs.getTimestamp(8).toInstant())));
                }
                if (due.size() < limit) {
                    back.forEach(resumed::remove);
                }
                return due;
            }
        }
    }

    void reschedule(Connection tx, List<Due> sent) throws SQLException {
        try (PreparedStatement ps = tx.prepareStatement(RESCHEDULE)) {
            for (Due due : sent) {
                ps.setLong(1, resendAfter.toMillis());
                ps.setLong(2, resendMax.toMillis());
                ps.setString(3, due.messageId());
                ps.setString(4, due.destination().value());
                ps.addBatch();
            }
            ps.executeBatch();
        }
    }

    long unreceipted() throws SQLException {
        return OutboxRepository.count(dataSource, UNRECEIPTED);
    }

    /** Drops receipted rows older than {@code age}; the outbox row keeps the history. */
    void forgetReceipted(Duration age) throws SQLException {
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement(FORGET)) {
            ps.setLong(1, age.toMillis());
            ps.executeUpdate();
        }
    }
}
