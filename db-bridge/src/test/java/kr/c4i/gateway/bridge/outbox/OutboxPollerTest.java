package kr.c4i.gateway.bridge.outbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.health.contributor.Status;

import kr.c4i.gateway.bridge.config.OutboxProperties;
import kr.c4i.gateway.bridge.config.OutboxProperties.BadRowPolicy;
import kr.c4i.gateway.bridge.health.OutboxHealthIndicator;
import kr.c4i.gateway.bridge.inbox.InboundQuarantine;
import kr.c4i.gateway.bridge.inbox.InboundValidator;
import kr.c4i.gateway.bridge.inbox.InboxWriter;
import kr.c4i.gateway.bridge.inbox.ValidatingInbox;
import kr.c4i.gateway.bridge.metrics.BridgeMetrics;
import kr.c4i.gateway.bridge.support.InterfaceDatabase;
import kr.c4i.gateway.bridge.support.Kmtf;
import kr.c4i.gateway.bridge.support.MutableClock;
import kr.c4i.gateway.bridge.support.RecordingTransport;
import kr.c4i.gateway.core.Envelope;
import kr.c4i.gateway.core.HopTrace;
import kr.c4i.gateway.core.NodeId;
import kr.c4i.gateway.core.routing.Clearances;
import kr.c4i.gateway.core.routing.RoutingTable;
import kr.c4i.gateway.core.transport.Outbound;
import kr.c4i.gateway.core.transport.TransportKind;
import kr.c4i.gateway.custody.CustodyLog;
import kr.c4i.gateway.custody.CustodyLogReader;
import kr.c4i.gateway.custody.CustodyStep;
import kr.c4i.gateway.custody.CustodyTrail;
import kr.c4i.gateway.interfacedb.RawOutboxRow;
import kr.c4i.gateway.jdbc.DatabaseOwner;
import kr.c4i.gateway.kmtf.KmtfValidator;
import kr.c4i.gateway.kmtf.catalogue.KmtfCatalogue;
import kr.c4i.gateway.kmtf.catalogue.Precedence;
import kr.c4i.gateway.kmtf.text.Classification;

class OutboxPollerTest {

    private static final KmtfCatalogue CATALOGUE = KmtfCatalogue.loadDefault();
    private static final NodeId A = NodeId.of("a");
    private static final NodeId B = NodeId.of("b");

    @TempDir
    Path dir;

    private InterfaceDatabase db;
    private final RecordingTransport transport = new RecordingTransport();
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

    @BeforeEach
    void startDatabase() throws Exception {
        db = new InterfaceDatabase(dir.resolve("pg"));
    }

    @AfterEach
    void stopDatabase() throws Exception {
        db.close();
    }

    private OutboxPoller poller(Duration idlePoll, BadRowPolicy policy) {
        return poller(idlePoll, policy, 5);
    }

    private OutboxPoller poller(Duration idlePoll, BadRowPolicy policy, int maxRowAttempts) {
        OutboxProperties properties = new OutboxProperties(true, 100, idlePoll, Duration.ofMillis(50),
                Duration.ofMillis(500), policy, Duration.ofSeconds(5), Duration.ofSeconds(30), maxRowAttempts);
        RoutingTable routing = RoutingTable.of(Map.of(B, List.of("*")), CATALOGUE);
        return OutboxLoop.poller(db.dataSource(), properties, CATALOGUE, routing, A, transport,
                new BridgeMetrics(registry, TransportKind.JMS), null, Clock.systemUTC());
    }

    /** A started poller over a receipting transport, its ledger and the clock they read, and the ids it sent. */
    private record SentThree(OutboxPoller poller, DeliveryLedger ledger, MutableClock clock, List<String> ids)
            implements AutoCloseable {

        @Override
        public void close() {
            poller.close();
        }
    }

    /** Three SITREPs sent to b over a receipting transport by a poller that now waits. */
    private SentThree pollerThatSentThreeSitreps() throws Exception {
        MutableClock clock = new MutableClock();
        DeliveryLedger ledger = new DeliveryLedger(db.dataSource(), Duration.ofMillis(100), Duration.ofMinutes(5),
                clock, CustodyLog.off());
        OutboxProperties properties = new OutboxProperties(true, 100, Duration.ofMinutes(5), Duration.ofMillis(50),
                Duration.ofMillis(500), BadRowPolicy.QUARANTINE, Duration.ofMillis(100), Duration.ofMinutes(5), 5);
        RoutingTable routing = RoutingTable.of(Map.of(B, List.of("*")), CATALOGUE);
        for (int i = 0; i < 3; i++) {
            db.insertOutbox("SITREP", Kmtf.message("SITREP", i));
        }
        OutboxPoller poller = OutboxLoop.poller(db.dataSource(), properties, CATALOGUE, routing, A, transport,
                new BridgeMetrics(registry, TransportKind.JMS), ledger, clock);
        try {
            poller.start();
            await().atMost(Duration.ofSeconds(20)).until(() -> transport.sent.size() == 3 && poller.waiting());
            return new SentThree(poller, ledger, clock,
                    transport.sent.stream().map(o -> o.envelope().messageId()).toList());
        }
        catch (RuntimeException ex) {
            poller.close();
            throw ex;
        }
    }

    @Test
    void anIdlePollerResendsTheGapAReceiptRevealsWithoutWaitingForItsIdlePoll() throws Exception {
        try (SentThree sent = pollerThatSentThreeSitreps()) {
            // The receiver got only the last one (say, from the writer's history): the first two never arrived.
            // The poller looked for gaps just now (it is idle); receipts make it look again once 20 ms have passed.
            sent.clock().advance(Duration.ofMillis(20));
            sent.ledger().receipted(B, List.of(sent.ids().get(2)));

            awaitTheFirstTwoSentAgain(sent);
        }
    }

    @Test
    void aReceiptThatComesTooSoonAfterTheLastLookForGapsIsLookedAtOnceTheirIntervalHasPassed() throws Exception {
        try (SentThree sent = pollerThatSentThreeSitreps()) {
            // The receipt comes within 20 ms of the poller's last look (the clock has not moved): applied, not yet
            // looked at. No more receipts come; 20 ms later, not 500, the gap goes again.
            sent.ledger().receipted(B, List.of(sent.ids().get(2)));
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> !sent.ledger().hasQueuedReceipts() && sent.poller().waiting());
            assertThat(transport.sent).hasSize(3);
            sent.clock().advance(Duration.ofMillis(20));

            awaitTheFirstTwoSentAgain(sent);
        }
    }

    private void awaitTheFirstTwoSentAgain(SentThree sent) {
        await().atMost(Duration.ofSeconds(10)).until(() -> transport.sent.size() == 5);
        assertThat(transport.sent.stream().skip(3).map(o -> o.envelope().messageId()))
                .containsExactlyInAnyOrder(sent.ids().get(0), sent.ids().get(1));
    }

    /**
     * Messages moved from a's outbox to b's inbox: a's custody log has what it sent, quarantined, refused for want of
     * clearance and had receipted; b's what it took into its inbox and what it quarantined; together they say where
     * each message is. The transport is the recording one, b's side is its inbox handler, as a DDS node's.
     */
    @Test
    void everyNodeStepOfMessagesMovedEndToEndIsInTheCustodyLogsAndTheyTellWhereEachIs() throws Exception {
        MutableClock clock = new MutableClock();
        CustodyLog atA = new CustodyLog("a", "dds");
        DeliveryLedger ledger = new DeliveryLedger(db.dataSource(), Duration.ofSeconds(5), Duration.ofMinutes(5),
                clock, atA);
        OutboxProperties properties = new OutboxProperties(true, 100, Duration.ofSeconds(1), Duration.ofMillis(50),
                Duration.ofMillis(500), BadRowPolicy.QUARANTINE, Duration.ofSeconds(5), Duration.ofMinutes(5), 5);
        Clearances clearances = Clearances.of(Map.of("b", "CONFIDENTIAL"), Classification.UNCLASSIFIED,
                "gateway.routing.clearances");
        new DatabaseOwner("node", "a", "gateway.node.id").claim(db.dataSource(), "a's interface database");
        db.execute("INSERT INTO outbox (message_id, kmtf_type, body) VALUES "
                + "('m-good', 'SITREP', convert_to(?, 'UTF8')), "
                + "('m-bad', 'SITREP', convert_to('NARR/NOT FIRST//', 'UTF8')), "
                + "('m-secret', 'SITREP', convert_to(?, 'UTF8'))", Kmtf.message("SITREP", 1),
                OutboxClearanceTest.message("SECRET", 2));
        try (InterfaceDatabase b = new InterfaceDatabase(dir.resolve("pg-b"));
                OutboxPoller poller = OutboxLoop.poller(db.dataSource(), properties, CATALOGUE,
                        RoutingTable.of(Map.of(B, List.of("*")), CATALOGUE), clearances, A, transport,
                        new BridgeMetrics(registry, TransportKind.DDS), ledger, clock, atA)) {
            new DatabaseOwner("node", "b", "gateway.node.id").claim(b.dataSource(), "b's interface database");
            BridgeMetrics metricsOfB = new BridgeMetrics(new SimpleMeterRegistry(), TransportKind.DDS);
            CustodyLog atB = new CustodyLog("b", "dds");
            ValidatingInbox inboxOfB = new ValidatingInbox(new InboundValidator(new KmtfValidator(CATALOGUE)),
                    new InboxWriter(b.dataSource(), metricsOfB, atB), new InboundQuarantine(b.dataSource(), "dds", atB),
                    metricsOfB);
            poller.start();
            await().atMost(Duration.ofSeconds(20)).until(() -> transport.sent.size() == 1
                    && db.count("SELECT count(*) FROM outbox WHERE sent_at IS NULL") == 0);
            Envelope good = transport.sent.peek().envelope();
            // What b's transport hands it: a's message, and a copy someone relabelled, which b keeps out of its inbox.
            Envelope relabelled = new Envelope("m-relabelled", A, "SITREP", good.precedence(), "SECRET",
                    good.createdAt(), good.body());

            inboxOfB.deliver(List.of(good, relabelled));
            ledger.receipted(B, List.of("m-good"));

            await().atMost(Duration.ofSeconds(20)).until(() -> ledger.unreceipted() == 0);
            String precedence = good.precedence().name();
            assertThat(steps(db)).containsExactlyInAnyOrder("sent m-good b dds " + precedence,
                    "quarantined m-bad - dds -", "refused m-secret b dds " + precedence, "receipted m-good b dds -");
            assertThat(steps(b)).containsExactlyInAnyOrder("delivered m-good a dds " + precedence,
                    "quarantined m-relabelled a dds " + precedence);
            assertThat(db.strings("SELECT detail FROM custody_log WHERE event IN ('quarantined', 'refused') "
                    + "ORDER BY event")).satisfiesExactly(
                            bad -> assertThat(bad).startsWith("missing-msgid: "),
                            secret -> assertThat(secret).startsWith("clearance-exceeded: destination b is cleared "
                                    + "CONFIDENTIAL; the message is SECRET"));

            // The receipt is found through the send it receipts, its id kept out of the message id index.
            assertThat(db.strings("SELECT event || ' ' || coalesce(earlier = ARRAY[(SELECT id FROM custody_log "
                    + "WHERE event = 'sent')], false) FROM custody_log WHERE event IN ('sent', 'receipted') "
                    + "ORDER BY id")).containsExactly("sent false", "receipted true");

            // The send and the delivery are found through the outbox and inbox rows they moved, which name them.
            assertThat(db.strings("SELECT found_through || ' ' || (id = (SELECT sent_in FROM outbox "
                    + "WHERE message_id = 'm-good')) FROM custody_log WHERE event = 'sent'")).containsExactly("outbox true");
            assertThat(b.strings("SELECT found_through || ' ' || (id = (SELECT delivered_in FROM inbox "
                    + "WHERE message_id = 'm-good')) FROM custody_log WHERE event = 'delivered'"))
                    .containsExactly("inbox true");
            for (InterfaceDatabase database : List.of(db, b)) {
                assertThat(database.count("SELECT count(*) FROM custody_log WHERE message_ids @> ARRAY['m-good'] "
                        + "AND earlier IS NULL AND found_through IS NULL")).as("in no message id index").isZero();
            }

            CustodyTrail delivered = trail("m-good", db, b);
            assertThat(delivered.asked()).containsExactly("node a", "node b");
            assertThat(delivered.steps()).extracting(CustodyStep::event).containsExactly("sent", "delivered",
                    "receipted");
            assertThat(delivered.position()).startsWith("in b's inbox: receipted to node a at ");
            assertThat(good.traceText()).as("stamped by a when it sent it").matches("node a sent \\+\\d+ms");
            assertThat(delivered.carried()).singleElement().satisfies(carried -> {
                assertThat(carried.place()).isEqualTo("node b");
                assertThat(carried.trace().hops()).extracting(HopTrace.Hop::place, HopTrace.Hop::action)
                        .containsExactly(tuple("node a", HopTrace.Action.SENT),
                                tuple("node b", HopTrace.Action.DELIVERED));
            });
            assertThat(trail("m-secret", db, b).position()).startsWith("refused at node a for b at ")
                    .contains(": clearance-exceeded: destination b is cleared CONFIDENTIAL");
            assertThat(trail("m-unknown", db, b).position()).isEqualTo("not seen here (asked node a, node b)");
        }
    }

    /** Each step as event, message ids, peers, link and precedence. */
    private static List<String> steps(InterfaceDatabase database) throws SQLException {
        return database.strings("SELECT concat_ws(' ', event, array_to_string(message_ids, ','), "
                + "coalesce(array_to_string(peer, ','), '-'), link, coalesce(precedence, '-')) FROM custody_log");
    }

    private static CustodyTrail trail(String messageId, InterfaceDatabase... databases) throws SQLException {
        List<CustodyLogReader.Answer> answers = new ArrayList<>();
        for (InterfaceDatabase database : databases) {
            try (Connection c = database.dataSource().getConnection()) {
                answers.add(CustodyLogReader.read(c, messageId));
            }
        }
        return CustodyTrail.of(messageId, answers);
    }

    @Test
    void validRowsAreSentToTheirSubscribersAndMarkedSent() throws Exception {
        for (int i = 0; i < 250; i++) {
            db.insertOutbox("SITREP", Kmtf.message("SITREP", i));
        }
        try (OutboxPoller poller = poller(Duration.ofSeconds(1), BadRowPolicy.QUARANTINE)) {
            poller.start();
            await().atMost(Duration.ofSeconds(20)).until(() -> db.count("SELECT count(*) FROM outbox WHERE sent_at IS NULL") == 0);
        }
        assertThat(transport.sent).hasSize(250).allSatisfy(o -> {
            assertThat(o.destinations()).containsExactly(B);
            assertThat(o.envelope().origin()).isEqualTo(A);
            assertThat(o.envelope().classification()).isEqualTo("UNCLASSIFIED");
        });
        assertThat(db.count("SELECT count(*) FROM outbox WHERE sent_by = 'a'")).isEqualTo(250);
    }

    @Test
    void badRowsAreQuarantinedWithReasonAndBytesWhileGoodRowsAroundThemFlow() throws Exception {
        db.insertOutbox("SITREP", Kmtf.message("SITREP", 1));
        db.insertOutbox("SITREP", "NARR/NOT FIRST//\nMSGID/SITREP/X/1//");
        db.insertOutbox("NOSUCHTYPE", "MSGID/NOSUCHTYPE/X/1//");
        db.insertOutbox("SITREP", Kmtf.message("SITREP", 2) + "\nRMKS/" + "X".repeat(70_000) + "//");
        db.insertOutbox("SITREP", new byte[] { 'M', 'S', 'G', 'I', 'D', '/', (byte) 0xC3, (byte) 0x28, '/', '/' });
        db.insertOutbox("OPORD", Kmtf.message("SITREP", 3));
        db.insertOutbox("SITREP", Kmtf.message("SITREP", 4));
        try (OutboxPoller poller = poller(Duration.ofSeconds(1), BadRowPolicy.QUARANTINE)) {
            poller.start();
            await().atMost(Duration.ofSeconds(20)).until(() -> db.count("SELECT count(*) FROM outbox") == 2
                    && db.count("SELECT count(*) FROM outbox WHERE sent_at IS NULL") == 0);
        }
        assertThat(transport.sent).hasSize(2);
        assertThat(db.strings("SELECT reason_kind FROM quarantine ORDER BY outbox_id")).containsExactly(
                "msgid-not-first", "unknown-type", "oversize", "invalid-encoding", "type-mismatch");
        assertThat(db.count("SELECT count(*) FROM quarantine WHERE octet_length(body) > 0 AND reason <> ''")).isEqualTo(5);
        assertThat(registry.get("gateway.outbox.quarantined").tag("reason", "oversize").counter().count()).isEqualTo(1);
    }

    @Test
    void rowsTheTransportRefusesForeverAreQuarantinedAndTheRestSent() throws Exception {
        transport.reject("OPORD");
        db.insertOutbox("SITREP", Kmtf.message("SITREP", 1));
        db.insertOutbox("OPORD", Kmtf.message("OPORD", 2));
        db.insertOutbox("SITREP", Kmtf.message("SITREP", 3));
        try (OutboxPoller poller = poller(Duration.ofSeconds(1), BadRowPolicy.QUARANTINE)) {
            poller.start();
            await().atMost(Duration.ofSeconds(20)).until(() -> transport.sent.size() == 2);
        }
        assertThat(db.strings("SELECT reason_kind FROM quarantine")).containsExactly("transport-rejected");
    }

    @Test
    void failPolicyStopsPublishingAtTheBadRowAndKeepsIt() throws Exception {
        db.insertOutbox("SITREP", "garbage");
        db.insertOutbox("SITREP", Kmtf.message("SITREP", 1));
        try (OutboxPoller poller = poller(Duration.ofSeconds(1), BadRowPolicy.FAIL)) {
            poller.start();
            await().atMost(Duration.ofSeconds(20)).until(poller::stoppedByBadRow);
            assertThat(poller.problem()).contains("bad-row-policy=fail");
        }
        assertThat(transport.sent).isEmpty();
        assertThat(db.count("SELECT count(*) FROM outbox WHERE sent_at IS NULL")).isEqualTo(2);
        assertThat(db.count("SELECT count(*) FROM quarantine")).isZero();
    }

    @Test
    void rowsStayInTheOutboxWhileTheTransportIsDownAndGoOnceItReturns() throws Exception {
        transport.failNext(5);
        for (int i = 0; i < 50; i++) {
            db.insertOutbox("SITREP", Kmtf.message("SITREP", i));
        }
        try (OutboxPoller poller = poller(Duration.ofSeconds(1), BadRowPolicy.QUARANTINE)) {
            poller.start();
            await().atMost(Duration.ofSeconds(20)).until(() -> transport.sent.size() == 50);
        }
        assertThat(db.count("SELECT count(*) FROM outbox WHERE sent_at IS NULL")).isZero();
        assertThat(registry.get("gateway.transport.send.failures").counter().count()).isEqualTo(5);
    }

    /**
     * A busy transport (a DDS writer full on a slow link) is flow control: the poller sends on after the first
     * backoff each time, never a growing one. Twelve busy sends in a row with a growing backoff (50 ms doubled up to a
     * minute) would wait 200 s; not counted as failures.
     */
    @Test
    void aBusyTransportIsTriedAgainAtOnceNotAfterAGrowingBackoff() throws Exception {
        transport.busyNext(12);
        for (int i = 0; i < 20; i++) {
            db.insertOutbox("SITREP", Kmtf.message("SITREP", i));
        }
        OutboxProperties properties = new OutboxProperties(true, 100, Duration.ofSeconds(1), Duration.ofMillis(50),
                Duration.ofMinutes(1), BadRowPolicy.QUARANTINE, Duration.ofSeconds(5), Duration.ofSeconds(30), 5);
        try (OutboxPoller poller = OutboxLoop.poller(db.dataSource(), properties, CATALOGUE,
                RoutingTable.of(Map.of(B, List.of("*")), CATALOGUE), A, transport,
                new BridgeMetrics(registry, TransportKind.JMS), null, Clock.systemUTC())) {
            poller.start();
            await().atMost(Duration.ofSeconds(20)).until(() -> transport.sent.size() == 20);
        }
        assertThat(registry.get("gateway.transport.send.failures").counter().count()).isZero();
    }

    /**
     * A DDS writer that fills in the middle of a batch has taken the messages before it: they are marked sent, and
     * only the rest is sent again. Sending the whole batch again put each taken message on the slow link twice
     * (docs/results.md, "The DDS loss cells' duplicates").
     */
    @Test
    void whatABusyTransportTookIsMarkedSentAndNeverSentAgain() throws Exception {
        transport.busyAfter(7);
        for (int i = 0; i < 20; i++) {
            db.insertOutbox("SITREP", Kmtf.message("SITREP", i));
        }
        try (OutboxPoller poller = poller(Duration.ofMinutes(5), BadRowPolicy.QUARANTINE)) {
            poller.start();
            await().atMost(Duration.ofSeconds(20)).until(poller::waiting);
        }
        List<String> ids = transport.sent.stream().map(outbound -> outbound.envelope().messageId()).toList();
        assertThat(ids).as("every message once").hasSize(20).doesNotHaveDuplicates();
        assertThat(db.count("SELECT count(*) FROM outbox WHERE sent_at IS NULL")).isZero();
    }

    @Test
    void anInsertWakesThePollerLongBeforeTheIdlePoll() throws Exception {
        try (OutboxPoller poller = poller(Duration.ofMinutes(5), BadRowPolicy.QUARANTINE)) {
            poller.start();
            await().atMost(Duration.ofSeconds(10)).until(poller::waiting);
            db.insertOutbox("SITREP", Kmtf.message("SITREP", 1));
            await().atMost(Duration.ofSeconds(5)).until(() -> transport.sent.size() == 1);
        }
    }

    @Test
    void twoBridgesOnOneDatabaseNeverSendTheSameRow() throws Exception {
        RecordingTransport other = new RecordingTransport();
        int rows = 3000;
        try (OutboxPoller first = poller(Duration.ofMillis(200), BadRowPolicy.QUARANTINE);
                OutboxPoller second = OutboxLoop.poller(db.dataSource(),
                        new OutboxProperties(true, 100, Duration.ofMillis(200), Duration.ofMillis(50),
                                Duration.ofMillis(500), BadRowPolicy.QUARANTINE, Duration.ofSeconds(5),
                                Duration.ofSeconds(30), 5),
                        CATALOGUE, RoutingTable.of(Map.of(B, List.of("*")), CATALOGUE), A, other,
                        new BridgeMetrics(new SimpleMeterRegistry(), TransportKind.JMS), null, Clock.systemUTC())) {
            first.start();
            second.start();
            for (int i = 0; i < rows; i++) {
                db.insertOutbox("SITREP", Kmtf.message("SITREP", i));
            }
            await().atMost(Duration.ofSeconds(60))
                    .until(() -> transport.sent.size() + other.sent.size() >= rows
                            && db.count("SELECT count(*) FROM outbox WHERE sent_at IS NULL") == 0);
        }
        Set<String> ids = new HashSet<>();
        for (Outbound o : transport.sent) {
            ids.add(o.envelope().messageId());
        }
        for (Outbound o : other.sent) {
            assertThat(ids.add(o.envelope().messageId())).as("sent twice: %s", o.envelope().messageId()).isTrue();
        }
        assertThat(ids).hasSize(rows);
        assertThat(transport.sent).isNotEmpty();
        assertThat(other.sent).isNotEmpty();
    }

    @Test
    void aDatabaseThatGoesAwayIsWaitedForAndNoRowIsLost() throws Exception {
        for (int i = 0; i < 100; i++) {
            db.insertOutbox("SITREP", Kmtf.message("SITREP", i));
        }
        try (OutboxPoller poller = poller(Duration.ofMillis(200), BadRowPolicy.QUARANTINE)) {
            poller.start();
            await().atMost(Duration.ofSeconds(20)).until(() -> transport.sent.size() == 100);
            db.stop();
            await().atMost(Duration.ofSeconds(20)).until(() -> poller.problem() != null);
            assertThat(poller.problem()).startsWith("database unavailable");
            db.start();
            for (int i = 100; i < 200; i++) {
                db.insertOutbox("SITREP", Kmtf.message("SITREP", i));
            }
            await().atMost(Duration.ofSeconds(30)).until(() -> transport.sent.size() == 200);
            await().atMost(Duration.ofSeconds(5)).until(() -> poller.problem() == null);
        }
        assertThat(db.count("SELECT count(*) FROM outbox WHERE sent_at IS NULL")).isZero();
    }

    private void insertRow(String messageId, String createdAt, String precedence, String type, String body)
            throws Exception {
        db.client().insertRaw(RawOutboxRow.of(messageId, type, precedence, body, createdAt));
    }

    @Test
    void rowsThatCanNeverBeEnvelopesAreQuarantinedOneByOneWhileTheRowsAfterThemFlow() throws Exception {
        db.dropOutboxConstraints();
        String now = "2026-11-21 14:30:00+00";
        insertRow("first", now, null, "SITREP", Kmtf.message("SITREP", 1));
        insertRow("", now, null, "SITREP", Kmtf.message("SITREP", 2));
        insertRow("   ", now, null, "SITREP", Kmtf.message("SITREP", 3));
        insertRow("x".repeat(256), now, null, "SITREP", Kmtf.message("SITREP", 4));
        insertRow("inf", "infinity", null, "SITREP", Kmtf.message("SITREP", 5));
        insertRow("-inf", "-infinity", null, "SITREP", Kmtf.message("SITREP", 6));
        insertRow("julian", "1500-01-01 00:00:00+00", null, "SITREP", Kmtf.message("SITREP", 7));
        insertRow("far", "2262-01-01 00:00:00+00", null, "SITREP", Kmtf.message("SITREP", 8));
        insertRow("odd-precedence", now, "urgent", "SITREP", Kmtf.message("SITREP", 9));
        insertRow("earliest", "1678-01-01 00:00:00+00", null, "SITREP", Kmtf.message("SITREP", 10));
        insertRow("latest", "2261-12-31 23:59:59.999999+00", " z ", "SITREP", Kmtf.message("SITREP", 11));
        try (OutboxPoller poller = poller(Duration.ofSeconds(1), BadRowPolicy.QUARANTINE)) {
            poller.start();
            await().atMost(Duration.ofSeconds(20)).until(() -> db.count("SELECT count(*) FROM outbox") == 3
                    && db.count("SELECT count(*) FROM outbox WHERE sent_at IS NULL") == 0);
        }
        // The FLASH row first: a bridge just started claims the urgent rows ahead of the others.
        assertThat(transport.sent).extracting(o -> o.envelope().messageId())
                .containsExactly("latest", "first", "earliest");
        // Exact to the microsecond at both ends of the range every transport carries.
        assertThat(transport.sent).extracting(o -> o.envelope().createdAt()).containsExactly(
                Instant.parse("2261-12-31T23:59:59.999999Z"), Instant.parse("2026-11-21T14:30:00Z"),
                Instant.parse("1678-01-01T00:00:00Z"));
        assertThat(transport.sent).first().extracting(o -> o.envelope().precedence()).isEqualTo(Precedence.FLASH);
        assertThat(db.strings("SELECT reason_kind FROM quarantine ORDER BY outbox_id")).containsExactly(
                "invalid-message-id", "invalid-message-id", "invalid-message-id", "invalid-created-at",
                "invalid-created-at", "invalid-created-at", "invalid-created-at", "invalid-precedence");
        assertThat(db.strings("SELECT reason FROM quarantine WHERE message_id = 'julian'")).singleElement()
                .asString().contains("1500-01-01T00:00:00Z");
        assertThat(db.strings("SELECT reason FROM quarantine WHERE message_id = 'inf'")).singleElement()
                .asString().contains("created_at infinity");
        // The quarantine keeps the row exactly as written.
        assertThat(db.count("""
                SELECT count(*) FROM quarantine
                 WHERE (message_id = 'inf' AND created_at = 'infinity')
                    OR (message_id = '-inf' AND created_at = '-infinity')
                    OR (message_id = 'julian' AND created_at = '1500-01-01 00:00:00+00')""")).isEqualTo(3);
    }

    @Test
    void aRowTheTransportFailsOnEveryTimeIsQuarantinedAfterMaxAttemptsAndTheOthersFlow() throws Exception {
        transport.explode("OPORD");
        db.insertOutbox("SITREP", Kmtf.message("SITREP", 1));
        db.insertOutbox("OPORD", Kmtf.message("OPORD", 2));
        db.insertOutbox("SITREP", Kmtf.message("SITREP", 3));
        try (OutboxPoller poller = poller(Duration.ofMillis(100), BadRowPolicy.QUARANTINE, 3)) {
            poller.start();
            await().atMost(Duration.ofSeconds(20)).until(() -> db.count("SELECT count(*) FROM quarantine") == 1
                    && db.count("SELECT count(*) FROM outbox WHERE sent_at IS NULL") == 0);
            assertThat(poller.retriedRow()).isNull();
        }
        assertThat(transport.sent).extracting(o -> o.type().id()).containsExactly("SITREP", "SITREP");
        assertThat(db.strings("SELECT reason_kind || ': ' || reason FROM quarantine")).singleElement().asString()
                .startsWith("repeated-failure: failed 3 times in a row").contains("transport bug (test)");
        assertThat(db.count("SELECT count(*) FROM outbox")).isEqualTo(2);
    }

    @Test
    void healthIsDegradedWithTheRowWhileItIsRetriedAndUpOnceItIsGone() throws Exception {
        transport.explode("OPORD");
        db.insertOutbox("OPORD", Kmtf.message("OPORD", 1));
        db.insertOutbox("SITREP", Kmtf.message("SITREP", 2));
        long stuck = Long.parseLong(db.strings("SELECT id FROM outbox WHERE kmtf_type = 'OPORD'").getFirst());
        try (OutboxPoller poller = poller(Duration.ofMillis(100), BadRowPolicy.QUARANTINE, 1_000)) {
            OutboxHealthIndicator health = new OutboxHealthIndicator(poller);
            poller.start();
            await().atMost(Duration.ofSeconds(20))
                    .until(() -> health.health().getStatus().equals(OutboxHealthIndicator.DEGRADED));
            assertThat(health.health().getDetails()).containsEntry("row", stuck)
                    .hasEntrySatisfying("attempts", a -> assertThat(a.toString()).endsWith(" of 1000"));
            await().atMost(Duration.ofSeconds(10)).until(() -> transport.sent.size() == 1);

            transport.explode("");
            await().atMost(Duration.ofSeconds(10)).until(() -> health.health().getStatus().equals(Status.UP));
            assertThat(health.health().getDetails()).doesNotContainKey("row");
        }
        assertThat(transport.sent).extracting(o -> o.type().id()).containsExactly("SITREP", "OPORD");
    }

    @Test
    void healthIsDownWithTheRowWhenTheFailPolicyStopsPublishing() throws Exception {
        db.insertOutbox("SITREP", "garbage");
        long bad = Long.parseLong(db.strings("SELECT id FROM outbox").getFirst());
        try (OutboxPoller poller = poller(Duration.ofSeconds(1), BadRowPolicy.FAIL)) {
            OutboxHealthIndicator health = new OutboxHealthIndicator(poller);
            poller.start();
            await().atMost(Duration.ofSeconds(20)).until(() -> health.health().getStatus().equals(Status.DOWN));
            assertThat(health.health().getDetails()).containsEntry("row", bad)
                    .hasEntrySatisfying("problem", p -> assertThat(p.toString()).contains("bad-row-policy=fail"));
        }
    }
}
