package kr.c4i.gateway.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

import kr.c4i.gateway.core.transport.TransportKind;
import kr.c4i.gateway.interfacedb.RawOutboxRow;
import kr.c4i.gateway.kmtf.text.KmtfMessageBuilder;

/**
 * The bridge's delivery contract, end to end, whichever the transport: real bridge processes from
 * the executable jar and real PostgreSQL interface databases. Subclasses pick the transport.
 */
abstract class EndToEndContract {

    /**
     * A node's start, up to its health UP. Under CI beside the container suites both nodes of a fork's first start
     * (which also records its AOT cache) took 93 and 98 s (2026-12-03), over the 90 s this was.
     */
    static final Duration STARTUP = Duration.ofMinutes(4);
    private static final String SENT_IDS = "SELECT message_id FROM outbox WHERE sent_at IS NOT NULL ORDER BY 1";
    /** PostgreSQL's SQLSTATE for a unique violation: the row is there already. */
    private static final String UNIQUE_VIOLATION = "23505";
    private static final String INBOX_COUNT = "SELECT count(*) FROM inbox";
    private static final String SENT_COUNT = "SELECT count(*) FROM outbox WHERE sent_at IS NOT NULL";
    private static final String INBOX_IDS = "SELECT message_id FROM inbox ORDER BY 1";

    /** The most messages a stream that a test ends writes: a minute's worth here, and a bound if it never ends it. */
    private static final int STREAM_MAX = 20_000;

    /** Kept when a case fails: its nodes' logs are there. */
    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    Path dir;

    Cluster cluster;

    /** {@code jms} or {@code dds}: the value of gateway.node.transport. */
    abstract TransportKind transport();

    @BeforeEach
    void createCluster() throws Exception {
        cluster = new Cluster(dir, transport(), 2);
    }

    @AfterEach
    void closeCluster() throws Exception {
        cluster.close();
    }

    static String message(String type, int serial) {
        return new KmtfMessageBuilder().classification("UNCLASSIFIED").msgid(type, "1CORPS", Integer.toString(serial))
                .set("DTG", "211430ZNOV2026").freeText("NARR", "ROUTE CLEAR / NO CONTACT " + serial).build().render();
    }

    /** Inserts messages in the background, a few at a time, like an application at work. */
    CompletableFuture<Void> produce(int count) {
        return stream(count).done().thenApply(written -> null);
    }

    /** As {@link #produce}, up to {@code max} messages, or fewer if the test ends the stream earlier. */
    Stream stream(int max) {
        return stream(max, (type, i) -> cluster.insertOutbox("a", type, message(type, i)));
    }

    /**
     * As {@link #produce}, the application carrying on through a failover of a's database: a write that fails is
     * written again once a primary answers, and one found written already (its commit reached the standby before
     * the primary died, its answer did not) is done.
     */
    CompletableFuture<Void> produceThroughFailover(int count) {
        return stream(count, (type, i) -> insertAgainUntilWritten(RawOutboxRow.of("a-" + i, type, "ROUTINE",
                message(type, i), null))).done().thenApply(written -> null);
    }

    /** How the application writes its {@code i}-th message, of {@code type}, into a's outbox. */
    private interface Write {
        void write(String type, int i) throws Exception;
    }

    private static Stream stream(int max, Write write) {
        Stream stream = new Stream(max);
        stream.done.completeAsync(() -> {
            try {
                int i = 0;
                for (; i < stream.end; i++) {
                    write.write(i % 2 == 0 ? "SITREP" : "SPOTREP", i);
                    stream.written = i + 1;
                    if (i % 20 == 0) {
                        // The stimulus, not a wait: pacing keeps the stream going while a test kills a node.
                        TimeUnit.MILLISECONDS.sleep(5);
                    }
                }
                return i;
            }
            catch (Exception ex) {
                throw new IllegalStateException(ex);
            }
        });
        return stream;
    }

    /**
     * Messages written into a's outbox in the background; {@link #done} gives how many once the stream ends, at its
     * maximum or where {@link #endAfter} put its end.
     */
    static final class Stream {

        private final CompletableFuture<Integer> done = new CompletableFuture<>();
        private volatile int end;
        private volatile int written;

        private Stream(int max) {
            this.end = max;
        }

        /** Ends the stream {@code more} messages after those written so far, or at its maximum if that comes first. */
        void endAfter(int more) {
            this.end = Math.min(this.end, this.written + more);
        }

        CompletableFuture<Integer> done() {
            return this.done;
        }
    }

    private void insertAgainUntilWritten(RawOutboxRow row) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (true) {
            try {
                cluster.client("a").insertRaw(row);
                return;
            }
            catch (SQLException ex) {
                if (UNIQUE_VIOLATION.equals(ex.getSQLState())) {
                    return;
                }
                if (System.nanoTime() - deadline > 0) {
                    throw ex;
                }
                // An application's retry, not a guess at when the standby is promoted.
                TimeUnit.MILLISECONDS.sleep(100);
            }
        }
    }

    void assertExactlyOnce(int expected) throws Exception {
        await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(500))
                .until(() -> cluster.count("b", "SELECT count(*) FROM inbox") >= expected);
        List<String> sent = cluster.strings("a", SENT_IDS);
        assertThat(sent).hasSize(expected);
        assertThat(cluster.strings("b", INBOX_IDS)).isEqualTo(sent);
        assertThat(cluster.count("a", "SELECT count(*) FROM outbox WHERE sent_at IS NULL")).isZero();
    }

    /**
     * How long a count took to grow past what it was at a fault, measured from {@code since}.
     *
     * @param counted what was counted, e.g. "in b's inbox"
     */
    record Resumed(long atFault, String counted, Duration after) {
    }

    /** How long from {@code since} (System.nanoTime) until b's inbox holds more than {@code count} messages. */
    Resumed untilInboxGrows(long count, long since) {
        return untilGrows("b", INBOX_COUNT, "in b's inbox", count, since);
    }

    /** How long from {@code since} (System.nanoTime) until {@code sql} on node {@code id} counts more than {@code count}. */
    Resumed untilGrows(String id, String sql, String counted, long count, long since) {
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(50))
                .until(() -> cluster.count(id, sql) > count);
        return new Resumed(count, counted, Duration.ofNanos(System.nanoTime() - since));
    }

    /**
     * A line of the failover experiment (docs/results.md), once the case has passed: nothing lost or duplicated. How
     * far the stream had got says what the next message was: near its end, the survivors had little left to send but
     * what the dead one had not acknowledged.
     */
    void report(String fault, Resumed resumed) {
        System.out.printf("FAILOVER %s | %s | %d %s at the fault | resumed after %d ms (polled every 50 ms)"
                + " | lost 0 | duplicated 0%n", transport().label(), fault, resumed.atFault(), resumed.counted(),
                resumed.after().toMillis());
    }

    /** A counter's value, summed over its tags, as the node's Prometheus endpoint shows it. */
    static double counted(NodeProcess node, String series) throws Exception {
        return node.get("/actuator/prometheus").body().lines().filter(line -> line.startsWith(series))
                .mapToDouble(line -> Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1))).sum();
    }

    /**
     * A line of the failover experiment, as {@link #report(String, Resumed)}, with when a FLASH written into a's outbox
     * at the fault reached b's inbox: a message that had to take the way left after the fault.
     */
    void report(String fault, Resumed resumed, Duration flash) {
        System.out.printf("FAILOVER %s | %s | %d %s at the fault | resumed after %d ms, a FLASH written at the fault"
                + " reached b after %d ms (polled every 50 ms) | lost 0 | duplicated 0%n", transport().label(), fault,
                resumed.atFault(), resumed.counted(), resumed.after().toMillis(), flash.toMillis());
    }

    /** What a fault cost: when b's inbox grew again, and when a FLASH written at the fault arrived there. */
    record Fault(Resumed resumed, Duration flash) {
    }

    /** Kills {@code victim} mid-stream and writes a FLASH ({@code tag}, {@code serial}) into a's outbox at once. */
    private Fault kill(NodeProcess victim, String tag, int serial) throws Exception {
        long killed = System.nanoTime();
        victim.kill();
        long atKill = cluster.count("b", INBOX_COUNT);
        String flash = writeFlash(tag, serial);
        return new Fault(untilInboxGrows(atKill, killed), untilInInbox(flash, killed));
    }

    /** Writes a FLASH into a's outbox, its {@code serial} beyond the stream's, and returns its message id. */
    String writeFlash(String tag, int serial) throws SQLException {
        String id = "a-flash-" + tag;
        cluster.client("a").insertRaw(RawOutboxRow.of(id, "SITREP", "FLASH", message("SITREP", serial), null));
        return id;
    }

    /** How long from {@code since} (System.nanoTime) until message {@code id} is in b's inbox. */
    Duration untilInInbox(String id, long since) {
        await().alias(id + " in b's inbox").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(50))
                .until(() -> cluster.count("b", "SELECT count(*) FROM inbox WHERE message_id = '" + id + "'") == 1);
        return Duration.ofNanos(System.nanoTime() - since);
    }

    /**
     * A node on two machines (here two processes each): a's pair of bridges share a's interface database and both
     * publish, b's pair share b's and both receive. One of a's and one of b's are killed with SIGKILL mid-stream, at
     * different times; the other of each carries on alone, and every message is in b's inbox once. A FLASH written
     * at each kill tells when a message has got through after it.
     *
     * <p>Over JMS each process embeds one of its node's two brokers, the first process's the primary, and the other
     * node's bridge is given both. The process killed is the one whose broker is active, the primary: the node's
     * active bridge and its broker primary die together. The backup's broker takes over with the primary's journal,
     * and the node's surviving process and the other node's bridge follow it. Over DDS either process will do: a's
     * first and b's second go.
     */
    @Test
    void aNodesPairOfBridgesSurvivesTheKillOfEitherAndDeliversEveryMessageOnce() throws Exception {
        cluster.pair("a");
        cluster.pair("b");
        List<NodeProcess> firsts = cluster.startTogether("b", "a");
        NodeProcess b2 = cluster.startPartner("b").awaitUp(STARTUP);
        NodeProcess a2 = cluster.startPartner("a").awaitUp(STARTUP);
        boolean jms = transport() == TransportKind.JMS;
        NodeProcess aVictim = firsts.getLast();
        NodeProcess bVictim = jms ? firsts.getFirst() : b2;
        // A stream that goes on until a's bridge is dead, however long the checks before take on a busy machine,
        // and for 1,500 messages after it, so both kills fall in mid-stream.
        Stream stream = stream(STREAM_MAX);
        await().atMost(Duration.ofSeconds(60)).until(() -> cluster.count("b", INBOX_COUNT) > 300);
        // Both of each pair at work before either dies.
        await().atMost(Duration.ofSeconds(30)).until(() -> counted(a2, "gateway_outbox_published_total{") > 0
                && counted(b2, "gateway_inbox_inserted_total{") > 0 && counted(firsts.getFirst(),
                        "gateway_inbox_inserted_total{") > 0);
        if (jms) {
            // What an operator checks before taking a machine down: each backup broker holds its primary's journal.
            // Killed before that, a primary takes what it held with it, and its backup cannot take over.
            await().alias("both backup brokers synchronized").atMost(Duration.ofMinutes(1))
                    .pollInterval(Duration.ofMillis(200)).untilAsserted(() -> {
                        NodeProcess.assertSynchronizedBackup(a2.get("/actuator/health").body(), "transport");
                        NodeProcess.assertSynchronizedBackup(b2.get("/actuator/health").body(), "transport");
                    });
        }
        Fault a = kill(aVictim, "a-killed", STREAM_MAX);
        stream.endAfter(1500);
        await().atMost(Duration.ofSeconds(60)).until(() -> cluster.count("b", INBOX_COUNT)
                > a.resumed().atFault() + 300);
        Fault b = kill(bVictim, "b-killed", STREAM_MAX + 1);
        int written = stream.done().get(120, TimeUnit.SECONDS);

        assertExactlyOnce(written + 2);
        if (jms) {
            report("the sending node's active bridge and broker primary (one process) killed, its backup's broker "
                    + "taking over", a.resumed(), a.flash());
            report("the receiving node's active bridge and broker primary (one process) killed, its backup's broker "
                    + "taking over", b.resumed(), b.flash());
        }
        else {
            report("one of the sending node's pair of bridges killed", a.resumed(), a.flash());
            report("one of the receiving node's pair of bridges killed", b.resumed(), b.flash());
        }
    }

    @Test
    void messagesInTheOutboxOfAArriveExactlyOnceInTheInboxOfB() throws Exception {
        cluster.startTogether("b", "a");
        produce(2000).get(60, TimeUnit.SECONDS);

        assertExactlyOnce(2000);
        assertThat(cluster.strings("b", "SELECT DISTINCT origin_node || ' ' || transport FROM inbox"))
                .containsExactly("a " + transport().label());
    }

    @Test
    void receivingNodeKilledMidStreamLosesAndDuplicatesNothing() throws Exception {
        NodeProcess b = cluster.startTogether("b", "a").getFirst();
        CompletableFuture<Void> producing = produce(3000);
        await().atMost(Duration.ofSeconds(60)).until(() -> cluster.count("b", "SELECT count(*) FROM inbox") > 300);
        b.kill();
        long atKill = cluster.count("b", "SELECT count(*) FROM inbox");
        await().alias("nothing arrives while b is dead").during(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(10))
                .until(() -> cluster.count("b", "SELECT count(*) FROM inbox") == atKill);
        cluster.start("b").awaitUp(STARTUP);
        producing.get(120, TimeUnit.SECONDS);

        assertExactlyOnce(3000);
    }

    /**
     * A power cut at the receiver: its bridge and its PostgreSQL die together mid-stream. Whatever b had
     * acknowledged (JMS commit, DDS receipt) the sender will not send again, so anything b's database had
     * not made durable by then would be lost; nothing may be.
     */
    @Test
    void receivingNodeAndItsDatabaseKilledTogetherMidStreamLoseAndDuplicateNothing() throws Exception {
        cluster.startTogether("b", "a");
        CompletableFuture<Void> producing = produce(3000);
        await().atMost(Duration.ofSeconds(60)).until(() -> cluster.count("b", "SELECT count(*) FROM inbox") > 500);
        cluster.powerCut("b");
        cluster.start("b").awaitUp(STARTUP);
        producing.get(120, TimeUnit.SECONDS);

        // Neither transport sends again what b acknowledged: what its database did not keep stays missing.
        await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofSeconds(1)).untilAsserted(() -> {
            List<String> missing = new ArrayList<>(cluster.strings("a", SENT_IDS));
            missing.removeAll(new HashSet<>(cluster.strings("b", INBOX_IDS)));
            assertThat(missing).as("%d sent by a, acknowledged by b, not in b's inbox", missing.size()).isEmpty();
        });
        assertExactlyOnce(3000);
    }

    /**
     * The receiver's database as a primary and a synchronous streaming standby; mid-stream the primary dies
     * (SIGKILL) and the standby is promoted. b's bridge keeps running, reaches the new primary through its
     * multi-host URL, and nothing is lost or duplicated: what b acknowledged was on the standby's disk too.
     */
    @Test
    void receivingDatabaseFailsOverToItsStandbyMidStreamAndLosesAndDuplicatesNothing() throws Exception {
        cluster.standby("b");
        cluster.startTogether("b", "a");
        CompletableFuture<Void> producing = produce(3000);
        await().atMost(Duration.ofSeconds(60)).until(() -> cluster.count("b", "SELECT count(*) FROM inbox") > 500);
        long killed = System.nanoTime();
        // What the standby has of b's inbox when the primary dies: what b had committed; the rest must come through
        // the bridge after the promotion.
        DatabaseCell.Failover failover = cluster.failover("b", INBOX_COUNT);
        assertThat(failover.survived()).as("in b's inbox at the failover").isLessThan(3000);
        Resumed resumed = untilInboxGrows(failover.survived(), failover.promotedAt());
        producing.get(120, TimeUnit.SECONDS);

        assertExactlyOnce(3000);
        // The promotion's own time is the harness's (a failover manager's), not the bridge's: from it, then.
        report("receiving database's primary killed, its standby promoted " + Duration.ofNanos(
                failover.promotedAt() - killed).toMillis() + " ms later; time from the promotion", resumed);
    }

    /**
     * The sender's database as a primary and a synchronous streaming standby; mid-stream, with the application
     * writing and a's bridge claiming and sending, the primary dies (SIGKILL) and the standby is promoted. The
     * application and the bridge carry on on the standby; a row the bridge had handed to the transport whose mark
     * died with the primary is sent again, and b's inbox keeps it once.
     */
    @Test
    void sendingDatabaseFailsOverToItsStandbyMidStreamAndLosesAndDuplicatesNothing() throws Exception {
        cluster.standby("a");
        cluster.startTogether("b", "a");
        CompletableFuture<Void> producing = produceThroughFailover(3000);
        await().atMost(Duration.ofSeconds(60)).until(() -> cluster.count("b", "SELECT count(*) FROM inbox") > 500);
        long killed = System.nanoTime();
        // What the standby has marked sent when the primary dies; the bridge resumes when it marks the next.
        DatabaseCell.Failover failover = cluster.failover("a", SENT_COUNT);
        assertThat(failover.survived()).as("rows of a's outbox marked sent at the failover").isLessThan(3000);
        Resumed resumed = untilGrows("a", SENT_COUNT, "marked sent in a's outbox", failover.survived(),
                failover.promotedAt());
        producing.get(120, TimeUnit.SECONDS);

        assertExactlyOnce(3000);
        report("sending database's primary killed, its standby promoted " + Duration.ofNanos(
                failover.promotedAt() - killed).toMillis() + " ms later; time from the promotion", resumed);
    }

    @Test
    void sendingNodeKilledMidStreamLosesAndDuplicatesNothing() throws Exception {
        NodeProcess a = cluster.startTogether("b", "a").getLast();
        CompletableFuture<Void> producing = produce(3000);
        await().atMost(Duration.ofSeconds(60)).until(() -> cluster.count("b", "SELECT count(*) FROM inbox") > 300);
        a.kill();
        // The stimulus, not a wait: a stays down a while the application keeps writing, a backlog to catch up on.
        TimeUnit.SECONDS.sleep(2);
        cluster.start("a").awaitUp(STARTUP);
        producing.get(120, TimeUnit.SECONDS);

        assertExactlyOnce(3000);
    }

    @Test
    void badRowsAreQuarantinedWithReasonsWhileGoodRowsAroundThemFlow() throws Exception {
        NodeProcess a = cluster.startTogether("b", "a").getLast();
        cluster.insertOutbox("a", "SITREP", message("SITREP", 1));
        cluster.insertOutbox("a", "SITREP", "MSGID/SITREP/1CORPS/7");
        cluster.insertOutbox("a", "SITREP", message("SITREP", 2));
        cluster.insertOutbox("a", "NOSUCHTYPE", "MSGID/NOSUCHTYPE/X/1//");
        cluster.insertOutbox("a", "SITREP", message("SITREP", 3) + "\nRMKS/" + "X".repeat(70_000) + "//");
        cluster.insertOutbox("a", "SITREP", message("SITREP", 4));

        await().atMost(Duration.ofSeconds(60)).until(() -> cluster.count("b", "SELECT count(*) FROM inbox") == 3
                && cluster.count("a", "SELECT count(*) FROM quarantine") == 3);
        assertThat(cluster.strings("a", "SELECT reason_kind FROM quarantine ORDER BY outbox_id"))
                .containsExactly("unterminated-set", "unknown-type", "oversize");
        assertThat(cluster.count("a", "SELECT count(*) FROM outbox")).isEqualTo(3);
        assertThat(cluster.strings("b", "SELECT convert_from(body, 'UTF8') FROM inbox ORDER BY created_at"))
                .containsExactly(message("SITREP", 1), message("SITREP", 2), message("SITREP", 4));
        assertThat(a.get("/actuator/prometheus").body()).contains("gateway_outbox_quarantined_total{")
                .contains("reason=\"oversize\"");
    }

    /**
     * b is cleared CONFIDENTIAL, c SECRET; both subscribe to everything. No SECRET message reaches b's inbox (over
     * DDS the topic brings it to b's reader, and b refuses it into its inbound quarantine); the rest reach both; a
     * quarantines and counts each refusal.
     */
    @Test
    void secretMessagesNeverReachANodeClearedConfidentialWhileTheRestArrive() throws Exception {
        cluster.close();
        cluster = new Cluster(dir.resolve("cleared"), transport(), 3);
        cluster.clearance("b", "CONFIDENTIAL");
        cluster.clearance("c", "SECRET");
        NodeProcess a = cluster.startTogether("b", "c", "a").getLast();
        List<String> levels = List.of("UNCLASSIFIED", "CONFIDENTIAL", "SECRET//REL TO USA, KOR");
        for (int i = 0; i < 30; i++) {
            cluster.insertOutbox("a", "SITREP", new KmtfMessageBuilder().classification(levels.get(i % 3))
                    .msgid("SITREP", "1CORPS", Integer.toString(i)).set("DTG", "211430ZNOV2026")
                    .freeText("NARR", "ROUTE CLEAR " + i).build().render());
        }

        await().atMost(Duration.ofSeconds(60)).until(() -> cluster.count("c", "SELECT count(*) FROM inbox") == 30
                && cluster.count("b", "SELECT count(*) FROM inbox") == 20);
        assertThat(cluster.strings("b", "SELECT DISTINCT classification FROM inbox ORDER BY 1"))
                .containsExactly("CONFIDENTIAL", "UNCLASSIFIED");
        assertThat(cluster.count("a", "SELECT count(*) FROM outbox WHERE sent_at IS NULL")).isZero();
        assertThat(cluster.strings("a", "SELECT DISTINCT reason_kind || ': ' || reason FROM quarantine"))
                .containsExactly("clearance-exceeded: destination b is cleared CONFIDENTIAL; the message is SECRET "
                        + "('SECRET//REL TO USA, KOR'): not sent there");
        assertThat(cluster.count("a", "SELECT count(*) FROM quarantine")).isEqualTo(10);
        assertThat(a.get("/actuator/prometheus").body()).containsPattern(
                "gateway_clearance_refused_total\\{[^}]*destination=\"b\"[^}]*\\} 10\\.0");
        if (transport() == TransportKind.DDS) {
            // The topic is multicast: b's reader got the SECRET samples too; b kept them out of its inbox.
            await().atMost(Duration.ofSeconds(30)).until(() -> cluster.count("b",
                    "SELECT count(*) FROM inbound_quarantine WHERE reason_kind = 'clearance-exceeded'") == 10);
        }
        else {
            assertThat(cluster.count("b", "SELECT count(*) FROM inbound_quarantine")).as("never sent to b").isZero();
        }
        assertThat(cluster.count("b", "SELECT count(*) FROM inbox")).isEqualTo(20);
    }

    @Test
    void healthAndPrometheusEndpointsReportDatabaseBrokerAndFlow() throws Exception {
        List<NodeProcess> started = cluster.startTogether("b", "a");
        NodeProcess b = started.getFirst();
        NodeProcess a = started.getLast();
        produce(50).get(30, TimeUnit.SECONDS);
        await().atMost(Duration.ofSeconds(60)).until(() -> cluster.count("b", "SELECT count(*) FROM inbox") == 50);

        String health = a.get("/actuator/health").body();
        assertThat(health).contains("\"db\"").contains("\"transport\"").contains("\"outbox\"").contains("\"kind\":\"" + transport().label() + "\"");
        String metrics = b.get("/actuator/prometheus").body();
        assertThat(metrics).contains("gateway_inbox_inserted_total").contains("gateway_delivery_latency_seconds_count")
                .contains("gateway_inbox_delivered_total");
        await().atMost(Duration.ofSeconds(10))
                .until(() -> a.get("/actuator/prometheus").body().contains("gateway_outbox_published_total{"));
    }
}
