package kr.c4i.gateway.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.Test;

import kr.c4i.gateway.core.transport.TransportKind;
import kr.c4i.gateway.interfacedb.OutboxMessage;
import kr.c4i.gateway.kmtf.catalogue.KmtfCatalogue;
import kr.c4i.gateway.kmtf.catalogue.Reliability;

/**
 * The contract over DDS: a topic per KMTF type on real Cyclone DDS participants, receipts back to
 * the sender, unreceipted RELIABLE messages resent (also after the sender itself was killed).
 */
class DdsEndToEndIT extends EndToEndContract {

    @Override
    TransportKind transport() {
        return TransportKind.DDS;
    }

    @Test
    void bestEffortTypesAreNeitherTrackedNorResentNorDuplicated() throws Exception {
        String type = KmtfCatalogue.loadDefault().types().stream()
                .filter(t -> t.reliability() == Reliability.BEST_EFFORT).findFirst().orElseThrow().id();
        NodeProcess b = cluster.start("b").awaitUp(STARTUP);
        NodeProcess a = cluster.start("a").awaitUp(STARTUP);
        for (int i = 0; i < 200; i++) {
            cluster.insertOutbox("a", type, message(type, i));
        }
        await().atMost(Duration.ofSeconds(60))
                .until(() -> cluster.count("a", "SELECT count(*) FROM outbox WHERE sent_at IS NULL") == 0);
        // BEST_EFFORT may drop, but never silently: each message ends in b's inbox or in a drop counter (unmatched
        // on a; lost or rejected on b), so the wait ends when all 200 are accounted for, not after a guessed pause.
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(500)).untilAsserted(() ->
                assertThat(cluster.count("b", "SELECT count(*) FROM inbox") + dropped(a) + dropped(b))
                        .as("messages in b's inbox plus samples counted dropped").isEqualTo(200.0));

        assertThat(cluster.count("b", "SELECT count(*) FROM inbox")).isPositive();
        assertThat(cluster.count("a", "SELECT count(*) FROM outbox_delivery")).as("no ledger rows, no resends")
                .isZero();
        assertThat(cluster.strings("b", "SELECT message_id FROM inbox"))
                .isSubsetOf(cluster.strings("a", "SELECT message_id FROM outbox"));
        assertThat(b.get("/actuator/prometheus").body()).as("no copy delivered twice")
                .containsPattern("gateway_inbox_duplicates_total\\{[^}]*\\} 0\\.0");
    }

    /**
     * One of a's pair of bridges hangs mid-stream (SIGSTOP: its connections stay open, as a machine's that froze or
     * was cut off). The outbox rows it had claimed stay locked, skipped by its partner, only until PostgreSQL ends its
     * idle transaction ({@code idle_in_transaction_session_timeout}, 30 s as shipped); then the partner sends them too.
     * Every message, and a FLASH written at the hang, reaches b while it still hangs; woken, it duplicates nothing.
     * (Without the timeout the rows wait for it to wake: the case fails.)
     */
    @Test
    void aNodesBridgeThatHangsHoldsUpItsClaimedRowsOnlyUntilTheDatabaseEndsItsTransaction() throws Exception {
        cluster.pair("a");
        NodeProcess a1 = cluster.startTogether("b", "a").getLast();
        NodeProcess a2 = cluster.startPartner("a").awaitUp(STARTUP);
        // Written faster than b takes them: both of a's bridges work through a backlog, mostly inside transactions.
        CompletableFuture<Void> producing = produce(6000);
        await().atMost(Duration.ofSeconds(60)).until(() -> cluster.count("b", "SELECT count(*) FROM inbox") > 300
                && counted(a1, "gateway_outbox_published_total{") > 0
                && counted(a2, "gateway_outbox_published_total{") > 0);

        Hang hang = hangHoldingClaimedRows(a1, a2);
        long hung = hang.since();
        long atHang = cluster.count("b", "SELECT count(*) FROM inbox");
        String flash = writeFlash("a-hung", 6000);
        int expected = 6001 + hang.backlog();
        Resumed resumed = untilInboxGrows(atHang, hung);
        Duration flashIn = untilInInbox(flash, hung);
        producing.get(120, TimeUnit.SECONDS);
        // While it still hangs: its transaction ended by the database, its rows sent (again) by its partner.
        await().alias("every message in b's inbox and marked sent in a's outbox while one of its bridges hangs")
                .atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(200))
                .until(() -> cluster.count("b", "SELECT count(DISTINCT message_id) FROM inbox") == expected
                        && cluster.count("a", "SELECT count(*) FROM outbox WHERE sent_at IS NULL") == 0
                        && cluster.count("a", IDLE_IN_TRANSACTION) == 0);
        Duration all = Duration.ofNanos(System.nanoTime() - hung);
        hang.bridge().thaw();

        assertExactlyOnce(expected);
        report("one of the sending node's pair of bridges hangs (SIGSTOP, connections open) inside an outbox "
                + "transaction; its rows sent by its partner and every message in b's inbox " + all.toMillis()
                + " ms after the hang", resumed, flashIn);
    }

    /** The bridge sessions of a's database inside a transaction, between its statements: publishing claimed rows. */
    private static final String IN_TRANSACTION = "SELECT application_name FROM pg_stat_activity "
            + "WHERE state = 'idle in transaction' AND application_name IN ('"
            + Cluster.sessionName("a", false) + "', '" + Cluster.sessionName("a", true) + "')";

    /** Sessions of a's database in a transaction that has been idle for over a second: a bridge's that hangs. */
    private static final String IDLE_IN_TRANSACTION = "SELECT count(*) FROM pg_stat_activity "
            + "WHERE state = 'idle in transaction' AND state_change < now() - interval '1 second'";

    /** The bridge process stopped, when, and how many messages were written as backlogs to catch it. */
    private record Hang(NodeProcess bridge, long since, int backlog) {
    }

    /** Messages written in one commit before each try: full batches keep a bridge's transactions open for a while. */
    private static final int BACKLOG = 1000;

    /**
     * Stops one of node a's pair of bridges (SIGSTOP) at a moment it holds claimed rows: its outbox transaction stays
     * open past a second, which a running bridge's never does. Each try first writes a backlog in one commit (the
     * paced producer alone lets the bridges keep up, their transactions then too short to be seen), then stops the
     * process whose session is seen inside a transaction (told apart by their sessions' application names); if that
     * transaction ended before the stop, the process is woken and tried again.
     */
    private Hang hangHoldingClaimedRows(NodeProcess first, NodeProcess partner) throws Exception {
        String partnerSession = Cluster.sessionName("a", true);
        int backlog = 0;
        for (int attempt = 0; attempt < 30; attempt++) {
            backlog += writeBacklog(attempt);
            String holder;
            try {
                holder = await().alias("one of a's bridges inside an outbox transaction")
                        .atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(5))
                        .until(() -> cluster.strings("a", IN_TRANSACTION), sessions -> !sessions.isEmpty()).getFirst();
            }
            catch (ConditionTimeoutException backlogTakenUnseen) {
                continue;
            }
            NodeProcess bridge = holder.equals(partnerSession) ? partner : first;
            long hung = System.nanoTime();
            bridge.freeze();
            try {
                await().atMost(Duration.ofSeconds(3)).pollInterval(Duration.ofMillis(100))
                        .until(() -> cluster.count("a", IDLE_IN_TRANSACTION + " AND application_name = '" + holder
                                + "'") > 0);
                return new Hang(bridge, hung, backlog);
            }
            catch (ConditionTimeoutException transactionEndedBeforeTheStop) {
                bridge.thaw();
            }
        }
        throw new AssertionError("neither of a's bridges was caught inside an outbox transaction in 30 tries");
    }

    /** Writes {@link #BACKLOG} messages into a's outbox in one commit, numbered apart from the producer's. */
    private int writeBacklog(int attempt) throws Exception {
        List<OutboxMessage> messages = new ArrayList<>(BACKLOG);
        for (int i = 0; i < BACKLOG; i++) {
            int serial = 10_000 + attempt * BACKLOG + i;
            messages.add(OutboxMessage.of("SITREP", message("SITREP", serial)));
        }
        return cluster.client("a").insertAll(messages);
    }

    /** {@code gateway.dds.samples.dropped}, summed over its reasons, as the node's Prometheus endpoint shows it. */
    private static double dropped(NodeProcess node) throws Exception {
        return counted(node, "gateway_dds_samples_dropped_total{");
    }
}
