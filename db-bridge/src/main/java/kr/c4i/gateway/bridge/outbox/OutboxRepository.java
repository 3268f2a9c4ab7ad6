package kr.c4i.gateway.bridge.outbox;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;

import javax.sql.DataSource;

/**
 * SQL over the outbox. Claims run inside the caller's transaction: the row locks taken by
 * {@code FOR UPDATE SKIP LOCKED} are what keep two bridge instances on one database from sending
 * the same row, and they last until the caller commits or rolls back.
 */
final class OutboxRepository {

    // Claimed and marked in one statement: the mark is undone for a row that fails alone ({@link #release}), and
    // the whole of it with the transaction when the transport does not take the batch.
    private static final String CLAIM = """
            UPDATE outbox o SET sent_at = clock_timestamp(), sent_by = ?
              FROM (SELECT id FROM outbox
                     WHERE sent_at IS NULL
                     ORDER BY id
                     LIMIT ?
                       FOR UPDATE SKIP LOCKED) AS c
             WHERE o.id = c.id
            RETURNING o.id, o.message_id, o.kmtf_type, o.precedence, o.body, o.created_at""";

    private static final String RELEASE = "UPDATE outbox SET sent_at = NULL, sent_by = NULL WHERE id = ANY (?)";

    private static final String WAITING = "SELECT id FROM outbox WHERE id = ANY (?) AND sent_at IS NULL";

    private static final String BACKLOG = "SELECT count(*) FROM outbox WHERE sent_at IS NULL";

    private final DataSource dataSource;

    OutboxRepository(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    /**
     * Claims the oldest unsent rows and marks them sent by {@code sentBy}, in id order; the transaction's commit makes
     * the mark visible, so it must commit only once the transport has taken them.
     */
    List<OutboxRow> claim(Connection tx, int limit, String sentBy) throws SQLException {
        try (PreparedStatement ps = tx.prepareStatement(CLAIM)) {
            ps.setString(1, sentBy);
            ps.setInt(2, limit);
            try (ResultSet rs = ps.executeQuery()) {
                List<OutboxRow> rows = new ArrayList<>(limit);
                while (rs.next()) {
                    rows.add(new OutboxRow(rs.getLong(1), rs.getString(2), rs.getString(3), rs.getString(4),
                            rs.getBytes(5), OutboxRow.createdAt(rs, 6)));
                }
                rows.sort(Comparator.comparingLong(OutboxRow::id));
                return rows;
            }
        }
    }

    /** Undoes the claim's mark on rows that stay in the outbox to be tried again. */
    void release(Connection tx, Collection<Long> ids) throws SQLException {
        if (ids.isEmpty()) {
            return;
        }
        try (PreparedStatement ps = tx.prepareStatement(RELEASE)) {
            ps.setArray(1, tx.createArrayOf("bigint", ids.toArray()));
            ps.executeUpdate();
        }
    }

    /** Which of these rows are still in the outbox, unsent. */
    List<Long> waiting(Collection<Long> ids) throws SQLException {
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement(WAITING)) {
            ps.setArray(1, c.createArrayOf("bigint", ids.toArray()));
            try (ResultSet rs = ps.executeQuery()) {
                List<Long> waiting = new ArrayList<>();
                while (rs.next()) {
                    waiting.add(rs.getLong(1));
                }
                return waiting;
            }
        }
    }

    long backlog() throws SQLException {
        return count(dataSource, BACKLOG);
    }

    /** Runs a {@code SELECT count(*)} on a connection of its own. */
    static long count(DataSource dataSource, String sql) throws SQLException {
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement(sql);
                ResultSet rs = ps.executeQuery()) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
