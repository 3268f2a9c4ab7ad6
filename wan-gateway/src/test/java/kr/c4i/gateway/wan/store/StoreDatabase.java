package kr.c4i.gateway.wan.store;

import java.io.IOException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

import javax.sql.DataSource;

import com.zaxxer.hikari.HikariDataSource;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.flywaydb.core.Flyway;

/** A real PostgreSQL with the gateway's migrations applied, for the store's tests. */
final class StoreDatabase implements AutoCloseable {

    private final EmbeddedPostgres postgres;
    private final HikariDataSource pool;

    StoreDatabase() throws IOException {
        postgres = EmbeddedPostgres.builder().start();
        Flyway.configure().dataSource(postgres.getPostgresDatabase()).locations(RelayStore.MIGRATIONS).load()
                .migrate();
        pool = new HikariDataSource();
        pool.setJdbcUrl(postgres.getJdbcUrl("postgres", "postgres"));
        pool.setMaximumPoolSize(8);
        pool.setConnectionTimeout(5000);
    }

    DataSource dataSource() {
        return pool;
    }

    /**
     * A new database on the same server with the migrations up to {@code version} applied, as a gateway of that
     * version left it; {@link #migrate} brings it up to date.
     */
    DataSource databaseAt(String name, String version) throws SQLException {
        execute("CREATE DATABASE " + name);
        DataSource database = postgres.getDatabase("postgres", name);
        Flyway.configure().dataSource(database).locations(RelayStore.MIGRATIONS).target(version).load().migrate();
        return database;
    }

    static void migrate(DataSource database) {
        Flyway.configure().dataSource(database).locations(RelayStore.MIGRATIONS).load().migrate();
    }

    /** Runs statements, e.g. to empty the table between tests or to add a test's constraint. */
    void execute(String... sql) throws SQLException {
        try (Connection c = pool.getConnection(); Statement s = c.createStatement()) {
            for (String statement : sql) {
                s.execute(statement);
            }
        }
    }

    long count(String sql) throws SQLException {
        return Long.parseLong(strings(sql).getFirst());
    }

    List<String> strings(String sql) throws SQLException {
        List<String> values = new ArrayList<>();
        try (Connection c = pool.getConnection(); PreparedStatement ps = c.prepareStatement(sql);
                ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                values.add(rs.getString(1));
            }
        }
        return values;
    }

    @Override
    public void close() throws IOException {
        pool.close();
        postgres.close();
    }
}
