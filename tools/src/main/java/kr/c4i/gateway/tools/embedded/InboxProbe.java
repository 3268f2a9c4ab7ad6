package kr.c4i.gateway.tools.embedded;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

import javax.sql.DataSource;

import org.jspecify.annotations.Nullable;

import kr.c4i.gateway.interfacedb.InterfaceDatabaseClient;

/** Reads the interface databases to tell what happened, independent of the bridges' own metrics. */
final class InboxProbe {

    /** Latency percentiles in milliseconds and the window the rows span. */
    record Latency(long rows, double p50Millis, double p99Millis, double maxMillis, Instant firstCreated,
            Instant lastReceived) {

        double throughputPerSecond() {
            double seconds = (lastReceived.toEpochMilli() - firstCreated.toEpochMilli()) / 1000.0;
            return seconds <= 0 ? 0 : rows / seconds;
        }
    }

    /** A fingerprint of a set of message ids: equal fingerprints mean the same messages, each once. */
    record Fingerprint(long rows, String digest) {
    }

    static long count(DataSource db, String sql) throws SQLException {
        return new InterfaceDatabaseClient(db).count(sql);
    }

    static long inbox(DataSource db) throws SQLException {
        return new InterfaceDatabaseClient(db).inboxCount();
    }

    static long sent(DataSource db) throws SQLException {
        return new InterfaceDatabaseClient(db).sentCount();
    }

    static long quarantined(DataSource db) throws SQLException {
        return new InterfaceDatabaseClient(db).quarantineCount();
    }

    /** RELIABLE deliveries still awaiting a receipt (DDS; always 0 over JMS). */
    static long unreceipted(DataSource db) throws SQLException {
        return new InterfaceDatabaseClient(db).unreceiptedCount();
    }

    static long backlog(DataSource db) throws SQLException {
        return new InterfaceDatabaseClient(db).unsentCount();
    }

    static Map<String, Long> quarantineReasons(DataSource db) throws SQLException {
        return new InterfaceDatabaseClient(db).quarantineReasons();
    }

    /** The sent messages of these types. */
    static Fingerprint sentFingerprint(DataSource db, Set<String> types) throws SQLException {
        return fingerprint(db, "SELECT count(*), md5(coalesce(string_agg(message_id, ',' ORDER BY message_id), '')) "
                + "FROM outbox WHERE sent_at IS NOT NULL AND kmtf_type = ANY (?)", types);
    }

    /** The received messages of these types. */
    static Fingerprint inboxFingerprint(DataSource db, Set<String> types) throws SQLException {
        return fingerprint(db, "SELECT count(*), md5(coalesce(string_agg(message_id, ',' ORDER BY message_id), '')) "
                + "FROM inbox WHERE kmtf_type = ANY (?)", types);
    }

    /** Every outbox row, sent or not: what a soak's inbox must hold, each once. */
    static Fingerprint outboxFingerprint(DataSource db) throws SQLException {
        return fingerprint(db, "SELECT count(*), md5(coalesce(string_agg(message_id, ',' ORDER BY message_id), '')) "
                + "FROM outbox");
    }

    /** Every inbox row. */
    static Fingerprint inboxFingerprint(DataSource db) throws SQLException {
        return fingerprint(db, "SELECT count(*), md5(coalesce(string_agg(message_id, ',' ORDER BY message_id), '')) "
                + "FROM inbox");
    }

    /** The ids of the sent messages of these types. */
    static Set<String> sentIds(DataSource db, Set<String> types) throws SQLException {
        return ids(db, "SELECT message_id FROM outbox WHERE sent_at IS NOT NULL AND kmtf_type = ANY (?)", types);
    }

    /** The ids of the received messages of these types. */
    static Set<String> inboxIds(DataSource db, Set<String> types) throws SQLException {
        return ids(db, "SELECT message_id FROM inbox WHERE kmtf_type = ANY (?)", types);
    }

    /**
     * How a receiver's set of message ids compares with the sent set.
     *
     * @param received ids in the inbox
     * @param missing sent ids not in the inbox
     * @param unexpected ids in the inbox that were never sent
     */
    record Comparison(long received, long missing, long unexpected) {

        static Comparison of(Set<String> sent, Set<String> received) {
            long missing = sent.stream().filter(id -> !received.contains(id)).count();
            long unexpected = received.stream().filter(id -> !sent.contains(id)).count();
            return new Comparison(received.size(), missing, unexpected);
        }
    }

    private static Set<String> ids(DataSource db, String sql, Set<String> types) throws SQLException {
        Set<String> ids = new HashSet<>();
        try (Connection c = db.getConnection(); PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setArray(1, c.createArrayOf("text", types.toArray()));
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    ids.add(rs.getString(1));
                }
            }
        }
        return ids;
    }

    private static Fingerprint fingerprint(DataSource db, String sql) throws SQLException {
        try (Connection c = db.getConnection(); PreparedStatement ps = c.prepareStatement(sql);
                ResultSet rs = ps.executeQuery()) {
            rs.next();
            return new Fingerprint(rs.getLong(1), rs.getString(2));
        }
    }

    private static Fingerprint fingerprint(DataSource db, String sql, Set<String> types) throws SQLException {
        try (Connection c = db.getConnection(); PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setArray(1, c.createArrayOf("text", types.toArray()));
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return new Fingerprint(rs.getLong(1), rs.getString(2));
            }
        }
    }

    /** Outbox-insert-to-inbox-insert latency of the rows received since {@code since}. */
    static Latency latency(DataSource db, Instant since) throws SQLException {
        return latency(db, "inbox", since);
    }

    /**
     * Insert-to-arrival latency of the rows of {@code table} created since {@code since}: the same figure for the
     * bridge's inbox and for the replication reference's subscriber table.
     */
    static Latency latency(DataSource db, String table, Instant since) throws SQLException {
        return latency(db, table, "received_at", "created_at", since);
    }

    /**
     * Latency of the inbox rows that arrived since {@code since}: a soak's figure for its last minute, read through the
     * {@code received_at} index rather than a scan of an inbox that only grows.
     */
    static Latency arrivalsSince(DataSource db, Instant since) throws SQLException {
        return latency(db, "inbox", "received_at", "received_at", since);
    }

    /**
     * Insert-to-sent latency of the outbox rows created since {@code since} and sent: the sending node's share of the
     * latency (claimed, sent, and marked sent in its transaction), the rest being the way to the inbox.
     */
    static Latency sentLatency(DataSource outbox, Instant since) throws SQLException {
        return latency(outbox, "outbox", "sent_at", "created_at", since);
    }

    /**
     * @param end the column of the time each row got where it is measured to
     * @param column the column {@code since} is compared with
     */
    private static Latency latency(DataSource db, String table, String end, String column, Instant since)
            throws SQLException {
        String sql = """
                SELECT count(*),
                       percentile_cont(0.5) WITHIN GROUP (ORDER BY ms),
                       percentile_cont(0.99) WITHIN GROUP (ORDER BY ms),
                       max(ms), min(created_at), max(%1$s)
                  FROM (SELECT extract(epoch FROM %1$s - created_at) * 1000 AS ms, created_at, %1$s
                          FROM %2$s WHERE %3$s >= ? AND %1$s IS NOT NULL) AS l""".formatted(end, table, column);
        try (Connection c = db.getConnection(); PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setTimestamp(1, Timestamp.from(since));
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                long rows = rs.getLong(1);
                if (rows == 0) {
                    return new Latency(0, 0, 0, 0, since, since);
                }
                return new Latency(rows, rs.getDouble(2), rs.getDouble(3), rs.getDouble(4),
                        rs.getTimestamp(5).toInstant(), rs.getTimestamp(6).toInstant());
            }
        }
    }

    /**
     * Counts the rows arriving in a table without counting the whole table on every look: a look counts only the rows
     * received since the last one, through the {@code received_at} index. A row committed late with an earlier
     * {@code received_at} escapes those looks, so the whole table (or all its rows since a given time) is counted once
     * the total seems reached and at most every {@value #FULL_COUNT_MILLIS} ms besides, and that count is the one
     * believed. The bench's waits poll every few milliseconds, and a {@code count(*)} of a table of 100,000 rows took
     * 16 ms of the machine's two cores each time, a quarter of the receiving database's work (bench --profile,
     * 2026-11-25).
     */
    static final class Arrivals {

        private static final long FULL_COUNT_MILLIS = 1_000;

        private final DataSource db;
        private final String table;
        private final Timestamp since;
        private long rows;
        private @Nullable Timestamp mark;
        private long lastFullCount;

        /** Counts the whole table; reads nothing yet: the first {@link #rows()} or {@link #reached} counts it. */
        Arrivals(DataSource db, String table) {
            this(db, table, Instant.EPOCH);
        }

        /**
         * Counts only the rows received from {@code since} on, through the index: a phase's rows in a table that its
         * warm-up filled with millions, whose whole count took 150-210 ms of a core each second (2026-12-04).
         */
        Arrivals(DataSource db, String table, Instant since) {
            this.db = db;
            this.table = table;
            this.since = Timestamp.from(since);
        }

        /** The rows in the table now. */
        long rows() throws SQLException {
            countAll();
            return rows;
        }

        /** Whether the table holds at least {@code target} rows. */
        boolean reached(long target) throws SQLException {
            boolean full = System.nanoTime() - lastFullCount > FULL_COUNT_MILLIS * 1_000_000;
            if (full) {
                countAll();
            }
            else {
                countSinceMark();
            }
            return rows >= target && (full || countAll() >= target);
        }

        private long countAll() throws SQLException {
            query("SELECT count(*), max(received_at) FROM " + table + " WHERE received_at >= ?", since, true);
            lastFullCount = System.nanoTime();
            return rows;
        }

        private void countSinceMark() throws SQLException {
            if (mark == null) {
                countAll();
                return;
            }
            query("SELECT count(*), max(received_at) FROM " + table + " WHERE received_at > ?", mark, false);
        }

        /** Counts the rows from {@code from} on: all of them ({@code whole}), or those to add to the count. */
        private void query(String sql, Timestamp from, boolean whole) throws SQLException {
            try (Connection c = db.getConnection(); PreparedStatement ps = c.prepareStatement(sql)) {
                ps.setTimestamp(1, from);
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    rows = whole ? rs.getLong(1) : rows + rs.getLong(1);
                    Timestamp latest = rs.getTimestamp(2);
                    if (latest != null) {
                        mark = latest;
                    }
                }
            }
        }
    }

    private InboxProbe() {
    }
}
