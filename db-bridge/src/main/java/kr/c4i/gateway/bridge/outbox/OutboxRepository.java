package kr.c4i.gateway.bridge.outbox;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.function.ToLongFunction;

import javax.sql.DataSource;

/**
 * SQL over the outbox. Claims run inside the caller's transaction: the row locks taken by
 * {@code FOR UPDATE SKIP LOCKED} are what keep two bridge instances on one database from sending
 * the same row, and they last until the caller commits or rolls back. Where they start is the {@link OutboxCursor}'s.
 */
final class OutboxRepository {

    private static final String CLAIM = """
            SELECT id, message_id, kmtf_type, precedence, body, created_at, traceparent
              FROM outbox
             WHERE id >= ? AND sent_at IS NULL
             ORDER BY id
             LIMIT ?
               FOR UPDATE SKIP LOCKED""";

    /** The table whose rows name the custody log row of their send ({@code sent_in}). */
    static final String TABLE = "outbox";

    private static final String MARK_SENT = """
            UPDATE outbox o SET sent_at = clock_timestamp(), sent_by = ?, sent_in = nullif(u.sent_in, 0)
              FROM unnest(?::bigint[], ?::bigint[]) AS u(id, sent_in)
             WHERE o.id = u.id""";

    private static final String WAITING = "SELECT id FROM outbox WHERE id = ANY (?) AND sent_at IS NULL";

    private static final String BACKLOG = "SELECT count(*) FROM outbox WHERE id >= ? AND sent_at IS NULL";

    private final DataSource dataSource;
    private final OutboxCursor cursor;

    OutboxRepository(DataSource dataSource) {
        this.dataSource = dataSource;
        this.cursor = new OutboxCursor(dataSource);
    }

    List<OutboxRow> claim(Connection tx, int limit) throws SQLException {
        try (PreparedStatement ps = tx.prepareStatement(CLAIM)) {
            ps.setLong(1, cursor.next(tx));
            ps.setInt(2, limit);
            try (ResultSet rs = ps.executeQuery()) {
                List<OutboxRow> rows = new ArrayList<>(limit);
                while (rs.next()) {
                    rows.add(new OutboxRow(rs.getLong(1), rs.getString(2), rs.getString(3), rs.getString(4),
                            rs.getBytes(5), OutboxRow.createdAt(rs, 6), rs.getString(7)));
                }
                return rows;
            }
        }
    }

    /** @param sentIn the custody log row of each row's send, by message id; 0 for none (the log is off) */
    void markSent(Connection tx, List<OutboxRow> rows, String sentBy, ToLongFunction<String> sentIn)
            throws SQLException {
        if (rows.isEmpty()) {
            return;
        }
        Long[] ids = rows.stream().map(OutboxRow::id).toArray(Long[]::new);
        Long[] logRows = rows.stream().map(row -> sentIn.applyAsLong(row.messageId())).toArray(Long[]::new);
        try (PreparedStatement ps = tx.prepareStatement(MARK_SENT)) {
            ps.setString(1, sentBy);
            ps.setArray(2, tx.createArrayOf("bigint", ids));
            ps.setArray(3, tx.createArrayOf("bigint", logRows));
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

    /** Where the next claim resumes, once the transaction of a claim has committed ({@link OutboxCursor#NONE}: none). */
    void claimedUpTo(long resumeAt) {
        cursor.resumeAt(resumeAt);
    }

    /** Looks behind the claims ({@link OutboxCursor#check}); true when the next claim should not wait. */
    boolean checkBehind(Instant now) throws SQLException {
        return cursor.check(now);
    }

    long backlog() throws SQLException {
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement(BACKLOG)) {
            ps.setLong(1, cursor.low());
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
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
