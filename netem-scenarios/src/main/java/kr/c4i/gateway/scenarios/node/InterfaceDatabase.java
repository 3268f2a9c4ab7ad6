package kr.c4i.gateway.scenarios.node;

import java.nio.file.Path;
import java.time.Duration;

import com.zaxxer.hikari.HikariDataSource;

import kr.c4i.gateway.interfacedb.InterfaceDatabaseClient;

/**
 * A node's interface database, reached from the root namespace over its PostgreSQL Unix socket (Unix sockets
 * are not network-namespaced). The harness is the "C4I application": it writes the outbox and reads the inbox
 * through {@link #client()}. Messages of one repetition share a tag, the prefix of their message ids
 * ({@link InterfaceDatabaseClient#insertNumbered}), so each is counted on its own. Times come from the databases'
 * {@code clock_timestamp()} (one machine, one clock), not from polling.
 */
public final class InterfaceDatabase implements AutoCloseable {

    private static final Duration QUERY_TIMEOUT = Duration.ofSeconds(15);

    private final HikariDataSource pool = new HikariDataSource();
    private final InterfaceDatabaseClient client;

    /**
     * @param socketDir the node's {@code --pg-socket-dir}
     * @param port the node's PostgreSQL port (from its READY line)
     * @param password the node's PostgreSQL password (from its password file)
     */
    public InterfaceDatabase(Path socketDir, int port, String password) {
        pool.setJdbcUrl(url(socketDir, port));
        pool.setUsername("postgres");
        pool.setPassword(password);
        pool.setPoolName("netem-" + port);
        // Kept open: the harness polls every 20 ms, and a backend started per poll would load the measured node.
        pool.setMaximumPoolSize(2);
        pool.setMinimumIdle(0);
        // As long as the driver's connectTimeout: a first connection to a busy node's database takes its time. The
        // pool starts without one, so a node that is not up yet fails the call, not the constructor.
        pool.setConnectionTimeout(Duration.ofSeconds(10).toMillis());
        pool.setInitializationFailTimeout(-1);
        client = new InterfaceDatabaseClient(pool, QUERY_TIMEOUT);
    }

    public InterfaceDatabaseClient client() {
        return client;
    }

    /** The JDBC URL through junixsocket's socket factory; pure, so a test can read it. */
    public static String url(Path socketDir, int port) {
        return "jdbc:postgresql://localhost:" + port + "/postgres"
                + "?socketFactory=org.newsclub.net.unix.AFUNIXSocketFactory$FactoryArg"
                + "&socketFactoryArg=" + socketDir.resolve(".s.PGSQL." + port) + "&sslmode=disable"
                + "&connectTimeout=10&socketTimeout=60&ApplicationName=netem-scenarios";
    }

    @Override
    public void close() {
        pool.close();
    }
}
