package kr.c4i.gateway.scenarios.node;

import java.nio.file.Path;
import java.time.Duration;

import org.postgresql.ds.PGSimpleDataSource;

import kr.c4i.gateway.interfacedb.InterfaceDatabaseClient;

/**
 * A node's interface database, reached from the root namespace over its PostgreSQL Unix socket (Unix sockets
 * are not network-namespaced). The harness is the "C4I application": it writes the outbox and reads the inbox
 * through interface-db-client. Messages of one repetition share a tag, the prefix of their message ids
 * ({@link InterfaceDatabaseClient#insertNumbered}), so each is counted on its own. Times come from the databases'
 * {@code clock_timestamp()} (one machine, one clock), not from polling.
 */
public final class InterfaceDatabase {

    private static final Duration QUERY_TIMEOUT = Duration.ofSeconds(15);

    private InterfaceDatabase() {
    }

    /**
     * A client with a connection per call, so a node that went away and came back needs nothing reset.
     *
     * @param socketDir the node's {@code --pg-socket-dir}
     * @param port the node's PostgreSQL port (from its READY line)
     * @param password the node's PostgreSQL password (from its password file)
     */
    public static InterfaceDatabaseClient client(Path socketDir, int port, String password) {
        PGSimpleDataSource dataSource = new PGSimpleDataSource();
        dataSource.setURL(url(socketDir, port));
        dataSource.setUser("postgres");
        dataSource.setPassword(password);
        return new InterfaceDatabaseClient(dataSource, QUERY_TIMEOUT);
    }

    /** The JDBC URL through junixsocket's socket factory; pure, so a test can read it. */
    public static String url(Path socketDir, int port) {
        return "jdbc:postgresql://localhost:" + port + "/postgres"
                + "?socketFactory=org.newsclub.net.unix.AFUNIXSocketFactory$FactoryArg"
                + "&socketFactoryArg=" + socketDir.resolve(".s.PGSQL." + port) + "&sslmode=disable"
                + "&connectTimeout=10&socketTimeout=60&ApplicationName=netem-scenarios";
    }
}
