package kr.c4i.gateway.tools.embedded;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;

import javax.sql.DataSource;

import com.zaxxer.hikari.HikariDataSource;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.flywaydb.core.Flyway;
import org.jspecify.annotations.Nullable;

import kr.c4i.gateway.tools.WarmUpTidy;
import kr.c4i.gateway.tools.embedded.InboxProbe.Latency;

/**
 * What the bridge is compared with: PostgreSQL's own logical replication between two embedded
 * clusters on this machine, no gateway involved. The publisher holds the bridge's own outbox (its
 * migrations) and publishes inserts; the subscriber applies them into an inbox-shaped table that
 * stamps {@code received_at} on arrival. Rows are written by the bridge bench's load generator and
 * measured as the bridge is: first {@code created_at} to last {@code received_at}, both the
 * databases' clocks. Both clusters are this reference's own (own data directories, own replication
 * role and password), so it does not depend on how the nodes' databases are secured.
 */
final class ReplicationReference implements AutoCloseable {

    /** Logical replication matches tables by name: the subscriber's inbox-shaped table is also {@code outbox}. */
    private static final String SUBSCRIBER_TABLE = """
            CREATE TABLE outbox (
                message_id  text        PRIMARY KEY,
                kmtf_type   text        NOT NULL,
                precedence  text,
                body        bytea       NOT NULL,
                created_at  timestamptz NOT NULL,
                received_at timestamptz NOT NULL DEFAULT clock_timestamp()
            );
            CREATE INDEX outbox_received_at ON outbox (received_at)""";
    private static final String ROLE = "reference_replication";
    private static final Duration ARRIVAL_TIMEOUT = Duration.ofMinutes(5);

    /**
     * The server settings that decide what a commit costs, as the bridge's databases run them; the
     * reference's clusters are started with the same.
     */
    record Durability(Map<String, String> settings) {

        static final List<String> NAMES = List.of("fsync", "synchronous_commit", "full_page_writes",
                "wal_sync_method");

        Durability {
            settings = Map.copyOf(settings);
        }

        /** The settings of a running database (one of the bridge's). */
        static Durability of(DataSource database) throws SQLException {
            Map<String, String> settings = new LinkedHashMap<>();
            try (Connection c = database.getConnection();
                    PreparedStatement ps = c.prepareStatement(
                            "SELECT name, setting FROM pg_settings WHERE name = ANY (?)")) {
                ps.setArray(1, c.createArrayOf("text", NAMES.toArray()));
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        settings.put(rs.getString(1), rs.getString(2));
                    }
                }
            }
            return new Durability(settings);
        }

        @Override
        public String toString() {
            return NAMES.stream().filter(settings::containsKey).map(name -> name + "=" + settings.get(name))
                    .collect(Collectors.joining(", "));
        }
    }

    /**
     * The reference's figures, computed as the bridge's are, and the settings they were measured with.
     *
     * @param fedPerSecond how fast the publisher took the rows: the reference cannot be faster
     */
    record Result(Latency latency, double fedPerSecond, Durability durability) {

        double rowsPerSecond() {
            return latency.throughputPerSecond();
        }
    }

    private final Durability durability;
    private final EmbeddedPostgres publisherServer;
    private final EmbeddedPostgres subscriberServer;
    private final HikariDataSource publisher;
    private final HikariDataSource subscriber;

    private ReplicationReference(Durability durability, EmbeddedPostgres publisherServer,
            EmbeddedPostgres subscriberServer) {
        this.durability = durability;
        this.publisherServer = publisherServer;
        this.subscriberServer = subscriberServer;
        this.publisher = pool(publisherServer, "reference-publisher");
        this.subscriber = pool(subscriberServer, "reference-subscriber");
    }

    /**
     * Starts both clusters under {@code workDir}, with the outbox published and subscribed, and returns
     * once the subscriber's apply worker streams from the publisher.
     */
    static ReplicationReference start(Path workDir, Durability durability)
            throws IOException, SQLException, InterruptedException {
        return start(workDir, durability, UnaryOperator.identity());
    }

    /** @param servers what both clusters are started with beyond the bridge's durability (the bench's profile) */
    static ReplicationReference start(Path workDir, Durability durability,
            UnaryOperator<EmbeddedPostgres.Builder> servers) throws IOException, SQLException, InterruptedException {
        String password = Secrets.random();
        EmbeddedPostgres publisherServer = servers.apply(server(workDir.resolve("publisher"), durability))
                .setServerConfig("wal_level", "logical")
                .setServerConfig("max_wal_senders", "4")
                .setServerConfig("max_replication_slots", "4")
                // zonky's initdb trusts every local connection; the replication role must give its password.
                .setDataDirectoryCustomizer(dir -> requirePassword(dir.toPath()))
                .start();
        EmbeddedPostgres subscriberServer;
        try {
            subscriberServer = servers.apply(server(workDir.resolve("subscriber"), durability)).start();
        }
        catch (IOException | RuntimeException ex) {
            publisherServer.close();
            throw ex;
        }
        ReplicationReference reference = new ReplicationReference(durability, publisherServer, subscriberServer);
        try {
            reference.connect(password);
            return reference;
        }
        catch (SQLException | InterruptedException | RuntimeException ex) {
            reference.close();
            throw ex;
        }
    }

    private static EmbeddedPostgres.Builder server(Path dataDir, Durability durability) throws IOException {
        Files.createDirectories(dataDir);
        EmbeddedPostgres.Builder builder = EmbeddedPostgres.builder().setCleanDataDirectory(true)
                .setDataDirectory(dataDir);
        // zonky starts the postmaster with -F (fsync off); -c options come after it and win.
        durability.settings().forEach(builder::setServerConfig);
        return builder;
    }

    private static void requirePassword(Path dataDir) {
        Path hba = dataDir.resolve("pg_hba.conf");
        try {
            String rules = Files.readString(hba);
            // First match wins: this line before zonky's "trust" lines.
            Files.writeString(hba, "host all " + ROLE + " 127.0.0.1/32 scram-sha-256\n" + rules);
        }
        catch (IOException ex) {
            throw new IllegalStateException("Unable to edit " + hba, ex);
        }
    }

    private static HikariDataSource pool(EmbeddedPostgres server, String name) {
        HikariDataSource pool = new HikariDataSource();
        pool.setJdbcUrl(server.getJdbcUrl("postgres", "postgres"));
        pool.setMaximumPoolSize(4);
        pool.setPoolName(name);
        return pool;
    }

    private void connect(String password) throws SQLException, InterruptedException {
        Flyway.configure().dataSource(publisher).locations("classpath:db/migration").load().migrate();
        try (Connection c = publisher.getConnection(); Statement s = c.createStatement()) {
            s.execute("CREATE ROLE " + ROLE + " WITH LOGIN REPLICATION PASSWORD '" + password + "'");
            s.execute("GRANT SELECT ON outbox TO " + ROLE);
            // What an application's insert carries; the bridge's own bookkeeping columns stay behind.
            s.execute("CREATE PUBLICATION reference FOR TABLE outbox (message_id, kmtf_type, precedence, body, "
                    + "created_at) WITH (publish = 'insert')");
        }
        String connection = "host=127.0.0.1 port=" + publisherServer.getPort() + " dbname=postgres user=" + ROLE
                + " password=" + password + " application_name=reference";
        try (Connection c = subscriber.getConnection(); Statement s = c.createStatement()) {
            s.execute(SUBSCRIBER_TABLE);
            // Commits as the bridge's inbox does: synchronously, whatever the server's default.
            s.execute("CREATE SUBSCRIPTION reference CONNECTION '" + connection + "' PUBLICATION reference "
                    + "WITH (copy_data = false, synchronous_commit = 'on')");
        }
        await("the subscriber's apply worker to stream from the publisher", Duration.ofMinutes(1),
                () -> InboxProbe.count(publisher, "SELECT count(*) FROM pg_stat_replication "
                        + "WHERE application_name = 'reference' AND state = 'streaming'") == 1);
    }

    /**
     * Feeds {@code warmup} rows and waits for them, has both clusters vacuum and checkpoint as the bridge's bench does
     * after its warm-up, then feeds {@code rows} rows as fast as the publisher takes them (the bridge bench's
     * throughput phase) and measures them.
     *
     * @throws IllegalStateException when rows do not arrive in time or arrive different
     */
    Result measure(KmtfLoadGenerator generator, long warmup, long rows) throws SQLException, InterruptedException {
        return measure(generator, warmup, rows, null, null);
    }

    /**
     * As {@link #measure(KmtfLoadGenerator, long, long)}, and with a profile of both clusters' databases over the
     * measured rows printed to {@code out} (the clusters started with {@link BenchProfile#prepare}).
     */
    Result measure(KmtfLoadGenerator generator, long warmup, long rows, @Nullable BenchProfile profile,
            @Nullable PrintWriter out) throws SQLException, InterruptedException {
        feed(generator, warmup);
        WarmUpTidy.tidy(publisher, "outbox");
        WarmUpTidy.tidy(subscriber, "outbox");
        if (profile != null) {
            profile.add("reference publisher", publisher);
            profile.add("reference subscriber", subscriber);
            profile.start();
        }
        Instant start = Instant.now();
        double fedPerSecond = feed(generator, rows);
        if (profile != null && out != null) {
            profile.report(out, rows);
        }
        Latency latency = InboxProbe.latency(subscriber, "outbox", start);
        if (latency.rows() != rows) {
            throw new IllegalStateException("reference: " + latency.rows() + " of " + rows + " rows measured");
        }
        String sent = fingerprint(publisher);
        String received = fingerprint(subscriber);
        if (!sent.equals(received)) {
            throw new IllegalStateException("reference: the subscriber's rows differ from the publisher's ("
                    + received + " vs " + sent + ")");
        }
        return new Result(latency, fedPerSecond, durability);
    }

    /** Inserts {@code count} rows, waits for them in the subscriber; returns the rate the publisher took them at. */
    private double feed(KmtfLoadGenerator generator, long count) throws SQLException, InterruptedException {
        if (count == 0) {
            return 0;
        }
        InboxProbe.Arrivals arrivals = new InboxProbe.Arrivals(subscriber, "outbox", Instant.now());
        long before = arrivals.rows();
        long start = System.nanoTime();
        new LoadDriver(generator, publisher).drive(count, 0, 0);
        double fedPerSecond = count / ((System.nanoTime() - start) / 1e9);
        await(count + " rows to arrive in the subscriber", ARRIVAL_TIMEOUT, () -> arrivals.reached(before + count));
        return fedPerSecond;
    }

    /** Count and digest of every row's id, type, precedence, body and creation time. */
    private static String fingerprint(DataSource db) throws SQLException {
        try (Connection c = db.getConnection(); PreparedStatement ps = c.prepareStatement("""
                SELECT count(*) || ':' || md5(coalesce(string_agg(
                           md5(message_id || '|' || kmtf_type || '|' || coalesce(precedence, '') || '|'
                               || created_at::text || '|' || md5(body)), ',' ORDER BY message_id), ''))
                  FROM outbox""");
                ResultSet rs = ps.executeQuery()) {
            rs.next();
            return rs.getString(1);
        }
    }

    private interface Condition {
        boolean met() throws SQLException;
    }

    private static void await(String what, Duration timeout, Condition condition)
            throws SQLException, InterruptedException {
        Instant deadline = Instant.now().plus(timeout);
        while (!condition.met()) {
            if (Instant.now().isAfter(deadline)) {
                throw new IllegalStateException("reference: gave up waiting " + timeout.toSeconds() + " s for " + what);
            }
            // Coarser than the bridge phases' 20 ms: the figure comes from the rows' timestamps, not from this loop.
            TimeUnit.MILLISECONDS.sleep(50);
        }
    }

    DataSource publisher() {
        return publisher;
    }

    DataSource subscriber() {
        return subscriber;
    }

    int publisherPort() {
        return publisherServer.getPort();
    }

    @Override
    public void close() {
        publisher.close();
        subscriber.close();
        // Subscriber first: its apply worker goes before the publisher it streams from.
        for (EmbeddedPostgres server : List.of(subscriberServer, publisherServer)) {
            try {
                server.close();
            }
            catch (IOException ex) {
                System.err.println("Unable to stop a reference database: " + ex.getMessage());
            }
        }
    }
}
