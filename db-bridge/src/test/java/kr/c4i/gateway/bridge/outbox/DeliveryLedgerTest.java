package kr.c4i.gateway.bridge.outbox;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

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

    private Outbound sent(String type, int serial, NodeId... destinations) throws Exception {
        String text = Kmtf.message(type, serial);
        db.insertOutbox(type, text);
        String id = db.strings("SELECT message_id FROM outbox ORDER BY id DESC LIMIT 1").getFirst();
        MessageType messageType = CATALOGUE.require(type);
        return new Outbound(new Envelope(id, A, type, messageType.defaultPrecedence(), "UNCLASSIFIED", Instant.now(),
                text.getBytes(StandardCharsets.UTF_8)), messageType, List.of(destinations));
    }

    private void record(DeliveryLedger ledger, Outbound... outbounds) throws Exception {
        try (Connection tx = db.dataSource().getConnection()) {
            ledger.record(tx, List.of(outbounds));
        }
    }

    private List<DeliveryLedger.Due> due(DeliveryLedger ledger) throws Exception {
        try (Connection tx = db.dataSource().getConnection()) {
            return ledger.claimDue(tx, 100);
        }
    }

    @Test
    void reliableMessagesAwaitAReceiptFromEachDestinationBestEffortOnesDoNot() throws Exception {
        DeliveryLedger ledger = new DeliveryLedger(db.dataSource(), Duration.ofSeconds(5), Duration.ofSeconds(30),
                clock, CustodyLog.off());
        String bestEffort = CATALOGUE.types().stream().filter(t -> t.reliability() == Reliability.BEST_EFFORT)
                .findFirst().orElseThrow().id();
        record(ledger, sent("SITREP", 1, B, C), sent(bestEffort, 2, B));

        assertThat(ledger.unreceipted()).isEqualTo(2);
        assertThat(db.strings("SELECT destination FROM outbox_delivery ORDER BY 1")).containsExactly("b", "c");
    }

    @Test
    void aReceiptAppliedByThePollerMarksTheDeliveryDone() throws Exception {
        DeliveryLedger ledger = new DeliveryLedger(db.dataSource(), Duration.ofSeconds(5), Duration.ofSeconds(30),
                clock, CustodyLog.off());
        Outbound sitrep = sent("SITREP", 1, B, C);
        record(ledger, sitrep);

        ledger.receipted(B, List.of(sitrep.envelope().messageId()));
        assertThat(ledger.unreceipted()).as("queued, not yet applied").isEqualTo(2);
        assertThat(ledger.applyReceipts()).isEqualTo(1);

        assertThat(ledger.unreceipted()).isEqualTo(1);
        assertThat(db.strings("SELECT destination FROM outbox_delivery")).as("b's receipted row deleted")
                .containsExactly("c");
    }

    @Test
    void aReceiptThatOvertakesTheSendersCommitIsAppliedAfterIt() throws Exception {
        DeliveryLedger ledger = new DeliveryLedger(db.dataSource(), Duration.ofSeconds(5), Duration.ofSeconds(30),
                clock, CustodyLog.off());
        Outbound sitrep = sent("SITREP", 1, B);
        ledger.receipted(B, List.of(sitrep.envelope().messageId()));
        record(ledger, sitrep);
        ledger.applyReceipts();

        assertThat(ledger.unreceipted()).isZero();
    }

    @Test
    void receiptsOfUntrackedMessagesChangeNothing() throws Exception {
        DeliveryLedger ledger = new DeliveryLedger(db.dataSource(), Duration.ofSeconds(5), Duration.ofSeconds(30),
                clock, CustodyLog.off());
        ledger.receipted(B, List.of("not-ours", "best-effort"));

        assertThat(ledger.applyReceipts()).isEqualTo(2);
        assertThat(db.count("SELECT count(*) FROM outbox_delivery")).isZero();
    }

    @Test
    void aMessageIsDueOnceItsDestinationHasReceiptedALaterOneOfTheSameType() throws Exception {
        DeliveryLedger ledger = new DeliveryLedger(db.dataSource(), Duration.ofSeconds(5), Duration.ofMinutes(10),
                clock, CustodyLog.off());
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
    void aBurstStillInFlightIsNotResentWhenItsFirstReceiptsArrive() throws Exception {
        DeliveryLedger ledger = new DeliveryLedger(db.dataSource(), Duration.ofSeconds(5), Duration.ofMinutes(10),
                clock, CustodyLog.off());
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
        DeliveryLedger ledger = new DeliveryLedger(db.dataSource(), Duration.ofSeconds(5), Duration.ofMinutes(10),
                clock, CustodyLog.off());
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
        assertThat(due(ledger)).as("not yet resendMax").isEmpty();
        clock.advance(Duration.ofMillis(2));

        List<DeliveryLedger.Due> due = due(ledger);
        assertThat(due).extracting(DeliveryLedger.Due::messageId).containsExactly(lonely.envelope().messageId());
        assertThat(due.getFirst().row().kmtfType()).isEqualTo("SITREP");
    }
}
