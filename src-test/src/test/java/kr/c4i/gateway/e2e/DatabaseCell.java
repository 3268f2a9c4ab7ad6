package kr.c4i.gateway.e2e;

import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;

import kr.c4i.gateway.ports.LoopbackPorts;

/**
 * A node's or a gateway's PostgreSQL as the tests run it, on its data directory and port: started, killed as a
 * machine dies, and given a streaming standby that is promoted when the primary dies. The server is a cell:
 * a power cut or a failover replaces it.
 */
final class DatabaseCell implements AutoCloseable {

    private final Path dataDirectory;
    private final Path passwordFile;
    private final int port;
    private NodeDatabase current;
    private NodeDatabase standby;

    private DatabaseCell(Path dataDirectory, Path passwordFile, int port) throws IOException {
        this.dataDirectory = dataDirectory;
        this.passwordFile = passwordFile;
        this.port = port;
        this.current = NodeDatabase.start(dataDirectory, passwordFile, port);
    }

    /** @param passwordFile where the superuser's password is kept, found again at a restart */
    static DatabaseCell start(Path dataDirectory, Path passwordFile, int port) throws IOException {
        return new DatabaseCell(dataDirectory, passwordFile, port);
    }

    /** The server serving now: the primary, or the promoted standby after {@link #failover}. */
    NodeDatabase database() {
        return current;
    }

    /** The URL a service is given: the server's own, or with a standby the pair's, PgJDBC finding the primary. */
    String jdbcUrl() {
        return standby == null ? current.jdbcUrl() : "jdbc:postgresql://127.0.0.1:" + port + ",127.0.0.1:"
                + standby.port() + "/postgres?targetServerType=primary&hostRecheckSeconds=1";
    }

    /** What else dies in the same power cut. */
    interface AlsoKilled {
        void kill() throws Exception;
    }

    /**
     * A power cut: every process of the server killed with SIGKILL, with whatever else runs on the machine, then the
     * server started again on the same data directory (crash recovery) and port.
     */
    void powerCut(AlsoKilled machine) throws Exception {
        List<ProcessHandle> postgres = freeze(dataDirectory);
        postgres.forEach(ProcessHandle::destroyForcibly);
        machine.kill();
        awaitDead(postgres);
        // zonky's handle on the dead server: its stop finds nothing to stop, and it lets go of the data directory
        current.close();
        current = NodeDatabase.start(dataDirectory, passwordFile, port);
    }

    /**
     * Gives the server a streaming standby in synchronous replication, as a primary and standby pair on two machines
     * would be; {@link #jdbcUrl} then names both. Before the service that uses it starts.
     */
    void addStandby() throws Exception {
        current.close();
        Files.writeString(dataDirectory.resolve("pg_hba.conf"),
                "host replication postgres 127.0.0.1/32 scram-sha-256\n", StandardOpenOption.APPEND);
        // A copy of the cleanly stopped primary is a base backup: it streams on from the shutdown checkpoint.
        Path copy = dataDirectory.resolveSibling(dataDirectory.getFileName() + "-standby");
        try (Stream<Path> files = Files.walk(dataDirectory)) {
            for (Path file : files.toList()) {
                Path target = copy.resolve(dataDirectory.relativize(file).toString());
                if (Files.isDirectory(file)) {
                    // PostgreSQL refuses a data directory others may read.
                    Files.createDirectories(target, PosixFilePermissions.asFileAttribute(
                            PosixFilePermissions.fromString("rwx------")));
                }
                else {
                    Files.copy(file, target, StandardCopyOption.COPY_ATTRIBUTES);
                }
            }
        }
        current = NodeDatabase.start(dataDirectory, passwordFile, port);
        Files.createFile(copy.resolve("standby.signal"));
        Files.writeString(copy.resolve("postgresql.auto.conf"), "primary_conninfo = 'host=127.0.0.1 port=" + port
                + " user=postgres password=" + current.password() + " application_name=standby'\n",
                StandardOpenOption.APPEND);
        standby = NodeDatabase.start(copy, passwordFile, LoopbackPorts.freeTcp());
        try (var c = current.pool().getConnection(); var s = c.createStatement()) {
            s.execute("ALTER SYSTEM SET synchronous_standby_names = 'standby'");
            s.execute("SELECT pg_reload_conf()");
        }
        await().atMost(Duration.ofSeconds(30)).until(() -> {
            try (var c = current.pool().getConnection(); var s = c.createStatement(); var rs = s.executeQuery(
                    "SELECT count(*) FROM pg_stat_replication WHERE state = 'streaming' AND sync_state = 'sync'")) {
                return rs.next() && rs.getLong(1) == 1;
            }
        });
    }

    /**
     * What a failover kept and when it ended.
     *
     * @param survived the count the standby answered once the primary was dead, before its promotion
     * @param promotedAt when the promotion was done (System.nanoTime)
     */
    record Failover(long survived, long promotedAt) {
    }

    /**
     * The primary dies (SIGKILL, every process of its PostgreSQL) and the standby is promoted, as an operator or a
     * failover manager does; from then on {@link #database} is the promoted standby.
     *
     * @param survivors a count (SQL) the standby answers, read-only, before its promotion: what of it survived
     */
    Failover failover(String survivors) throws Exception {
        NodeDatabase promoted = standby;
        List<ProcessHandle> postgres = freeze(dataDirectory);
        postgres.forEach(ProcessHandle::destroyForcibly);
        awaitDead(postgres);
        long survived;
        try (var c = promoted.pool().getConnection(); var s = c.createStatement()) {
            try (var rs = s.executeQuery(survivors)) {
                rs.next();
                survived = rs.getLong(1);
            }
            s.execute("SELECT pg_promote()");
        }
        long at = System.nanoTime();
        // zonky's handle on the dead primary, let go of after the promotion: its stop takes seconds to give up.
        current.close();
        current = promoted;
        return new Failover(survived, at);
    }

    /**
     * The PostgreSQL server on this data directory, frozen first, so it forks no backend between the listing and a
     * kill (an orphan would hold the shared memory and keep the database from starting again).
     */
    private static List<ProcessHandle> freeze(Path dataDirectory) throws IOException, InterruptedException {
        long pid = Long.parseLong(Files.readAllLines(dataDirectory.resolve("postmaster.pid")).getFirst().strip());
        ProcessHandle postmaster = ProcessHandle.of(pid).orElseThrow();
        new ProcessBuilder("kill", "-STOP", Long.toString(pid)).start().waitFor();
        return Stream.concat(Stream.of(postmaster), postmaster.descendants()).toList();
    }

    /**
     * Until every process is dead: gone, or a zombie. Killed servers' processes belong to init once their postmaster
     * is gone, and init may reap them late; a zombie has let go of everything (shared memory, ports, files) but its
     * entry, and ProcessHandle counts it as alive.
     */
    private static void awaitDead(List<ProcessHandle> processes) {
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(20))
                .until(() -> processes.stream().noneMatch(DatabaseCell::running));
    }

    private static boolean running(ProcessHandle process) {
        if (!process.isAlive()) {
            return false;
        }
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(process.pid()), "stat"));
            // The state follows the command name, which is in parentheses and may hold spaces.
            return stat.charAt(stat.lastIndexOf(')') + 2) != 'Z';
        }
        catch (IOException ex) {
            return false;
        }
    }

    @Override
    public void close() throws IOException {
        current.close();
        // After a failover the standby is the current server, closed above.
        if (standby != null && standby != current) {
            standby.close();
        }
    }
}
