package kr.c4i.gateway.bridge.outbox;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import javax.sql.DataSource;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import kr.c4i.gateway.core.NodeId;
import kr.c4i.gateway.core.transport.Outbound;
import kr.c4i.gateway.core.transport.ReceiptHandler;
import kr.c4i.gateway.kmtf.catalogue.Reliability;

/**
 * Which RELIABLE messages each destination has not yet receipted, for transports that report
 * receipts instead of storing durably (DDS). The publisher records a row per message and
 * destination in its send transaction; receipts mark rows done; the resender sends again what stays
 * unreceipted, so neither a receiver that was away nor a sender killed mid-stream loses a message.
 */
public final class DeliveryLedger implements ReceiptHandler {

    private static final Logger log = LoggerFactory.getLogger(DeliveryLedger.class);

    private static final String RECORD = """
            INSERT INTO outbox_delivery (message_id, destination, next_attempt_at)
            SELECT m, d, clock_timestamp() + ? * interval '1 millisecond'
              FROM unnest(?::text[], ?::text[]) AS u(m, d)
            ON CONFLICT (message_id, destination) DO NOTHING""";

    private static final String RECEIPT = """
            INSERT INTO outbox_delivery (message_id, destination, receipted_at)
            SELECT m, ?, clock_timestamp() FROM unnest(?::text[]) AS u(m)
            ON CONFLICT (message_id, destination) DO UPDATE SET receipted_at = excluded.receipted_at""";

    private static final String DUE = """
            SELECT d.message_id, d.destination, d.attempts,
                   o.id, o.kmtf_type, o.precedence, o.body, o.created_at
              FROM outbox_delivery d JOIN outbox o ON o.message_id = d.message_id
             WHERE d.receipted_at IS NULL AND d.next_attempt_at <= clock_timestamp()
             ORDER BY d.next_attempt_at
             LIMIT ?
               FOR UPDATE OF d SKIP LOCKED""";

    private static final String RESCHEDULE = """
            UPDATE outbox_delivery
               SET attempts = attempts + 1,
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

    public DeliveryLedger(DataSource dataSource, Duration resendAfter, Duration resendMax) {
        this.dataSource = dataSource;
        this.resendAfter = resendAfter;
        this.resendMax = resendMax;
    }

    /** Records the RELIABLE messages of a batch as awaiting a receipt from each destination. */
    void record(Connection tx, List<Outbound> sent) throws SQLException {
        List<String> ids = new ArrayList<>();
        List<String> destinations = new ArrayList<>();
        for (Outbound outbound : sent) {
            if (outbound.type().reliability() != Reliability.RELIABLE) {
                continue;
            }
            for (NodeId destination : outbound.destinations()) {
                ids.add(outbound.envelope().messageId());
                destinations.add(destination.value());
            }
        }
        if (ids.isEmpty()) {
            return;
        }
        try (PreparedStatement ps = tx.prepareStatement(RECORD)) {
            ps.setLong(1, resendAfter.toMillis());
            ps.setArray(2, tx.createArrayOf("text", ids.toArray()));
            ps.setArray(3, tx.createArrayOf("text", destinations.toArray()));
            ps.executeUpdate();
        }
    }

    @Override
    public void receipted(NodeId receiver, List<String> messageIds) {
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement(RECEIPT)) {
            ps.setString(1, receiver.value());
            ps.setArray(2, c.createArrayOf("text", messageIds.toArray()));
            ps.executeUpdate();
        }
        catch (SQLException ex) {
            // Harmless: the messages stay unreceipted, are sent again and receipted again.
            log.warn("Unable to record {} receipts from {}: {}", messageIds.size(), receiver, ex.getMessage());
        }
    }

    List<Due> claimDue(Connection tx, int limit) throws SQLException {
        try (PreparedStatement ps = tx.prepareStatement(DUE)) {
            ps.setInt(1, limit);
            try (ResultSet rs = ps.executeQuery()) {
                List<Due> due = new ArrayList<>();
                while (rs.next()) {
                    due.add(new Due(rs.getString(1), NodeId.of(rs.getString(2)), rs.getInt(3),
                            new OutboxRow(rs.getLong(4), rs.getString(1), rs.getString(5), rs.getString(6),
                                    rs.getBytes(7), rs.getTimestamp(8).toInstant())));
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
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement(UNRECEIPTED);
                ResultSet rs = ps.executeQuery()) {
            rs.next();
            return rs.getLong(1);
        }
    }

    /** Drops receipted rows older than {@code age}; the outbox row keeps the history. */
    void forgetReceipted(Duration age) throws SQLException {
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement(FORGET)) {
            ps.setLong(1, age.toMillis());
            ps.executeUpdate();
        }
    }
}
