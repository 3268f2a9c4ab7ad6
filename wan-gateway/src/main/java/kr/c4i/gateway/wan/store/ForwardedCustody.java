package kr.c4i.gateway.wan.store;

import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Objects;

import javax.sql.DataSource;

import kr.c4i.gateway.core.NodeId;
import kr.c4i.gateway.core.link.SiteId;
import kr.c4i.gateway.custody.CustodyLog;
import kr.c4i.gateway.jdbc.Transactions;

/**
 * The custody steps a gateway forwards to the sites its messages came from, and those other gateways forwarded to
 * it (wan-store V11): the queue {@code custody_forward} that {@code CustodyLog} fills in the statement that logs each
 * such step, and the rows of other sites this gateway's custody log keeps.
 */
public final class ForwardedCustody {

    private static final String PENDING = """
            SELECT f.log_id, l.at, l.event, l.hop, l.peer, l.link, l.precedence, l.detail, l.origin, l.message_ids
              FROM custody_forward f LEFT JOIN custody_log l ON l.id = f.log_id
             ORDER BY f.log_id LIMIT ?""";

    private static final String DONE = "DELETE FROM custody_forward WHERE log_id = ANY(?)";

    // A step is found by a Bloom filter of its ids, as this gateway's own storing steps are (wan-store V15), not
    // through the message id index.
    private static final String RECORD = """
            INSERT INTO custody_log (at, event, hop, peer, link, precedence, detail, message_ids, origin, forwarded_as,
                                     ids_bloom)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (forwarded_as) WHERE forwarded_as IS NOT NULL DO NOTHING""";

    private final DataSource dataSource;

    public ForwardedCustody(DataSource dataSource) {
        this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
    }

    /**
     * A queued row of this gateway's log: its steps to forward, split into {@linkplain ForwardedStep#parts parts} that
     * each cross in one frame; none when the pruner removed the row first, or it names an origin that is no node id.
     */
    public record Pending(long logId, List<ForwardedStep> steps) {
    }

    /**
     * The oldest queued rows, at most {@code limit}, each step naming at most {@code maxIdBytes} of message ids
     * ({@link ForwardedStep#maxIdBytes}).
     */
    public List<Pending> pending(int limit, int maxIdBytes) throws SQLException {
        List<Pending> rows = new ArrayList<>();
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement(PENDING)) {
            ps.setInt(1, limit);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    long logId = rs.getLong(1);
                    OffsetDateTime at = rs.getObject(2, OffsetDateTime.class);
                    String origin = rs.getString(9);
                    if (at == null || origin == null || !NodeId.isValid(origin)) {
                        rows.add(new Pending(logId, List.of()));
                        continue;
                    }
                    List<String> ids = strings(rs.getArray(10));
                    List<ForwardedStep> steps = new ArrayList<>();
                    List<List<String>> parts = ForwardedStep.parts(ids, maxIdBytes);
                    for (int part = 0; part < parts.size(); part++) {
                        steps.add(new ForwardedStep(SiteId.of(rs.getString(4)), logId, part, at.toInstant(),
                                rs.getString(3), strings(rs.getArray(5)), rs.getString(6), rs.getString(7),
                                rs.getString(8), NodeId.of(origin), parts.get(part)));
                    }
                    rows.add(new Pending(logId, steps));
                }
            }
        }
        return rows;
    }

    /** Takes rows off the queue: their steps are stored for the WAN, or there was nothing to forward. */
    public void done(Collection<Long> logIds) throws SQLException {
        if (logIds.isEmpty()) {
            return;
        }
        Transactions.lazy(dataSource, c -> {
            try (PreparedStatement ps = c.prepareStatement(DONE)) {
                ps.setArray(1, c.createArrayOf("bigint", logIds.toArray()));
                return ps.executeUpdate();
            }
        });
    }

    /** How many rows wait to be forwarded. */
    public long queued() throws SQLException {
        try (Connection c = dataSource.getConnection();
                PreparedStatement ps = c.prepareStatement("SELECT count(*) FROM custody_forward");
                ResultSet rs = ps.executeQuery()) {
            rs.next();
            return rs.getLong(1);
        }
    }

    /**
     * Keeps steps other sites' gateways forwarded here in this gateway's custody log, on disk when it returns; a step
     * kept before is absorbed.
     *
     * @return how many were new
     */
    public int record(List<ForwardedStep> steps) throws SQLException {
        if (steps.isEmpty()) {
            return 0;
        }
        return Transactions.durable(dataSource, c -> {
            try (PreparedStatement ps = c.prepareStatement(RECORD)) {
                for (ForwardedStep step : steps) {
                    ps.setObject(1, OffsetDateTime.ofInstant(step.at(), ZoneOffset.UTC));
                    ps.setString(2, step.event());
                    ps.setString(3, step.hop().value());
                    ps.setArray(4, step.peers().isEmpty() ? null : c.createArrayOf("text", step.peers().toArray()));
                    ps.setString(5, step.link());
                    ps.setString(6, step.precedence());
                    ps.setString(7, step.detail());
                    ps.setArray(8, c.createArrayOf("text", step.messageIds().toArray()));
                    ps.setString(9, step.origin().value());
                    ps.setString(10, step.forwardedAs());
                    ps.setBytes(11, CustodyLog.idsBloom(step.messageIds()));
                    ps.addBatch();
                }
                int added = 0;
                for (int n : ps.executeBatch()) {
                    added += Math.max(n, 0);
                }
                return added;
            }
        });
    }

    private static List<String> strings(Array array) throws SQLException {
        return array == null ? List.of() : Arrays.asList((String[]) array.getArray());
    }
}
