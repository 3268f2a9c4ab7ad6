package kr.c4i.gateway.bridge.quarantine;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;

/**
 * Moves refused outbox rows into the quarantine table, inside the caller's transaction, so a
 * row is either still in the outbox or in quarantine with its original bytes, never neither.
 */
public final class QuarantineRepository {

    // Copied inside the database, so body and created_at are kept exactly as written, infinity and all.
    private static final String MOVE = """
            WITH moved AS (DELETE FROM outbox WHERE id = ? RETURNING id, message_id, kmtf_type, body, created_at)
            INSERT INTO quarantine (outbox_id, message_id, kmtf_type, reason_kind, reason, body, created_at, quarantined_by)
            SELECT id, message_id, kmtf_type, ?, ?, body, created_at, ? FROM moved""";

    /**
     * The refused row and why.
     *
     * @param kind a stable lower-case name operators can count by, e.g. {@code invalid-message-id}
     */
    public record Refusal(long outboxId, String messageId, String kmtfType, String kind, String reason) {
    }

    public void quarantine(Connection tx, Refusal refusal, String node) throws SQLException {
        try (PreparedStatement move = tx.prepareStatement(MOVE)) {
            move.setLong(1, refusal.outboxId());
            move.setString(2, refusal.kind());
            move.setString(3, refusal.reason());
            move.setString(4, node);
            move.executeUpdate();
        }
    }
}
