package kr.c4i.gateway.scenarios.node;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Properties;

import org.jspecify.annotations.Nullable;

/**
 * A node's interface database, reached from the root namespace over its PostgreSQL Unix socket (Unix sockets
 * are not network-namespaced). The harness is the "C4I application": it writes the outbox and reads the inbox.
 * Messages of one repetition share a tag, the first part of their message ids, so each is counted on its own.
 * Times come from the databases' {@code clock_timestamp()} (one machine, one clock), not from polling.
 */
public final class InterfaceDatabase implements AutoCloseable {

    private static final String INSERT = """
            INSERT INTO outbox (message_id, kmtf_type, body)
            SELECT ? || '-' || n, ?, b FROM unnest(?::bytea[]) WITH ORDINALITY AS t(b, n)""";
    private static final String OUTBOX = """
            SELECT count(*), count(*) FILTER (WHERE sent_at IS NULL), min(created_at), max(sent_at)
              FROM outbox WHERE message_id LIKE ?""";
    private static final String INBOX = """
            SELECT count(*), min(created_at), min(received_at), max(received_at)
              FROM inbox WHERE message_id LIKE ?""";
    private static final String INBOX_COUNT = "SELECT count(*) FROM inbox WHERE message_id LIKE ?";
    private static final int QUERY_TIMEOUT_SECONDS = 15;

    private final String url;
    private final Properties properties = new Properties();
    private @Nullable Connection connection;

    /**
     * @param socketDir the node's {@code --pg-socket-dir}
     * @param port the node's PostgreSQL port (from its READY line)
     * @param password the node's PostgreSQL password (from its password file)
     */
    public InterfaceDatabase(Path socketDir, int port, String password) {
        this.url = url(socketDir, port);
        properties.setProperty("user", "postgres");
        properties.setProperty("password", password);
    }

    /** The JDBC URL through junixsocket's socket factory; pure, so a test can read it. */
    public static String url(Path socketDir, int port) {
        return "jdbc:postgresql://localhost:" + port + "/postgres"
                + "?socketFactory=org.newsclub.net.unix.AFUNIXSocketFactory$FactoryArg"
                + "&socketFactoryArg=" + socketDir.resolve(".s.PGSQL." + port) + "&sslmode=disable"
                + "&connectTimeout=10&socketTimeout=60&ApplicationName=netem-scenarios";
    }

    /**
     * Outbox rows of one tag.
     *
     * @param rows rows written
     * @param unsent rows the bridge has not sent yet
     * @param firstCreated when the first was written
     * @param lastSent when the bridge sent the last, or null
     */
    public record OutboxStats(long rows, long unsent, @Nullable Instant firstCreated, @Nullable Instant lastSent) {
    }

    /**
     * Inbox rows of one tag.
     *
     * @param rows messages received
     * @param firstCreated when the first of them was written to its origin's outbox
     * @param firstReceived when the first arrived in this inbox
     * @param lastReceived when the last arrived
     */
    public record InboxStats(long rows, @Nullable Instant firstCreated, @Nullable Instant firstReceived,
            @Nullable Instant lastReceived) {
    }

    /** Writes the messages into the outbox in one statement; their ids are {@code <tag>-1 ... <tag>-n}. */
    public synchronized void insert(String tag, String kmtfType, List<byte[]> bodies) throws SQLException {
        try (PreparedStatement ps = connection().prepareStatement(INSERT)) {
            ps.setQueryTimeout(QUERY_TIMEOUT_SECONDS);
            ps.setString(1, tag);
            ps.setString(2, kmtfType);
            ps.setArray(3, connection().createArrayOf("bytea", bodies.toArray(byte[][]::new)));
            ps.executeUpdate();
        }
        catch (SQLException ex) {
            reset();
            throw ex;
        }
    }

    public synchronized OutboxStats outbox(String tag) throws SQLException {
        return queryByTag(OUTBOX, tag, rs -> new OutboxStats(rs.getLong(1), rs.getLong(2), instant(rs, 3),
                instant(rs, 4)));
    }

    public synchronized InboxStats inbox(String tag) throws SQLException {
        return queryByTag(INBOX, tag, rs -> new InboxStats(rs.getLong(1), instant(rs, 2), instant(rs, 3),
                instant(rs, 4)));
    }

    /** Just the count, for polling. */
    public synchronized long inboxCount(String tag) throws SQLException {
        return queryByTag(INBOX_COUNT, tag, rs -> rs.getLong(1));
    }

    /** Reads the one row an aggregate query over the messages of {@code tag} returns. */
    private interface Row<T> {
        T read(ResultSet rs) throws SQLException;
    }

    private <T> T queryByTag(String sql, String tag, Row<T> row) throws SQLException {
        try (PreparedStatement ps = connection().prepareStatement(sql)) {
            ps.setQueryTimeout(QUERY_TIMEOUT_SECONDS);
            ps.setString(1, tag + "-%");
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return row.read(rs);
            }
        }
        catch (SQLException ex) {
            reset();
            throw ex;
        }
    }

    @Override
    public synchronized void close() {
        reset();
    }

    private Connection connection() throws SQLException {
        if (connection == null || connection.isClosed()) {
            connection = DriverManager.getConnection(url, properties);
        }
        return connection;
    }

    private void reset() {
        if (connection != null) {
            try {
                connection.close();
            }
            catch (SQLException ignored) {
                // the node may be gone; a new connection is made on next use
            }
            connection = null;
        }
    }

    private static @Nullable Instant instant(ResultSet rs, int column) throws SQLException {
        OffsetDateTime value = rs.getObject(column, OffsetDateTime.class);
        return value == null ? null : value.toInstant();
    }
}
