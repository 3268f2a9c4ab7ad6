package kr.c4i.gateway.custody;

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
import kr.c4i.gateway.jdbc.DatabaseOwner;

/**
 * The fates of one node's messages as this node's or gateway's custody log knows them, for the origin's delivery
 * reports: each step that ends a copy's way here. At a WAN gateway: delivered onto its site's LAN, expired, dropped,
 * refused, quarantined, its own steps and those the sites further on forwarded to it. At a node: delivered into its
 * inbox, quarantined or refused on arrival, for the nodes of its site that send to it. In the log's order, after a
 * cursor the origin keeps.
 */
public final class DeliveryReports {

    // The event list is custody_log_fates' predicate (wan-store V11, db-bridge V11), so the index answers.
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
    private final String hopKind;

    /** @param owner whose log it is: its kind ({@code node}, {@code site}) is that of every hop the log names */
    public DeliveryReports(DataSource dataSource, DatabaseOwner owner) {
        this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
        this.hopKind = owner.kind();
    }

    /**
     * One fate of some of the node's messages.
     *
     * @param id its place in the log: the cursor to ask after next
     * @param at when, by the clock of the node or site that took the step
     * @param event what happened, {@code delivered} for a delivery, else why not
     * @param reporter who took the step, as the origin's {@code delivery_report.reported_by} names it: a gateway's
     *        site ({@code site s2}: this one's or one further on), a node ({@code node b})
     * @param peers the step's other side: {@code @lan} for a site's own nodes, a next hop's site, at a node the origin
     * @param precedence the messages' precedence
     * @param detail why, for drops, refusals and quarantines
     * @param messageIds the node's messages it names
     */
    public record Report(long id, Instant at, String event, String reporter, List<String> peers,
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
                            rs.getString(3), hopKind + " " + rs.getString(4), strings(rs.getArray(5)),
                            rs.getString(6), rs.getString(7), strings(rs.getArray(8))));
                }
            }
        }
        return reports;
    }

    private static List<String> strings(Array array) throws SQLException {
        return array == null ? List.of() : Arrays.asList((String[]) array.getArray());
    }
}
