package kr.c4i.gateway.bridge.outbox;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.ToLongFunction;

import javax.sql.DataSource;

import kr.c4i.gateway.kmtf.catalogue.KmtfCatalogue;

/**
 * SQL over the outbox. Claims run inside the caller's transaction: the row locks taken by
 * {@code FOR UPDATE SKIP LOCKED} are what keep two bridge instances on one database from sending
 * the same row, and they last until the caller commits or rolls back. Where they start is the {@link OutboxCursor}'s.
 *
 * <p>Rows go in id order, except that a bridge behind its outbox (its last claim was full) first claims the FLASH and
 * IMMEDIATE rows ahead ({@link UrgentRowsAhead}), FLASH first: a FLASH written behind 10,000 ROUTINE rows would
 * otherwise wait for all of them (docs/results.md).
 */
final class OutboxRepository {

    private static final String COLUMNS = "id, message_id, kmtf_type, precedence, body, created_at, traceparent";

    private static final String CLAIM_IN_ORDER = """
            SELECT %s
              FROM outbox
             WHERE id >= ? AND sent_at IS NULL%s
             ORDER BY id
             LIMIT ?
               FOR UPDATE SKIP LOCKED""";

    private static final String CLAIM = CLAIM_IN_ORDER.formatted(COLUMNS, "");

    /** {@link #CLAIM} past the rows this transaction claimed ahead, which it holds already. */
    private static final String CLAIM_AFTER_AHEAD = CLAIM_IN_ORDER.formatted(COLUMNS, " AND id <> ALL (?)");

    private static final String CLAIM_AHEAD = """
            SELECT %s
              FROM outbox
             WHERE id = ANY (?) AND sent_at IS NULL
               FOR UPDATE SKIP LOCKED""".formatted(COLUMNS);

    /** The table whose rows name the custody log row of their send ({@code sent_in}). */
    static final String TABLE = "outbox";

    private static final String MARK_SENT = """
            UPDATE outbox o SET sent_at = clock_timestamp(), sent_by = ?, sent_in = nullif(u.sent_in, 0)
              FROM unnest(?::bigint[], ?::bigint[]) AS u(id, sent_in)
             WHERE o.id = u.id""";

    private static final String WAITING = "SELECT id FROM outbox WHERE id = ANY (?) AND sent_at IS NULL";

    private static final String BACKLOG = "SELECT count(*) FROM outbox WHERE id >= ? AND sent_at IS NULL";

    /**
     * What one claim took: {@code ahead}, the urgent rows claimed ahead of the cursor (most urgent first), then
     * {@code inOrder}, the rows in id order from the cursor on.
     */
    record Claim(List<OutboxRow> ahead, List<OutboxRow> inOrder) {

        /** Every row, in the order they are sent. */
        List<OutboxRow> rows() {
            if (ahead.isEmpty()) {
                return inOrder;
            }
            List<OutboxRow> rows = new ArrayList<>(ahead);
            rows.addAll(inOrder);
            return rows;
        }
    }

    private final DataSource dataSource;
    private final OutboxCursor cursor;
    private final UrgentRowsAhead urgent;
    /** Whether the last claim was full, so rows may wait beyond the next one: the first claim assumes so. */
    private boolean behind = true;

    /** With the default catalogue's types. */
    OutboxRepository(DataSource dataSource) {
        this(dataSource, KmtfCatalogue.loadDefault());
    }

    /** @param catalogue where a row whose precedence is NULL finds its type's */
    OutboxRepository(DataSource dataSource, KmtfCatalogue catalogue) {
        this.dataSource = dataSource;
        this.cursor = new OutboxCursor(dataSource);
        this.urgent = new UrgentRowsAhead(catalogue);
    }

    /**
     * @param inOrderOnly claim in id order only, as the poller does while it isolates a failure: the row that failed is
     *        the next in id order, and urgent rows taken ahead of it would keep it from failing alone
     */
    Claim claim(Connection tx, int limit, boolean inOrderOnly) throws SQLException {
        long from = cursor.next(tx);
        List<OutboxRow> ahead = behind && !inOrderOnly ? claimAhead(tx, urgent.take(tx, from, limit)) : List.of();
        List<OutboxRow> inOrder = List.of();
        if (ahead.size() < limit) {
            int left = limit - ahead.size();
            try (PreparedStatement ps = tx.prepareStatement(ahead.isEmpty() ? CLAIM : CLAIM_AFTER_AHEAD)) {
                int i = 1;
                ps.setLong(i++, from);
                if (!ahead.isEmpty()) {
                    ps.setArray(i++, tx.createArrayOf("bigint", ahead.stream().map(OutboxRow::id).toArray()));
                }
                ps.setInt(i, left);
                inOrder = rows(ps, left);
            }
        }
        behind = ahead.size() + inOrder.size() == limit;
        return new Claim(ahead, inOrder);
    }

    /** The rows of these ids still unsent and not claimed by another bridge, in the order given. */
    private static List<OutboxRow> claimAhead(Connection tx, List<Long> ids) throws SQLException {
        if (ids.isEmpty()) {
            return List.of();
        }
        try (PreparedStatement ps = tx.prepareStatement(CLAIM_AHEAD)) {
            ps.setArray(1, tx.createArrayOf("bigint", ids.toArray()));
            Map<Long, OutboxRow> byId = new HashMap<>();
            rows(ps, ids.size()).forEach(row -> byId.put(row.id(), row));
            return ids.stream().map(byId::get).filter(Objects::nonNull).toList();
        }
    }

    private static List<OutboxRow> rows(PreparedStatement ps, int limit) throws SQLException {
        try (ResultSet rs = ps.executeQuery()) {
            List<OutboxRow> rows = new ArrayList<>(Math.min(limit, 1_000));
            while (rs.next()) {
                rows.add(new OutboxRow(rs.getLong(1), rs.getString(2), rs.getString(3), rs.getString(4),
                        rs.getBytes(5), OutboxRow.createdAt(rs, 6), rs.getString(7)));
            }
            return rows;
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
