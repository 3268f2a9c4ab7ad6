package kr.c4i.gateway.custody;

import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.jspecify.annotations.Nullable;

import kr.c4i.gateway.core.HopTrace;
import kr.c4i.gateway.core.NodeId;

/**
 * The reading side: what one database's custody log says of a message, and whose database it is (the node or site
 * that owns it, {@code database_owner}). Both services' databases have both tables; a node's also has the hops a
 * message carried into its inbox.
 */
public final class CustodyLogReader {

    // The rows naming the message (message_ids @> ARRAY[id] is what the GIN index on message_ids answers, for the
    // rows it holds: earlier, found_through and ids_bloom NULL), and the rows whose Bloom filter may hold it (a scan of
    // the filters, the ids checked where one answers maybe); then the later steps found through them (the index on
    // earlier), which name the message too (a later row may hold the later steps of other messages of the same
    // earlier rows). The parameters are the message id but for the filter's two probes (MessageIdBloom.probe).
    private static final String NAMED = """
                SELECT id, at, event, hop, peer, link, precedence, detail
                  FROM custody_log
                 WHERE message_ids @> ARRAY[?::text] AND earlier IS NULL AND found_through IS NULL
                   AND ids_bloom IS NULL
                UNION ALL
                SELECT id, at, event, hop, peer, link, precedence, detail
                  FROM custody_log
                 WHERE ids_bloom IS NOT NULL
                   AND CASE WHEN custody_ids_bloom_has(ids_bloom, ?::bigint, ?::bigint)
                            THEN message_ids @> ARRAY[?::text] ELSE false END""";

    // At a node, also the rows its outbox and inbox rows of the message name: its send and its delivery (db-bridge V14).
    private static final String FOUND_THROUGH_ROWS = """
                UNION ALL
                SELECT id, at, event, hop, peer, link, precedence, detail
                  FROM custody_log
                 WHERE id IN (SELECT sent_in FROM outbox WHERE message_id = ?
                              UNION ALL SELECT delivered_in FROM inbox WHERE message_id = ?)
                   AND found_through IS NOT NULL AND message_ids @> ARRAY[?::text]""";

    private static final String LATER = """
            later AS (
                SELECT id, at, event, hop, peer, link, precedence, detail
                  FROM custody_log
                 WHERE earlier && (SELECT array_agg(id) FROM named) AND earlier IS NOT NULL
                   AND message_ids @> ARRAY[?::text])
            SELECT at, event, hop, peer, link, precedence, detail
              FROM (SELECT * FROM named UNION ALL SELECT * FROM later) steps
             ORDER BY at, id""";

    // Where the filter's probes go among the parameters: after the index's message id.
    private static final int BLOOM_PROBE = 2;

    static final String STEPS = "WITH named AS (" + NAMED + "),\n" + LATER;

    static final String NODE_STEPS = "WITH named AS (" + NAMED + "\n" + FOUND_THROUGH_ROWS + "),\n" + LATER;

    static final String OWNER = "SELECT kind, owner FROM database_owner";

    // Only a node's interface database has an inbox; a gateway's relay store answers with steps alone.
    static final String HAS_INBOX = "SELECT to_regclass('inbox') IS NOT NULL";

    static final String CARRIED = "SELECT created_at, trace, received_at FROM inbox WHERE message_id = ?";

    /**
     * What one database knows.
     *
     * @param place whose database it is, e.g. {@code node a} or {@code site s1}
     * @param steps its steps of the message, oldest first; empty if it has seen none
     * @param carried the hops the message carried into this node's inbox, if it is there, and its delivery there last
     *        (none when the inbox holds a trace this version cannot read: the steps still answer)
     */
    public record Answer(String place, List<CustodyStep> steps, @Nullable HopTrace carried) {
    }

    private CustodyLogReader() {
    }

    /** Reads in {@code c}, which the caller owns, what its database knows of the message. */
    public static Answer read(Connection c, String messageId) throws SQLException {
        String kind = "database";
        String owner = "of no node or site yet";
        try (PreparedStatement ps = c.prepareStatement(OWNER); ResultSet rs = ps.executeQuery()) {
            if (rs.next()) {
                kind = rs.getString(1);
                owner = rs.getString(2);
            }
        }
        boolean node = "node".equals(kind) && hasInbox(c);
        String sql = node ? NODE_STEPS : STEPS;
        List<CustodyStep> steps = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            long[] probe = MessageIdBloom.probe(messageId);
            for (int p = 1, n = (int) sql.chars().filter(ch -> ch == '?').count(); p <= n; p++) {
                if (p == BLOOM_PROBE || p == BLOOM_PROBE + 1) {
                    ps.setLong(p, probe[p - BLOOM_PROBE]);
                }
                else {
                    ps.setString(p, messageId);
                }
            }
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    steps.add(new CustodyStep(rs.getObject(1, OffsetDateTime.class).toInstant(), rs.getString(2), kind,
                            rs.getString(3), strings(rs.getArray(4)), rs.getString(5), rs.getString(6),
                            rs.getString(7)));
                }
            }
        }
        return new Answer(kind + " " + owner, steps, node ? carried(c, messageId, owner) : null);
    }

    private static boolean hasInbox(Connection c) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(HAS_INBOX); ResultSet rs = ps.executeQuery()) {
            return rs.next() && rs.getBoolean(1);
        }
    }

    /** The hops the message carried into this node's inbox, its delivery there ({@code received_at}) last. */
    private static @Nullable HopTrace carried(Connection c, String messageId, String node) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(CARRIED)) {
            ps.setString(1, messageId);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    return null;
                }
                try {
                    return HopTrace.parse(rs.getString(2), rs.getObject(1, OffsetDateTime.class).toInstant())
                            .with(HopTrace.Hop.node(NodeId.of(node), HopTrace.Action.DELIVERED,
                                    rs.getObject(3, OffsetDateTime.class).toInstant()));
                }
                catch (IllegalArgumentException ex) {
                    return null;
                }
            }
        }
    }

    private static List<String> strings(Array array) throws SQLException {
        return array == null ? List.of() : Arrays.asList((String[]) array.getArray());
    }
}
