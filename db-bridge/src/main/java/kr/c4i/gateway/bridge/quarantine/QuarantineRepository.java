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

    // A copy for one refused destination of a row that goes on to the others (or whose other refusals follow).
    private static final String COPY = """
            INSERT INTO quarantine (outbox_id, message_id, kmtf_type, reason_kind, reason, body, created_at, quarantined_by)
            SELECT id, message_id, kmtf_type, ?, ?, body, created_at, ? FROM outbox WHERE id = ?""";

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

    /**
     * Keeps a copy of the row in quarantine and leaves it in the outbox: for a message refused to one destination
     * (its clearance) that still goes to others, one quarantine row per refused destination.
     */
    public void copy(Connection tx, Refusal refusal, String node) throws SQLException {
        try (PreparedStatement copy = tx.prepareStatement(COPY)) {
            copy.setString(1, refusal.kind());
            copy.setString(2, refusal.reason());
            copy.setString(3, node);
            copy.setLong(4, refusal.outboxId());
            copy.executeUpdate();
        }
    }
}
