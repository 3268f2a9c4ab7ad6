package kr.c4i.gateway.bridge.outbox;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import kr.c4i.gateway.bridge.support.InterfaceDatabase;
import kr.c4i.gateway.bridge.support.Kmtf;
import kr.c4i.gateway.bridge.support.MutableClock;
import kr.c4i.gateway.core.Envelope;
import kr.c4i.gateway.core.NodeId;
import kr.c4i.gateway.core.transport.Outbound;
import kr.c4i.gateway.custody.CustodyLog;
import kr.c4i.gateway.kmtf.catalogue.KmtfCatalogue;
import kr.c4i.gateway.kmtf.catalogue.MessageType;
import kr.c4i.gateway.kmtf.catalogue.Reliability;

class DeliveryLedgerTest {

    private static final KmtfCatalogue CATALOGUE = KmtfCatalogue.loadDefault();
    private static final NodeId A = NodeId.of("a");
    private static final NodeId B = NodeId.of("b");
    private static final NodeId C = NodeId.of("c");

    @TempDir
    Path dir;

    private InterfaceDatabase db;
    private final MutableClock clock = new MutableClock();

    @BeforeEach
    void start() throws Exception {
        db = new InterfaceDatabase(dir.resolve("pg"));
    }

    @AfterEach
    void stop() throws Exception {
        db.close();
    }

    private final Map<String, Long> outboxIds = new HashMap<>();

    private Outbound sent(String type, int serial, NodeId... destinations) throws Exception {
        String text = Kmtf.message(type, serial);
        db.insertOutbox(type, text);
        String id = db.strings("SELECT message_id FROM outbox ORDER BY id DESC LIMIT 1").getFirst();
        outboxIds.put(id, db.count("SELECT max(id) FROM outbox"));
        MessageType messageType = CATALOGUE.require(type);
        return new Outbound(new Envelope(id, A, type, messageType.defaultPrecedence(), "UNCLASSIFIED", Instant.now(),
                text.getBytes(StandardCharsets.UTF_8)), messageType, List.of(destinations));
    }

    /** As the publisher does: noted in the send's transaction (which marks the rows sent), awaited once committed. */
    private void record(DeliveryLedger ledger, Outbound... outbounds) throws Exception {
        recordAhead(ledger, 0, outbounds);
    }

    /** The same, with the first {@code ahead} sent ahead of rows with lower ids, as urgent rows are. */
    private void recordAhead(DeliveryLedger ledger, int ahead, Outbound... outbounds) throws Exception {
        Set<String> aheadIds = Stream.of(outbounds).limit(ahead).map(o -> o.envelope().messageId())
                .collect(Collectors.toSet());
        DeliveryLedger.Sent sent;
        try (Connection tx = db.dataSource().getConnection()) {
            tx.setAutoCommit(false);
            sent = ledger.sent(tx, List.of(outbounds), outboxIds::get, id -> 0, aheadIds::contains);
            try (PreparedStatement ps = tx.prepareStatement(
                    "UPDATE outbox SET sent_at = clock_timestamp(), sent_by = 'a' WHERE message_id = ?")) {
                for (Outbound outbound : outbounds) {
                    ps.setString(1, outbound.envelope().messageId());
                    ps.executeUpdate();
                }
            }
            tx.commit();
        }
        ledger.await(sent);
    }

    /** Two SITREPs and an urgent one written after them, sent first: the three in the order sent. */
    private List<Outbound> urgentSentAheadOfTwo(DeliveryLedger ledger) throws Exception {
        Outbound first = sent("SITREP", 1, B);
        Outbound second = sent("SITREP", 2, B);
        Outbound urgent = sent("SITREP", 3, B);
        recordAhead(ledger, 1, urgent, first, second);
        return List.of(urgent, first, second);
    }

    /** A ledger that awaits a delivery in memory for 5 s before it writes it into outbox_delivery. */
    private DeliveryLedger ledger(Duration resendMax) {
        return new DeliveryLedger(db.dataSource(), Duration.ofSeconds(5), resendMax, clock, CustodyLog.off());
    }

    /**
     * 31 s later, by the database's clock too, for the rows sent and for the bridges holding deliveries in memory
     * (a bridge that holds none renews its row meanwhile).
     */
    private void thirtyOneSecondsLater() throws Exception {
        db.execute("UPDATE outbox_sender SET renewed_at = renewed_at - interval '31 seconds' "
                + "WHERE unsettled_from IS NOT NULL");
        db.execute("UPDATE outbox SET sent_at = sent_at - interval '31 seconds'");
        clock.advance(Duration.ofSeconds(31));
    }

    /** Each RELIABLE outbox row owed to b. */
    private static Optional<Outbound> owedToB(OutboxRow row) {
        MessageType type = CATALOGUE.require(row.kmtfType());
        return Optional.of(new Outbound(new Envelope(row.messageId(), A, row.kmtfType(), type.defaultPrecedence(),
                "UNCLASSIFIED", row.createdAt(), row.body()), type, List.of(B)));
    }

    private List<String> ledgerRows() throws Exception {
        return db.strings("SELECT message_id || ' ' || destination FROM outbox_delivery ORDER BY 1");
    }

    private List<DeliveryLedger.Due> due(DeliveryLedger ledger) throws Exception {
        try (Connection tx = db.dataSource().getConnection()) {
            return ledger.claimDue(tx, 100);
        }
    }

    @Test
    void reliableMessagesAwaitAReceiptFromEachDestinationBestEffortOnesDoNot() throws Exception {
        DeliveryLedger ledger = ledger(Duration.ofSeconds(30));
        String bestEffort = CATALOGUE.types().stream().filter(t -> t.reliability() == Reliability.BEST_EFFORT)
                .findFirst().orElseThrow().id();
        Outbound sitrep = sent("SITREP", 1, B, C);
        record(ledger, sitrep, sent(bestEffort, 2, B));

        assertThat(ledger.unreceipted()).isEqualTo(2);
        assertThat(ledgerRows()).as("awaited in memory").isEmpty();
        assertThat(db.strings("SELECT unsettled_from FROM outbox_sender"))
                .as("this bridge's row covers them in the database").containsExactly(
                        Long.toString(outboxIds.get(sitrep.envelope().messageId())));

        ledger.release();
        assertThat(ledgerRows()).as("written down on a clean stop").containsExactly(
                sitrep.envelope().messageId() + " b", sitrep.envelope().messageId() + " c");
        assertThat(db.count("SELECT count(*) FROM outbox_sender")).as("nothing left to take over").isZero();
    }

    @Test
    void aDeliveryReceiptedInTimeIsNeverWrittenToTheLedgerOneNotReceiptedIsWithItsSend() throws Exception {
        DeliveryLedger ledger = ledger(Duration.ofSeconds(30));
        Outbound receipted = sent("SITREP", 1, B);
        Outbound slow = sent("SPOTREP", 2, B);
        record(ledger, receipted, slow);
        Instant sentAt = clock.instant();
        ledger.receipted(B, List.of(receipted.envelope().messageId()));
        ledger.applyReceipts();

        clock.advance(Duration.ofMillis(4999));
        ledger.upkeep(DeliveryLedgerTest::owedToB);
        assertThat(ledgerRows()).isEmpty();
        clock.advance(Duration.ofMillis(1));
        ledger.upkeep(DeliveryLedgerTest::owedToB);

        assertThat(ledgerRows()).containsExactly(slow.envelope().messageId() + " b");
        assertThat(db.strings("SELECT last_sent_at = '" + sentAt + "'::timestamptz FROM outbox_delivery"))
                .as("the send's time, which resend-max counts from").containsExactly("t");
        assertThat(ledger.unreceipted()).isEqualTo(1);
        assertThat(db.strings("SELECT unsettled_from IS NULL FROM outbox_sender")).as("nothing in memory")
                .containsExactly("t");
    }

    @Test
    void whatABridgeThatWentSilentAwaitedIsTakenOverAfterResendMaxDueAtOnce() throws Exception {
        DeliveryLedger gone = ledger(Duration.ofSeconds(30));
        DeliveryLedger partner = ledger(Duration.ofSeconds(30));
        Outbound receipted = sent("SITREP", 1, B);
        Outbound first = sent("SITREP", 2, B);
        Outbound second = sent("SPOTREP", 3, B);
        record(gone, receipted, first, second);
        gone.receipted(B, List.of(receipted.envelope().messageId()));
        gone.applyReceipts();
        gone.upkeep(DeliveryLedgerTest::owedToB);
        // Killed: no release, its memory lost. Its pair hears of it while it is recent.
        assertThat(partner.upkeep(DeliveryLedgerTest::owedToB)).isZero();
        assertThat(ledgerRows()).isEmpty();

        // With the partner renewing its own row meanwhile.
        thirtyOneSecondsLater();
        assertThat(partner.upkeep(DeliveryLedgerTest::owedToB)).isEqualTo(2);

        assertThat(ledgerRows()).as("from the lowest it still awaited on; the one receipted before it is not owed")
                .containsExactlyInAnyOrder(first.envelope().messageId() + " b", second.envelope().messageId() + " b");
        assertThat(due(partner)).extracting(DeliveryLedger.Due::messageId)
                .containsExactlyInAnyOrder(first.envelope().messageId(), second.envelope().messageId());
        assertThat(db.count("SELECT count(*) FROM outbox_sender")).as("the partner's own row only").isEqualTo(1);
        assertThat(partner.upkeep(DeliveryLedgerTest::owedToB)).as("taken over once").isZero();
    }

    @Test
    void aReceiptAppliedByThePollerMarksTheDeliveryDone() throws Exception {
        DeliveryLedger ledger = ledger(Duration.ofSeconds(30));
        Outbound sitrep = sent("SITREP", 1, B, C);
        record(ledger, sitrep);

        ledger.receipted(B, List.of(sitrep.envelope().messageId()));
        assertThat(ledger.unreceipted()).as("queued, not yet applied").isEqualTo(2);
        assertThat(ledger.applyReceipts()).isEqualTo(1);
        assertThat(ledger.unreceipted()).isEqualTo(1);

        clock.advance(Duration.ofSeconds(5));
        ledger.upkeep(DeliveryLedgerTest::owedToB);
        ledger.receipted(C, List.of(sitrep.envelope().messageId()));
        ledger.applyReceipts();
        assertThat(ledger.unreceipted()).as("a receipt of a delivery written to the ledger deletes its row").isZero();
        assertThat(ledgerRows()).isEmpty();
    }

    @Test
    void aReceiptThatOvertakesTheSendersCommitIsAppliedAfterIt() throws Exception {
        DeliveryLedger ledger = ledger(Duration.ofSeconds(30));
        Outbound sitrep = sent("SITREP", 1, B);
        ledger.receipted(B, List.of(sitrep.envelope().messageId()));
        record(ledger, sitrep);
        ledger.applyReceipts();

        assertThat(ledger.unreceipted()).isZero();
    }

    @Test
    void receiptsOfUntrackedMessagesChangeNothing() throws Exception {
        DeliveryLedger ledger = ledger(Duration.ofSeconds(30));
        ledger.receipted(B, List.of("not-ours", "best-effort"));

        assertThat(ledger.applyReceipts()).isEqualTo(2);
        assertThat(db.count("SELECT count(*) FROM outbox_delivery")).isZero();
    }

    @Test
    void aMessageIsDueOnceItsDestinationHasReceiptedALaterOneOfTheSameType() throws Exception {
        DeliveryLedger ledger = ledger(Duration.ofMinutes(10));
        Outbound missed = sent("SITREP", 1, B);
        Outbound otherType = sent("SPOTREP", 2, B);
        Outbound later = sent("SITREP", 3, B);
        record(ledger, missed, otherType, later);
        assertThat(due(ledger)).as("a slow receipt alone is no reason to resend").isEmpty();

        // b returns and gets only the writer's history: the newest SITREP.
        ledger.receipted(B, List.of(later.envelope().messageId()));
        ledger.applyReceipts();

        assertThat(due(ledger)).extracting(DeliveryLedger.Due::messageId)
                .as("SPOTREP is another topic, with its own order").containsExactly(missed.envelope().messageId());
    }

    @Test
    void anUrgentRowSentAheadShowsNoRowSentAfterItMissing() throws Exception {
        DeliveryLedger ledger = ledger(Duration.ofMinutes(10));
        List<Outbound> sent = urgentSentAheadOfTwo(ledger);
        ledger.receipted(B, List.of(sent.getFirst().envelope().messageId()));
        ledger.applyReceipts();

        assertThat(due(ledger)).as("the rows sent after it are in flight, not missing").isEmpty();
        assertThat(ledgerRows()).isEmpty();
    }

    @Test
    void aReceiptOfARowSentAfterAnUrgentOneStillFindsTheRowsMissingBeforeIt() throws Exception {
        DeliveryLedger ledger = ledger(Duration.ofMinutes(10));
        List<Outbound> sent = urgentSentAheadOfTwo(ledger);
        // b returns and gets only the writer's history: the SITREP sent last.
        ledger.receipted(B, List.of(sent.get(2).envelope().messageId()));
        ledger.applyReceipts();

        assertThat(due(ledger)).extracting(DeliveryLedger.Due::messageId)
                .as("the look goes on past the urgent row, awaited first")
                .containsExactly(sent.get(1).envelope().messageId());
    }

    @Test
    void aReceiptOfAnUrgentRowWrittenToTheLedgerAfterItWasSentAheadShowsNothingMissing() throws Exception {
        DeliveryLedger ledger = ledger(Duration.ofMinutes(10));
        Outbound first = sent("SITREP", 1, B);
        Outbound second = sent("SITREP", 2, B);
        Outbound urgent = sent("SITREP", 3, B);
        recordAhead(ledger, 1, urgent, first);
        clock.advance(Duration.ofSeconds(5));
        ledger.upkeep(DeliveryLedgerTest::owedToB);
        assertThat(ledgerRows()).as("both slow: written to the ledger").hasSize(2);
        record(ledger, second);

        ledger.receipted(B, List.of(urgent.envelope().messageId()));
        ledger.applyReceipts();

        assertThat(due(ledger)).as("the row sent with it and the one sent since are in flight, not missing").isEmpty();
        assertThat(ledgerRows()).containsExactly(first.envelope().messageId() + " b");
    }

    @Test
    void aReceiptOfADeliveryTakenOverFromASilentBridgeShowsNothingMissingOfThisBridgesSends() throws Exception {
        DeliveryLedger gone = ledger(Duration.ofSeconds(30));
        DeliveryLedger partner = ledger(Duration.ofSeconds(30));
        Outbound partners = sent("SITREP", 1, B);
        Outbound gones = sent("SITREP", 2, B);
        record(gone, gones);
        gone.upkeep(DeliveryLedgerTest::owedToB);
        thirtyOneSecondsLater();
        assertThat(partner.upkeep(DeliveryLedgerTest::owedToB)).isEqualTo(1);
        // The partner sends a row the silent one had claimed and rolled back, on its own writer.
        record(partner, partners);

        partner.receipted(B, List.of(gones.envelope().messageId()));
        partner.applyReceipts();

        assertThat(due(partner)).as("another writer's order says nothing of the partner's sends").isEmpty();
        assertThat(ledgerRows()).isEmpty();
        assertThat(partner.unreceipted()).isEqualTo(1);
    }

    @Test
    void aBurstStillInFlightIsNotResentWhenItsFirstReceiptsArrive() throws Exception {
        DeliveryLedger ledger = ledger(Duration.ofMinutes(10));
        Outbound first = sent("SITREP", 1, B);
        Outbound second = sent("SITREP", 2, B);
        Outbound third = sent("SITREP", 3, B);
        record(ledger, first, second, third);
        ledger.receipted(B, List.of(first.envelope().messageId(), second.envelope().messageId()));
        ledger.applyReceipts();

        assertThat(due(ledger)).isEmpty();
    }

    @Test
    void aResentMessageWaitsResendAfterBeforeItIsSentAgain() throws Exception {
        DeliveryLedger ledger = ledger(Duration.ofMinutes(10));
        Outbound missed = sent("SITREP", 1, B);
        Outbound later = sent("SITREP", 2, B);
        record(ledger, missed, later);
        ledger.receipted(B, List.of(later.envelope().messageId()));
        ledger.applyReceipts();
        try (Connection tx = db.dataSource().getConnection()) {
            tx.setAutoCommit(false);
            List<DeliveryLedger.Due> due = ledger.claimDue(tx, 100);
            assertThat(due).hasSize(1);
            ledger.reschedule(tx, due);
            tx.commit();
        }

        assertThat(due(ledger)).isEmpty();
    }

    @Test
    void aMessageWithoutAnyReceiptIsDueAfterResendMax() throws Exception {
        DeliveryLedger ledger = new DeliveryLedger(db.dataSource(), Duration.ofMillis(50), Duration.ofMillis(200),
                clock, CustodyLog.off());
        Outbound lonely = sent("SITREP", 1, B);
        record(ledger, lonely);

        clock.advance(Duration.ofMillis(199));
        ledger.upkeep(DeliveryLedgerTest::owedToB);
        assertThat(due(ledger)).as("not yet resendMax").isEmpty();
        clock.advance(Duration.ofMillis(2));

        List<DeliveryLedger.Due> due = due(ledger);
        assertThat(due).extracting(DeliveryLedger.Due::messageId).containsExactly(lonely.envelope().messageId());
        assertThat(due.getFirst().row().kmtfType()).isEqualTo("SITREP");
    }
}
