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
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

import javax.sql.DataSource;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;

import kr.c4i.gateway.tools.JvmCpu;

/**
 * Where a message's time goes in the database, for {@code bench --profile}: per message of the throughput phase and
 * per node, the statements each kind of query ran (from {@code pg_stat_statements}, commits included), the
 * CPU time of the machine, of this JVM and its threads, and of each node's PostgreSQL server ({@code /proc}), the
 * transactions committed, the WAL written (its insert position) and flushed ({@code pg_stat_wal}), and what the busy
 * backends were waiting on ({@code pg_stat_activity}, sampled every {@value #SAMPLE_MILLIS} ms). The bench's own load
 * generator and probes are counted too, under their own statements, so the bridge's share is read off the rows it ran.
 */
final class BenchProfile implements AutoCloseable {

    private static final long SAMPLE_MILLIS = 10;

    private static final String WAITS = """
            SELECT coalesce(wait_event_type || ':' || wait_event, 'CPU'), left(regexp_replace(query, '\\s+', ' ', 'g'), 48)
              FROM pg_stat_activity
             WHERE backend_type = 'client backend' AND state = 'active' AND pid <> pg_backend_pid()""";

    /** Clock ticks per second of {@code /proc}'s CPU times: 100 on every Linux this runs on. */
    private static final double TICKS_PER_SECOND = 100;

    /** The most thread groups printed; the rest are summed in one line. */
    private static final int THREAD_GROUPS = 14;

    private record Node(String name, DataSource database) {
    }

    /** A node's WAL insert position and next transaction id: exact, where the statistics views lag (see report). */
    private record Positions(String walInsert, String nextXid) {
    }

    private final Map<String, Long> cpuAtStart = new LinkedHashMap<>();
    private final Map<String, Long> threadsAtStart = new LinkedHashMap<>();
    private final List<Node> nodes = new ArrayList<>();
    private final Map<String, Positions> positionsAtStart = new LinkedHashMap<>();
    private final Map<String, Map<String, Long>> waits = new TreeMap<>();
    private volatile boolean sampling;
    private Thread sampler;

    /** What a node's database needs at start for the statement counts. */
    static EmbeddedPostgres.Builder prepare(EmbeddedPostgres.Builder builder) {
        return builder.setServerConfig("shared_preload_libraries", "pg_stat_statements")
                .setServerConfig("pg_stat_statements.track_utility", "on").setServerConfig("track_wal_io_timing", "on");
    }

    void add(String name, DataSource database) {
        nodes.add(new Node(name, database));
    }

    /** Zeroes the counters and starts sampling wait events. */
    void start() throws SQLException {
        for (Node node : nodes) {
            try (Connection c = node.database().getConnection(); Statement st = c.createStatement()) {
                st.execute("CREATE EXTENSION IF NOT EXISTS pg_stat_statements");
                st.execute("SELECT pg_stat_statements_reset()");
                st.execute("SELECT pg_stat_reset()");
                st.execute("SELECT pg_stat_reset_shared('wal')");
                try (ResultSet rs = st.executeQuery("SELECT pg_current_wal_insert_lsn()::text, "
                        + "pg_snapshot_xmax(pg_current_snapshot())::text")) {
                    rs.next();
                    positionsAtStart.put(node.name(), new Positions(rs.getString(1), rs.getString(2)));
                }
            }
            waits.put(node.name(), new TreeMap<>());
        }
        cpuAtStart.putAll(cpuTicks());
        threadsAtStart.putAll(JvmCpu.threadNanos());
        sampling = true;
        sampler = Thread.ofPlatform().name("bench-profile").daemon().start(this::sample);
    }

    /**
     * CPU time used so far, in clock ticks: the whole machine's busy time, this JVM's, and each node's PostgreSQL
     * server with all its processes (found as the children of the checkpointer's parent, the postmaster). A backend
     * or autovacuum worker that ended is counted through the postmaster, which reaps it: without that, a connection
     * closed during the phase took its whole life's CPU out of the difference (node a's PostgreSQL showed 1.2 µs a
     * message while the machine spent 66 µs outside this JVM, 2026-12-04).
     */
    private Map<String, Long> cpuTicks() throws SQLException {
        Map<String, Long> ticks = new LinkedHashMap<>();
        ticks.put("machine (all processes)", machineBusyTicks());
        ticks.put("this JVM (bridges, brokers, load generator)", processTicks(ProcessHandle.current().pid()));
        for (Node node : nodes) {
            long postmaster = postmaster(node.database());
            long sum = processTicks(postmaster) + reapedChildrenTicks(postmaster);
            for (ProcessHandle child : ProcessHandle.of(postmaster).map(h -> h.children().toList()).orElse(List.of())) {
                sum += processTicks(child.pid());
            }
            ticks.put(node.name() + "'s PostgreSQL", sum);
        }
        return ticks;
    }

    private static long postmaster(DataSource db) throws SQLException {
        try (Connection c = db.getConnection(); Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT pid FROM pg_stat_activity WHERE backend_type = 'checkpointer'")) {
            if (!rs.next()) {
                return -1;
            }
            long checkpointer = rs.getLong(1);
            return ProcessHandle.of(checkpointer).flatMap(ProcessHandle::parent).map(ProcessHandle::pid).orElse(-1L);
        }
    }

    /** utime + stime of a process from {@code /proc/<pid>/stat}, 0 when it is gone or unreadable. */
    private static long processTicks(long pid) {
        return statTicks(pid, 11);
    }

    /** cutime + cstime: the CPU of the children a process has waited for, that is, of those that ended. */
    private static long reapedChildrenTicks(long pid) {
        return statTicks(pid, 13);
    }

    private static long statTicks(long pid, int userField) {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
            // Fields after the command name, which is in parentheses and may hold spaces: utime and stime are 14 and
            // 15, cutime and cstime 16 and 17.
            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return Long.parseLong(fields[userField]) + Long.parseLong(fields[userField + 1]);
        }
        catch (IOException | RuntimeException ex) {
            return 0;
        }
    }

    private static long machineBusyTicks() {
        try {
            // "cpu user nice system idle iowait irq softirq steal ...": busy is all but idle, iowait and steal.
            String[] cpu = Files.readAllLines(Path.of("/proc/stat")).getFirst().trim().split("\\s+");
            long busy = 0;
            for (int i = 1; i < cpu.length && i <= 7; i++) {
                if (i != 4 && i != 5) {
                    busy += Long.parseLong(cpu[i]);
                }
            }
            return busy;
        }
        catch (IOException | RuntimeException ex) {
            return 0;
        }
    }

    private void sample() {
        Map<Node, Connection> connections = new LinkedHashMap<>();
        try {
            for (Node node : nodes) {
                connections.put(node, node.database().getConnection());
            }
            while (sampling) {
                for (Map.Entry<Node, Connection> entry : connections.entrySet()) {
                    Map<String, Long> counts = waits.get(entry.getKey().name());
                    try (Statement st = entry.getValue().createStatement(); ResultSet rs = st.executeQuery(WAITS)) {
                        synchronized (counts) {
                            counts.merge("(samples)", 1L, Long::sum);
                            while (rs.next()) {
                                counts.merge(rs.getString(1) + " | " + rs.getString(2), 1L, Long::sum);
                            }
                        }
                    }
                }
                TimeUnit.MILLISECONDS.sleep(SAMPLE_MILLIS);
            }
        }
        catch (SQLException ex) {
            System.err.println("bench --profile: wait-event sampling stopped: " + ex.getMessage());
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
        finally {
            for (Connection c : connections.values()) {
                try {
                    c.close();
                }
                catch (SQLException ignored) {
                    // the sampler's own connection: nothing to keep
                }
            }
        }
    }

    /** Stops sampling and prints the counts per message of the phase. */
    void report(PrintWriter out, long messages) throws SQLException, InterruptedException {
        close();
        Map<String, Long> cpuAtEnd = cpuTicks();
        out.printf("%nCPU per message of the measured phase (%d messages), from /proc:%n", messages);
        cpuAtEnd.forEach((what, ticks) -> out.printf("  %8.1f us  %s%n",
                (ticks - cpuAtStart.getOrDefault(what, ticks)) / TICKS_PER_SECOND * 1e6 / messages, what));
        reportThreads(out, messages);
        for (Node node : nodes) {
            out.printf("%nprofile of %s's database, per message of the measured phase (%d messages)%n",
                    node.name(), messages);
            try (Connection c = node.database().getConnection(); Statement st = c.createStatement()) {
                try (ResultSet rs = st.executeQuery("""
                        SELECT xact_commit, xact_rollback FROM pg_stat_database WHERE datname = current_database()""")) {
                    rs.next();
                    out.printf("  transactions committed as counted so far %8.3f   rolled back %8.4f%n",
                            rs.getLong(1) / (double) messages, rs.getLong(2) / (double) messages);
                }
                // A busy backend or worker hands its counts to the statistics views at most once a second, an idle one
                // within ten, so over a phase of seconds those views fall short (node b's WAL read 1,196 bytes a
                // message and the reference subscriber's apply worker 707, 2026-12-04): the WAL insert position and
                // the transaction id counter are exact.
                Positions atStart = positionsAtStart.get(node.name());
                try (PreparedStatement ps = c.prepareStatement("SELECT pg_wal_lsn_diff(pg_current_wal_insert_lsn(), "
                        + "?::pg_lsn), pg_snapshot_xmax(pg_current_snapshot())::text::bigint - ?::bigint")) {
                    ps.setString(1, atStart.walInsert());
                    ps.setString(2, atStart.nextXid());
                    try (ResultSet rs = ps.executeQuery()) {
                        rs.next();
                        out.printf("  WAL bytes %8.0f   transactions that wrote %8.4f   (exact)%n",
                                rs.getDouble(1) / messages, rs.getLong(2) / (double) messages);
                    }
                }
                try (ResultSet rs = st.executeQuery(
                        "SELECT wal_records, wal_fpi, wal_write, wal_sync, wal_sync_time FROM pg_stat_wal")) {
                    rs.next();
                    out.printf("  WAL as counted so far: records %8.2f   full-page images %7.4f   writes %8.4f   "
                            + "flushes (fsync) %8.4f   flush time %6.3f ms%n", rs.getLong(1) / (double) messages,
                            rs.getLong(2) / (double) messages, rs.getLong(3) / (double) messages,
                            rs.getLong(4) / (double) messages, rs.getDouble(5) / messages);
                }
                // A statement's WAL shows what a row costs the disk, and full-page images what follows a checkpoint.
                out.println("  statements (calls per message, mean ms, total s, rows per call, WAL bytes per message, "
                        + "full-page images per message):");
                try (ResultSet rs = st.executeQuery("""
                        SELECT calls, mean_exec_time, total_exec_time, rows, wal_bytes, wal_fpi,
                               left(regexp_replace(query, '\\s+', ' ', 'g'), 90)
                          FROM pg_stat_statements
                         WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())
                           AND query NOT LIKE '%pg_stat%'
                         ORDER BY total_exec_time DESC LIMIT 14""")) {
                    while (rs.next()) {
                        long calls = rs.getLong(1);
                        out.printf("    %8.4f  %7.3f  %7.2f  %8.1f  %6.0f  %7.4f  %s%n", calls / (double) messages,
                                rs.getDouble(2), rs.getDouble(3) / 1000, rs.getLong(4) / (double) Math.max(1, calls),
                                rs.getDouble(5) / messages, rs.getLong(6) / (double) messages, rs.getString(7));
                    }
                }
            }
            Map<String, Long> counts = waits.get(node.name());
            long samples = counts.getOrDefault("(samples)", 1L);
            out.printf("  busy backends by wait (share of %d samples every %d ms):%n", samples, SAMPLE_MILLIS);
            counts.entrySet().stream().filter(e -> !e.getKey().equals("(samples)"))
                    .sorted(Map.Entry.<String, Long>comparingByValue().reversed()).limit(10)
                    .forEach(e -> out.printf("    %5.1f%%  %s%n", 100.0 * e.getValue() / samples, e.getKey()));
        }
        out.flush();
    }

    /** This JVM's share by thread: the busiest groups, the rest in one line. */
    private void reportThreads(PrintWriter out, long messages) {
        Map<String, Long> used = new LinkedHashMap<>();
        JvmCpu.threadNanos().forEach((name, nanos) -> used.put(name, nanos - threadsAtStart.getOrDefault(name, 0L)));
        List<Map.Entry<String, Long>> busiest = used.entrySet().stream().filter(e -> e.getValue() > 0)
                .sorted(Map.Entry.<String, Long>comparingByValue().reversed()).toList();
        out.printf("  of this JVM, by thread (numbers in names as N; threads of native libraries and threads that "
                + "ended are not listed):%n");
        busiest.stream().limit(THREAD_GROUPS).forEach(e -> out.printf("    %8.1f us  %s%n",
                e.getValue() / 1e3 / messages, e.getKey()));
        long rest = busiest.stream().skip(THREAD_GROUPS).mapToLong(Map.Entry::getValue).sum();
        if (rest > 0) {
            out.printf("    %8.1f us  %d other threads%n", rest / 1e3 / messages, busiest.size() - THREAD_GROUPS);
        }
    }

    @Override
    public void close() throws InterruptedException {
        sampling = false;
        if (sampler != null) {
            sampler.join();
        }
    }
}
