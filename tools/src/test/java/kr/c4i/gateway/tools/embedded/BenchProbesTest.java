package kr.c4i.gateway.tools.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.offset;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;

import javax.sql.DataSource;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The bench's own probes on a real PostgreSQL: the arrival counter and {@code --profile}. */
class BenchProbesTest {

    @TempDir
    Path dir;

    private EmbeddedDatabase start() throws Exception {
        return EmbeddedDatabase.start(dir.resolve("postgres"), dir.resolve("postgres.password"),
                BenchProfile.prepare(EmbeddedPostgres.builder().setCleanDataDirectory(true)));
    }

    private static void execute(DataSource db, String sql) throws SQLException {
        try (Connection c = db.getConnection(); Statement st = c.createStatement()) {
            st.execute(sql);
        }
    }

    /** A table shaped as the inbox is where arrivals are counted: {@code received_at} and its index. */
    private static void createArrivals(DataSource db) throws SQLException {
        execute(db, "CREATE TABLE arrivals (id bigserial PRIMARY KEY, received_at timestamptz NOT NULL)");
        execute(db, "CREATE INDEX arrivals_received_at ON arrivals (received_at)");
    }

    private static void insert(DataSource db, int rows, String receivedAt) throws SQLException {
        execute(db, "INSERT INTO arrivals (received_at) SELECT " + receivedAt + " FROM generate_series(1, " + rows + ")");
    }

    @Test
    void arrivalsCountRowsAsTheyComeAndStillFindOneCommittedLateWithAnEarlierTime() throws Exception {
        try (EmbeddedDatabase postgres = start()) {
            DataSource db = postgres.dataSource();
            createArrivals(db);
            insert(db, 5, "clock_timestamp()");
            InboxProbe.Arrivals arrivals = new InboxProbe.Arrivals(db, "arrivals");
            assertThat(arrivals.rows()).isEqualTo(5);

            insert(db, 10, "clock_timestamp()");
            assertThat(arrivals.reached(16)).isFalse();
            assertThat(arrivals.reached(15)).isTrue();

            // A row stamped before the last one seen, as a transaction that commits late would leave it: the counts
            // since the mark miss it, the whole-table count (at most a second later) does not.
            insert(db, 1, "timestamptz '2000-01-01'");
            assertThat(arrivals.reached(16)).isFalse();
            assertThat(arrivals.rows()).isEqualTo(16);
            assertThat(arrivals.reached(16)).isTrue();
        }
    }

    @Test
    void arrivalsSinceAPhaseBeganLeaveEarlierRowsOutAndStillFindOneCommittedLate() throws Exception {
        try (EmbeddedDatabase postgres = start()) {
            DataSource db = postgres.dataSource();
            createArrivals(db);
            // A warm-up's rows, before the phase.
            insert(db, 50, "timestamptz '2026-12-04 09:00'");
            InboxProbe.Arrivals arrivals = new InboxProbe.Arrivals(db, "arrivals", Instant.parse("2026-12-04T10:00:00Z"));
            assertThat(arrivals.rows()).isZero();

            insert(db, 10, "clock_timestamp()");
            assertThat(arrivals.reached(10)).isTrue();

            // Stamped in the phase but before the last row seen, as a late commit leaves it: the count since the phase
            // began finds it. One stamped before the phase is never counted.
            insert(db, 1, "timestamptz '2026-12-04 10:00:01+00'");
            insert(db, 1, "timestamptz '2026-12-04 09:59:59+00'");
            assertThat(arrivals.rows()).isEqualTo(11);
            assertThat(arrivals.reached(12)).isFalse();
        }
    }

    @Test
    void theSendingNodesShareIsTakenFromTheOutboxRowsSentSinceThePhaseBegan() throws Exception {
        try (EmbeddedDatabase postgres = start()) {
            DataSource db = postgres.dataSource();
            execute(db, "CREATE TABLE outbox (id bigserial PRIMARY KEY, created_at timestamptz NOT NULL, "
                    + "sent_at timestamptz)");
            // Before the phase: left out however slow.
            execute(db, "INSERT INTO outbox (created_at, sent_at) VALUES (timestamptz '2026-11-27 07:00', "
                    + "timestamptz '2026-11-27 08:00')");
            // In the phase: 99 rows sent 4 ms after their insert, one 40 ms after, one not sent yet.
            execute(db, "INSERT INTO outbox (created_at, sent_at) SELECT timestamptz '2026-11-27 09:00' + i * "
                    + "interval '1 ms', timestamptz '2026-11-27 09:00' + i * interval '1 ms' + interval '4 ms' "
                    + "FROM generate_series(1, 99) AS i");
            execute(db, "INSERT INTO outbox (created_at, sent_at) VALUES (timestamptz '2026-11-27 09:01', "
                    + "timestamptz '2026-11-27 09:01' + interval '40 ms'), (timestamptz '2026-11-27 09:01', NULL)");

            InboxProbe.Latency sent = InboxProbe.sentLatency(db, Instant.parse("2026-11-27T09:00:00Z"));
            assertThat(sent.rows()).isEqualTo(100);
            assertThat(sent.p50Millis()).isCloseTo(4.0, offset(0.01));
            assertThat(sent.maxMillis()).isCloseTo(40.0, offset(0.01));
        }
    }

    @Test
    void profileCountsTheStatementsAndCommitsOfThePhasePerMessage() throws Exception {
        try (EmbeddedDatabase postgres = start()) {
            DataSource db = postgres.dataSource();
            execute(db, "CREATE TABLE outbox (id bigserial PRIMARY KEY, body text)");
            // A page in the table and in its index before the checkpoint: a page a statement creates needs no image.
            execute(db, "INSERT INTO outbox (body) VALUES ('before')");
            try (BenchProfile profile = new BenchProfile()) {
                profile.add("node a", db);
                profile.start();
                // After a checkpoint the first change to each page writes the whole page to the WAL.
                execute(db, "CHECKPOINT");
                for (int i = 0; i < 20; i++) {
                    execute(db, "INSERT INTO outbox (body) VALUES ('m" + i + "')");
                }
                // Work for the server on a connection that ends within the phase, as a retired pool connection or an
                // autovacuum worker does: its backend's CPU is counted through the postmaster that reaps it.
                long backend;
                try (Connection busy = db.getConnection(); Statement st = busy.createStatement()) {
                    try (ResultSet rs = st.executeQuery("SELECT pg_backend_pid()")) {
                        rs.next();
                        backend = rs.getLong(1);
                    }
                    st.execute("SELECT count(*) FROM generate_series(1, 3000000)");
                }
                awaitReaped(backend);
                // Two threads of one pool, 100 ms of CPU each and alive at the report: one line, 20 ms per message.
                CountDownLatch burnt = new CountDownLatch(2);
                CountDownLatch reported = new CountDownLatch(1);
                List<Thread> burners = new ArrayList<>();
                for (String name : List.of("burner-1", "burner-2")) {
                    burners.add(Thread.ofPlatform().name(name).start(() -> {
                        burnTenthOfASecond();
                        burnt.countDown();
                        awaitQuietly(reported);
                    }));
                }
                burnt.await();
                StringWriter out = new StringWriter();
                profile.report(new PrintWriter(out), 10);
                reported.countDown();
                for (Thread burner : burners) {
                    burner.join();
                }

                assertThat(out.toString()).contains("profile of node a's database, per message of the measured "
                        + "phase (10 messages)", "busy backends by wait");
                // 20 single-row inserts over 10 messages: two each, each its own transaction.
                // Each insert's WAL (a heap and an index record at least), and the two pages' images after the
                // checkpoint.
                assertThat(out.toString()).containsPattern("\\s2\\.0000\\s+[0-9.]+\\s+[0-9.]+\\s+1\\.0\\s+"
                        + "([1-9]\\d{2,})\\s+0\\.(?!0000)\\d{4}\\s+INSERT INTO outbox \\(body\\) VALUES");
                assertThat(out.toString()).containsPattern("full-page images\\s+(?!0\\.0000)\\d+\\.\\d{4}");
                // Each insert on a connection of its own, which commits a little of its own too: more than two.
                assertThat(out.toString()).containsPattern(
                        "transactions committed as counted so far\\s+([2-9]|[1-9]\\d+)\\.\\d{3}");
                // Of those, the twenty inserts took a transaction id each: two a message (and a tenth more for each the
                // server may take for itself meanwhile, as an autovacuum's analyze); and a hundred bytes of WAL a
                // message at least.
                assertThat(out.toString()).containsPattern(
                        "WAL bytes\\s+[1-9]\\d{2,}\\s+transactions that wrote\\s+2\\.[0-2]000");
                assertThat(out.toString()).containsPattern("\\d+\\.\\d us  machine \\(all processes\\)")
                        .containsPattern("\\d+\\.\\d us  this JVM");
                // The count took the server a tenth of a second at least: tens of thousands of microseconds per message.
                assertThat(out.toString()).containsPattern("\\d{5,}\\.\\d us  node a's PostgreSQL");
                assertThat(out.toString()).containsPattern("of this JVM, by thread")
                        .containsPattern("\\s2\\d{4}\\.\\d us  burner-N\\n");
            }
        }
    }

    /** Waits until a process has exited and its parent has waited for it: a zombie keeps its /proc entry. */
    private static void awaitReaped(long pid) throws InterruptedException {
        Path proc = Path.of("/proc", Long.toString(pid));
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (Files.exists(proc)) {
            assertThat(System.nanoTime()).as("backend %d reaped within 10 s", pid).isLessThan(deadline);
            Thread.sleep(5);
        }
    }

    /** Keeps this thread on the CPU for 100 ms of its own CPU time. */
    private static void burnTenthOfASecond() {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long until = threads.getCurrentThreadCpuTime() + 100_000_000L;
        while (threads.getCurrentThreadCpuTime() < until) {
            Thread.onSpinWait();
        }
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await();
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
    }
}
