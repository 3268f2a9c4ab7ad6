package kr.c4i.gateway.interfacedb;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import javax.sql.DataSource;

import org.jspecify.annotations.Nullable;

/**
 * What a C4I application sees of its interface database: it writes the outbox, reads the inbox and both
 * quarantines, and counts. Each call takes one connection from the data source and returns it; the caller makes
 * the data source (pool, embedded database, Unix socket) and closes it.
 */
public final class InterfaceDatabaseClient {

    private static final String INSERT = "INSERT INTO outbox (kmtf_type, body) VALUES (?, ?)";
    // One statement for a whole batch: a multi-row insert costs one round trip and one NOTIFY.
    private static final String INSERT_ALL = "INSERT INTO outbox (kmtf_type, body) SELECT * FROM unnest(?::text[], ?::bytea[])";
    private static final String INSERT_NUMBERED = """
            INSERT INTO outbox (message_id, kmtf_type, body)
            SELECT ? || '-' || n, ?, b FROM unnest(?::bytea[]) WITH ORDINALITY AS t(b, n)""";
    private static final String INSERT_RAW = """
            INSERT INTO outbox (message_id, kmtf_type, precedence, body, created_at)
            VALUES (?, ?, ?, ?, coalesce(?::timestamptz, clock_timestamp())) RETURNING id""";
    private static final String DELIVERY_REPORTS = """
            SELECT message_id, reported_by, event, delivered, at, detail, received_at
              FROM delivery_report ORDER BY received_at, message_id""";

    private static final String INBOX = """
            SELECT message_id, origin_node, kmtf_type, precedence, classification, body, created_at, received_at,
                   transport
              FROM inbox ORDER BY received_at, message_id""";
    private static final String QUARANTINE = """
            SELECT outbox_id, message_id, kmtf_type, reason_kind, reason, body, quarantined_at, quarantined_by
              FROM quarantine ORDER BY id""";
    private static final String INBOUND_QUARANTINE = """
            SELECT transport, origin_node, message_id, kmtf_type, reason_kind, reason, body, body_size, times_received,
                   received_at
              FROM inbound_quarantine ORDER BY id""";
    private static final String OUTBOX_STATS = """
            SELECT count(*), count(*) FILTER (WHERE sent_at IS NULL), min(created_at), max(sent_at)
              FROM outbox WHERE message_id LIKE ?""";
    private static final String INBOX_STATS = """
            SELECT count(*), min(created_at), min(received_at), max(received_at)
              FROM inbox WHERE message_id LIKE ?""";

    private final DataSource dataSource;
    private final int queryTimeoutSeconds;

    /** A client whose statements wait as long as the database takes. */
    public InterfaceDatabaseClient(DataSource dataSource) {
        this(dataSource, Duration.ZERO);
    }

    /** @param queryTimeout how long one statement may take (whole seconds; zero: no limit) */
    public InterfaceDatabaseClient(DataSource dataSource, Duration queryTimeout) {
        this.dataSource = dataSource;
        this.queryTimeoutSeconds = Math.toIntExact(queryTimeout.toSeconds());
    }

    public DataSource dataSource() {
        return dataSource;
    }

    /** Writes one message into the outbox. */
    public void insert(OutboxMessage message) throws SQLException {
        update(INSERT, message.kmtfType(), message.body());
    }

    /** Writes one message, its text as UTF-8, into the outbox. */
    public void insert(String kmtfType, String body) throws SQLException {
        insert(OutboxMessage.of(kmtfType, body));
    }

    /** Writes one message into the outbox. */
    public void insert(String kmtfType, byte[] body) throws SQLException {
        insert(new OutboxMessage(kmtfType, body));
    }

    /** Writes the messages in one statement (one transaction); returns the number of rows written. */
    public int insertAll(List<OutboxMessage> messages) throws SQLException {
        String[] types = new String[messages.size()];
        byte[][] bodies = new byte[messages.size()][];
        for (int i = 0; i < messages.size(); i++) {
            types[i] = messages.get(i).kmtfType();
            bodies[i] = messages.get(i).body();
        }
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = prepare(c, INSERT_ALL)) {
            ps.setArray(1, c.createArrayOf("text", types));
            ps.setArray(2, c.createArrayOf("bytea", bodies));
            return ps.executeUpdate();
        }
    }

    /**
     * Writes messages of one type in one statement with the ids {@code <idPrefix>-1 ... <idPrefix>-n}, so that
     * {@link #outboxStats(String)} and {@link #inboxStats(String)} can tell them from other messages.
     */
    public int insertNumbered(String idPrefix, String kmtfType, List<byte[]> bodies) throws SQLException {
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = prepare(c, INSERT_NUMBERED)) {
            ps.setString(1, idPrefix);
            ps.setString(2, kmtfType);
            ps.setArray(3, c.createArrayOf("bytea", bodies.toArray(byte[][]::new)));
            return ps.executeUpdate();
        }
    }

    /** Writes a row with every column given, as is; returns its {@code outbox.id}. */
    public long insertRaw(RawOutboxRow row) throws SQLException {
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = prepare(c, INSERT_RAW)) {
            ps.setString(1, row.messageId());
            ps.setString(2, row.kmtfType());
            ps.setString(3, row.precedence());
            ps.setBytes(4, row.body());
            ps.setString(5, row.createdAt());
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    /** Every inbox row, in arrival order. */
    public List<InboxRow> inbox() throws SQLException {
        return list(INBOX, rs -> new InboxRow(rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4),
                rs.getString(5), rs.getBytes(6), instant(rs, 7), instant(rs, 8), rs.getString(9)));
    }

    /** Every refused outbox row, in the order they were refused. */
    public List<QuarantineRow> quarantine() throws SQLException {
        return list(QUARANTINE, rs -> new QuarantineRow(rs.getLong(1), rs.getString(2), rs.getString(3),
                rs.getString(4), rs.getString(5), rs.getBytes(6), instant(rs, 7), rs.getString(8)));
    }

    /** Everything refused on arrival, in the order it first arrived. */
    public List<InboundQuarantineRow> inboundQuarantine() throws SQLException {
        return list(INBOUND_QUARANTINE, rs -> new InboundQuarantineRow(rs.getString(1), rs.getString(2),
                rs.getString(3), rs.getString(4), rs.getString(5), rs.getString(6), rs.getBytes(7),
                rs.getObject(8, Integer.class), rs.getInt(9), instant(rs, 10)));
    }

    /** Every delivery and non-delivery report, in the order they were written. */
    public List<DeliveryReportRow> deliveryReports() throws SQLException {
        return list(DELIVERY_REPORTS, rs -> new DeliveryReportRow(rs.getString(1), rs.getString(2), rs.getString(3),
                rs.getBoolean(4), instant(rs, 5), rs.getString(6), instant(rs, 7)));
    }

    public long outboxCount() throws SQLException {
        return count("SELECT count(*) FROM outbox");
    }

    /**
     * Outbox rows the bridge has not sent yet (nor quarantined): the backlog. The outbox has no index on
     * {@code sent_at} (the bridge's marks are HOT updates), so this reads the whole table.
     */
    public long unsentCount() throws SQLException {
        return count("SELECT count(*) FROM outbox WHERE sent_at IS NULL");
    }

    public long sentCount() throws SQLException {
        return count("SELECT count(*) FROM outbox WHERE sent_at IS NOT NULL");
    }

    public long inboxCount() throws SQLException {
        return count("SELECT count(*) FROM inbox");
    }

    public long quarantineCount() throws SQLException {
        return count("SELECT count(*) FROM quarantine");
    }

    public long inboundQuarantineCount() throws SQLException {
        return count("SELECT count(*) FROM inbound_quarantine");
    }

    /** RELIABLE deliveries still awaiting their destination's receipt (DDS; always 0 over JMS). */
    public long unreceiptedCount() throws SQLException {
        return count("SELECT count(*) FROM outbox_delivery");
    }

    /** Refused outbox rows per reason kind, most frequent first. */
    public Map<String, Long> quarantineReasons() throws SQLException {
        Map<String, Long> reasons = new LinkedHashMap<>();
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = prepare(c,
                "SELECT reason_kind, count(*) FROM quarantine GROUP BY reason_kind ORDER BY 2 DESC");
                ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                reasons.put(rs.getString(1), rs.getLong(2));
            }
        }
        return reasons;
    }

    /**
     * Outbox rows of one {@link #insertNumbered id prefix}.
     *
     * @param rows rows written
     * @param unsent rows the bridge has not sent yet
     * @param firstCreated when the first was written
     * @param lastSent when the bridge sent the last, or null
     */
    public record OutboxStats(long rows, long unsent, @Nullable Instant firstCreated, @Nullable Instant lastSent) {
    }

    /**
     * Inbox rows of one {@link #insertNumbered id prefix}.
     *
     * @param rows messages received
     * @param firstCreated when the first of them was written to its origin's outbox
     * @param firstReceived when the first arrived in this inbox
     * @param lastReceived when the last arrived
     */
    public record InboxStats(long rows, @Nullable Instant firstCreated, @Nullable Instant firstReceived,
            @Nullable Instant lastReceived) {
    }

    public OutboxStats outboxStats(String idPrefix) throws SQLException {
        return one(OUTBOX_STATS, idPrefix + "-%", rs -> new OutboxStats(rs.getLong(1), rs.getLong(2),
                nullableInstant(rs, 3), nullableInstant(rs, 4)));
    }

    public InboxStats inboxStats(String idPrefix) throws SQLException {
        return one(INBOX_STATS, idPrefix + "-%", rs -> new InboxStats(rs.getLong(1), nullableInstant(rs, 2),
                nullableInstant(rs, 3), nullableInstant(rs, 4)));
    }

    /** Inbox rows of one {@link #insertNumbered id prefix}; cheaper than {@link #inboxStats} for polling. */
    public long inboxCount(String idPrefix) throws SQLException {
        return one("SELECT count(*) FROM inbox WHERE message_id LIKE ?", idPrefix + "-%", rs -> rs.getLong(1));
    }

    /** The single number an ad-hoc query returns, for assertions the typed reads do not cover. */
    public long count(String sql) throws SQLException {
        return one(sql, null, rs -> rs.getLong(1));
    }

    /** The first column of every row of an ad-hoc query, for assertions the typed reads do not cover. */
    public List<String> strings(String sql) throws SQLException {
        return list(sql, rs -> rs.getString(1));
    }

    /** Reads one row of a result. */
    private interface Row<T> {
        T read(ResultSet rs) throws SQLException;
    }

    private void update(String sql, String text, byte[] bytes) throws SQLException {
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = prepare(c, sql)) {
            ps.setString(1, text);
            ps.setBytes(2, bytes);
            ps.executeUpdate();
        }
    }

    private <T> T one(String sql, @Nullable String parameter, Row<T> row) throws SQLException {
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = prepare(c, sql)) {
            if (parameter != null) {
                ps.setString(1, parameter);
            }
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    throw new SQLException("No row from " + sql);
                }
                return row.read(rs);
            }
        }
    }

    private <T> List<T> list(String sql, Row<T> row) throws SQLException {
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = prepare(c, sql);
                ResultSet rs = ps.executeQuery()) {
            List<T> rows = new ArrayList<>();
            while (rs.next()) {
                rows.add(row.read(rs));
            }
            return rows;
        }
    }

    private PreparedStatement prepare(Connection c, String sql) throws SQLException {
        PreparedStatement ps = c.prepareStatement(sql);
        try {
            ps.setQueryTimeout(queryTimeoutSeconds);
            return ps;
        }
        catch (SQLException ex) {
            ps.close();
            throw ex;
        }
    }

    private static Instant instant(ResultSet rs, int column) throws SQLException {
        Instant value = nullableInstant(rs, column);
        if (value == null) {
            throw new SQLException("Column " + column + " is NULL");
        }
        return value;
    }

    private static @Nullable Instant nullableInstant(ResultSet rs, int column) throws SQLException {
        OffsetDateTime value = rs.getObject(column, OffsetDateTime.class);
        return value == null ? null : value.toInstant();
    }
}
