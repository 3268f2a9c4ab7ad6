package kr.c4i.gateway.bridge.quarantine;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;

/**
 * Moves refused outbox rows into the quarantine table, inside the caller's transaction, so a
 * row is either still in the outbox or in quarantine with its original bytes, never neither.
 */
public final class QuarantineRepository {

    private static final String INSERT = """
            INSERT INTO quarantine (outbox_id, message_id, kmtf_type, reason_kind, reason, body, created_at, quarantined_by)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?)""";

    private static final String DELETE_FROM_OUTBOX = "DELETE FROM outbox WHERE id = ?";

    /** The refused row and why. {@code kind} is a stable lower-case name operators can count by. */
    public record Refusal(long outboxId, String messageId, String kmtfType, byte[] body, Instant createdAt,
            String kind, String reason) {
    }

    public void quarantine(Connection tx, Refusal refusal, String node) throws SQLException {
        try (PreparedStatement insert = tx.prepareStatement(INSERT);
                PreparedStatement delete = tx.prepareStatement(DELETE_FROM_OUTBOX)) {
            insert.setLong(1, refusal.outboxId());
            insert.setString(2, refusal.messageId());
            insert.setString(3, refusal.kmtfType());
            insert.setString(4, refusal.kind());
            insert.setString(5, refusal.reason());
            insert.setBytes(6, refusal.body());
            insert.setTimestamp(7, Timestamp.from(refusal.createdAt()));
            insert.setString(8, node);
            insert.executeUpdate();
            delete.setLong(1, refusal.outboxId());
            delete.executeUpdate();
        }
    }
}
