package kr.c4i.gateway.e2e;

import java.io.IOException;
import java.nio.file.Path;

import javax.sql.DataSource;

import com.zaxxer.hikari.HikariDataSource;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;

import kr.c4i.gateway.tools.embedded.EmbeddedDatabase;

/**
 * A node's interface database as the test JVM runs it: set up as the embedded default sets up its own (durable,
 * password-protected), on the node's port, keeping its data, so it outlives the bridge and comes back from a power
 * cut as it was; and the pool of the node's C4I application.
 */
final class NodeDatabase implements AutoCloseable {

    private final EmbeddedDatabase database;
    private final HikariDataSource pool;

    private NodeDatabase(EmbeddedDatabase database) {
        this.database = database;
        this.pool = new HikariDataSource();
        pool.setJdbcUrl(database.jdbcUrl());
        pool.setUsername(EmbeddedDatabase.USER);
        pool.setPassword(database.password());
        pool.setMaximumPoolSize(4);
        // An application writing through a failover asks the promoted server again within seconds, not after
        // Hikari's 30 s wait for a connection to a server that is gone.
        pool.setConnectionTimeout(2_000);
    }

    /** @param passwordFile where the superuser's password is kept, found again at a restart */
    static NodeDatabase start(Path dataDirectory, Path passwordFile, int port) throws IOException {
        return new NodeDatabase(EmbeddedDatabase.start(dataDirectory, passwordFile,
                EmbeddedPostgres.builder().setCleanDataDirectory(false).setPort(port)));
    }

    /** Without credentials, for the bridge's {@code spring.datasource.url}. */
    String jdbcUrl() {
        return database.jdbcUrl();
    }

    /** {@code jdbcUrl} with one more parameter, after those it has (a failover pair's URL has some already). */
    static String withParameter(String jdbcUrl, String name, String value) {
        return jdbcUrl + (jdbcUrl.contains("?") ? "&" : "?") + name + "=" + value;
    }

    int port() {
        return database.port();
    }

    String password() {
        return database.password();
    }

    /** As the node's C4I application connects. */
    DataSource pool() {
        return pool;
    }

    @Override
    public void close() throws IOException {
        pool.close();
        database.close();
    }
}
