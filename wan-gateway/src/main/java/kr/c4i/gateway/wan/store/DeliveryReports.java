package kr.c4i.gateway.wan.store;

import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

import javax.sql.DataSource;

import org.jspecify.annotations.Nullable;

import kr.c4i.gateway.core.NodeId;
import kr.c4i.gateway.custody.CustodyEvent;

/**
 * The fates of one node's messages as this site's gateway knows them, for the node's delivery reports: each step of
 * the custody log, this site's own or forwarded here by the sites further on, that ends a copy's way (delivered onto
 * a site's LAN, expired, dropped, refused, quarantined), in the log's order, after a cursor the node keeps.
 */
public final class DeliveryReports {

    // The event list is custody_log_fates' predicate (wan-store V11), so the index answers.
    private static final String READ = """
            SELECT id, at, event, hop, peer, precedence, detail, message_ids
              FROM custody_log
             WHERE origin = ? AND id > ?
               AND origin IS NOT NULL AND event IN ('delivered', 'expired', 'dropped', 'refused', 'quarantined')
             ORDER BY origin, id
             LIMIT ?""";

    /** The most reports one answer holds. */
    public static final int MAX_LIMIT = 1000;

    private final DataSource dataSource;

    public DeliveryReports(DataSource dataSource) {
        this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
    }

    /**
     * One fate of some of the node's messages.
     *
     * @param id its place in the log: the cursor to ask after next
     * @param at when, by the clock of the site that took the step
     * @param event what happened, {@code delivered} for a delivery, else why not
     * @param site the site whose gateway took the step
     * @param peers the step's other side: {@code @lan} for the site's own nodes, a next hop's site
     * @param precedence the messages' precedence
     * @param detail why, for drops, refusals and quarantines
     * @param messageIds the node's messages it names
     */
    public record Report(long id, Instant at, String event, String site, List<String> peers,
            @Nullable String precedence, @Nullable String detail, List<String> messageIds) {

        public boolean delivered() {
            return CustodyEvent.DELIVERED.label().equals(event);
        }
    }

    /** The node's reports after {@code after}, oldest first, at most {@code limit} (1 to {@link #MAX_LIMIT}). */
    public List<Report> after(NodeId node, long after, int limit) throws SQLException {
        if (limit < 1 || limit > MAX_LIMIT) {
            throw new IllegalArgumentException("limit must be 1 to " + MAX_LIMIT + ", was " + limit);
        }
        List<Report> reports = new ArrayList<>();
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement(READ)) {
            ps.setString(1, node.value());
            ps.setLong(2, after);
            ps.setInt(3, limit);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    reports.add(new Report(rs.getLong(1), rs.getObject(2, OffsetDateTime.class).toInstant(),
                            rs.getString(3), rs.getString(4), strings(rs.getArray(5)), rs.getString(6),
                            rs.getString(7), strings(rs.getArray(8))));
                }
            }
        }
        return reports;
    }

    private static List<String> strings(Array array) throws SQLException {
        return array == null ? List.of() : Arrays.asList((String[]) array.getArray());
    }
}
