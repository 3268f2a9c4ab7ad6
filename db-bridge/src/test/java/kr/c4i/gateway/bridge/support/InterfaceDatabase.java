package kr.c4i.gateway.bridge.support;

import java.io.IOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.List;

import javax.sql.DataSource;

import com.zaxxer.hikari.HikariDataSource;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.flywaydb.core.Flyway;

import kr.c4i.gateway.interfacedb.InterfaceDatabaseClient;

/**
 * A real PostgreSQL with the bridge's schema, for tests. Can be stopped and started again on the
 * same port and data directory to play a database that goes away and comes back.
 */
public final class InterfaceDatabase implements AutoCloseable {

    private final Path dataDirectory;
    private EmbeddedPostgres postgres;
    private final int port;
    private final HikariDataSource pool;
    private final InterfaceDatabaseClient client;

    public InterfaceDatabase(Path dataDirectory) throws IOException {
        this.dataDirectory = dataDirectory;
        // Not "clean": zonky would delete the data directory on stop, and a restart must find it.
        this.postgres = EmbeddedPostgres.builder().setDataDirectory(dataDirectory).setCleanDataDirectory(false).start();
        this.port = postgres.getPort();
        Flyway.configure().dataSource(postgres.getPostgresDatabase()).locations("classpath:db/migration").load()
                .migrate();
        pool = new HikariDataSource();
        pool.setJdbcUrl(jdbcUrl());
        pool.setUsername("postgres");
        pool.setMaximumPoolSize(8);
        pool.setConnectionTimeout(2000);
        client = new InterfaceDatabaseClient(pool);
    }

    public String jdbcUrl() {
        return "jdbc:postgresql://localhost:" + port + "/postgres";
    }

    /** A pooled data source, like the bridge's, that survives a database restart. */
    public DataSource dataSource() {
        return pool;
    }

    public void stop() throws IOException {
        postgres.close();
    }

    public void start() throws IOException {
        postgres = EmbeddedPostgres.builder().setDataDirectory(dataDirectory).setCleanDataDirectory(false)
                .setPort(port).start();
        // The test's own pool still holds connections the restart killed; the bridge's pool must cope alone.
        pool.getHikariPoolMXBean().softEvictConnections();
    }

    /** The database as its C4I application sees it. */
    public InterfaceDatabaseClient client() {
        return client;
    }

    public void insertOutbox(String type, String body) throws SQLException {
        client.insert(type, body);
    }

    public void insertOutbox(String type, byte[] body) throws SQLException {
        client.insert(type, body);
    }

    /** Runs one statement with its parameters, e.g. an INSERT of a row as a C4I application writes it. */
    public int execute(String sql, Object... parameters) throws SQLException {
        try (Connection c = pool.getConnection(); PreparedStatement ps = c.prepareStatement(sql)) {
            for (int i = 0; i < parameters.length; i++) {
                ps.setObject(i + 1, parameters[i]);
            }
            return ps.executeUpdate();
        }
    }

    /** Lets the outbox take rows written before V3's constraints existed, as an operator's old rows were. */
    public void dropOutboxConstraints() throws SQLException {
        execute("""
                ALTER TABLE outbox DROP CONSTRAINT outbox_message_id_valid,
                                   DROP CONSTRAINT outbox_created_at_valid,
                                   DROP CONSTRAINT outbox_precedence_valid""");
    }

    public long count(String sql) throws SQLException {
        return client.count(sql);
    }

    public List<String> strings(String sql) throws SQLException {
        return client.strings(sql);
    }

    @Override
    public void close() throws IOException {
        pool.close();
        postgres.close();
    }
}
