package kr.c4i.gateway.bridge.outbox;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import kr.c4i.gateway.bridge.config.OutboxProperties.BadRowPolicy;
import kr.c4i.gateway.bridge.metrics.BridgeMetrics;
import kr.c4i.gateway.bridge.quarantine.QuarantineRepository;
import kr.c4i.gateway.bridge.support.InterfaceDatabase;
import kr.c4i.gateway.bridge.support.MutableClock;
import kr.c4i.gateway.bridge.support.RecordingTransport;
import kr.c4i.gateway.core.NodeId;
import kr.c4i.gateway.core.routing.Clearances;
import kr.c4i.gateway.core.routing.RoutingTable;
import kr.c4i.gateway.core.transport.Outbound;
import kr.c4i.gateway.core.transport.TransportKind;
import kr.c4i.gateway.custody.CustodyLog;
import kr.c4i.gateway.kmtf.KmtfValidator;
import kr.c4i.gateway.kmtf.catalogue.KmtfCatalogue;
import kr.c4i.gateway.kmtf.text.Classification;
import kr.c4i.gateway.kmtf.text.KmtfMessageBuilder;

/**
 * Classification-aware delivery at the origin, on a real interface database: b is cleared CONFIDENTIAL, c SECRET, d
 * not at all (so UNCLASSIFIED); all three subscribe to every type.
 */
class OutboxClearanceTest {

    private static final KmtfCatalogue CATALOGUE = KmtfCatalogue.loadDefault();
    private static final NodeId A = NodeId.of("a");
    private static final NodeId B = NodeId.of("b");
    private static final NodeId C = NodeId.of("c");
    private static final NodeId D = NodeId.of("d");
    private static final RoutingTable ROUTING = RoutingTable.of(Map.of(B, List.of("*"), C, List.of("*"), D,
            List.of("*")), CATALOGUE);
    private static final Clearances CLEARANCES = Clearances.of(Map.of("b", "CONFIDENTIAL", "c", "SECRET"),
            Classification.UNCLASSIFIED, "gateway.routing.clearances");

    @TempDir
    Path dir;

    private InterfaceDatabase db;
    private final MutableClock clock = new MutableClock();
    private final RecordingTransport transport = new RecordingTransport();
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final BridgeMetrics metrics = new BridgeMetrics(registry, TransportKind.DDS);
    private DeliveryLedger ledger;

    @BeforeEach
    void start() throws Exception {
        db = new InterfaceDatabase(dir.resolve("pg"));
        ledger = new DeliveryLedger(db.dataSource(), Duration.ofSeconds(5), Duration.ofMinutes(1), clock,
                CustodyLog.off());
    }

    @AfterEach
    void stop() throws Exception {
        db.close();
    }

    private RowEnvelopes envelopes(Clearances clearances) {
        return new RowEnvelopes(new KmtfValidator(CATALOGUE), ROUTING, A, clearances, metrics);
    }

    private OutboxPublisher publisher(Clearances clearances, BadRowPolicy policy) {
        return new OutboxPublisher(db.dataSource(), new OutboxRepository(db.dataSource()), new QuarantineRepository(),
                envelopes(clearances), A, transport, metrics, policy, ledger, new RowFailures(5),
                CustodyLog.off());
    }

    static String message(String classification, int serial) {
        return new KmtfMessageBuilder().classification(classification).msgid("SITREP", "1CORPS",
                Integer.toString(serial)).set("DTG", "211430ZNOV2026").freeText("NARR", "NO CONTACT " + serial)
                .build().render();
    }

    private void insert(String messageId, String classification, int serial) throws Exception {
        db.execute("INSERT INTO outbox (message_id, kmtf_type, body) VALUES (?, 'SITREP', convert_to(?, 'UTF8'))",
                messageId, message(classification, serial));
    }

    private List<NodeId> sentTo(String messageId) {
        return transport.sent.stream().filter(o -> o.envelope().messageId().equals(messageId))
                .flatMap(o -> o.destinations().stream()).toList();
    }

    private double refused(String destination) {
        var counter = registry.find("gateway.clearance.refused").tag("destination", destination).counter();
        return counter == null ? 0 : counter.count();
    }

    @Test
    void aMessageGoesOnlyToTheDestinationsClearedForItAndEachRefusalIsQuarantinedAndCounted() throws Exception {
        insert("u", "UNCLASSIFIED", 1);
        insert("c", "CONFIDENTIAL", 2);
        insert("s", "SECRET//REL TO USA, KOR", 3);
        insert("ts", "TOP SECRET", 4);
        insert("none", "UNCLASSIFIED", 5);
        // A message without a classification line is UNCLASSIFIED: every subscriber gets it.
        db.execute("UPDATE outbox SET body = convert_to(?, 'UTF8') WHERE message_id = 'none'",
                "MSGID/SITREP/1CORPS/5//\nNARR/NO LINE//\n");

        assertThat(publisher(CLEARANCES, BadRowPolicy.QUARANTINE).publishBatch(100)).isEqualTo(5);

        assertThat(sentTo("u")).containsExactly(B, C, D);
        assertThat(sentTo("none")).containsExactly(B, C, D);
        assertThat(sentTo("c")).containsExactly(B, C);
        assertThat(sentTo("s")).containsExactly(C);
        assertThat(sentTo("ts")).as("refused everywhere: not sent at all").isEmpty();
        assertThat(transport.sent).extracting(o -> o.envelope().messageId())
                .containsExactlyInAnyOrder("u", "none", "c", "s");

        // One quarantine row per refused destination, with the reason and the original bytes.
        assertThat(db.strings("""
                SELECT message_id || ' ' || reason_kind || ' ' || reason FROM quarantine ORDER BY message_id, reason"""))
                .containsExactly(
                        "c clearance-exceeded destination d is cleared UNCLASSIFIED; the message is CONFIDENTIAL "
                                + "('CONFIDENTIAL'): not sent there",
                        "s clearance-exceeded destination b is cleared CONFIDENTIAL; the message is SECRET "
                                + "('SECRET//REL TO USA, KOR'): not sent there",
                        "s clearance-exceeded destination d is cleared UNCLASSIFIED; the message is SECRET "
                                + "('SECRET//REL TO USA, KOR'): not sent there",
                        "ts clearance-exceeded destination b is cleared CONFIDENTIAL; the message is TOP SECRET "
                                + "('TOP SECRET'): not sent there",
                        "ts clearance-exceeded destination c is cleared SECRET; the message is TOP SECRET "
                                + "('TOP SECRET'): not sent there",
                        "ts clearance-exceeded destination d is cleared UNCLASSIFIED; the message is TOP SECRET "
                                + "('TOP SECRET'): not sent there");
        assertThat(db.strings("SELECT DISTINCT convert_from(body, 'UTF8') FROM quarantine WHERE message_id = 's'"))
                .containsExactly(message("SECRET//REL TO USA, KOR", 3));
        assertThat(db.strings("SELECT DISTINCT quarantined_by FROM quarantine")).containsExactly("a");

        // Sent to some: marked sent; refused to all: out of the outbox, nothing left pending or awaiting receipts.
        assertThat(db.strings("SELECT message_id FROM outbox WHERE sent_at IS NOT NULL ORDER BY 1"))
                .containsExactly("c", "none", "s", "u");
        assertThat(db.count("SELECT count(*) FROM outbox WHERE message_id = 'ts'")).isZero();
        ledger.release();
        assertThat(db.strings("SELECT message_id || ' ' || destination FROM outbox_delivery ORDER BY 1"))
                .as("RELIABLE SITREP: receipts awaited from the cleared destinations only")
                .containsExactly("c b", "c c", "none b", "none c", "none d", "s c", "u b", "u c", "u d");

        assertThat(refused("b")).isEqualTo(2);
        assertThat(refused("c")).isEqualTo(1);
        assertThat(refused("d")).isEqualTo(3);
        assertThat(registry.get("gateway.outbox.quarantined").tag("reason", "clearance-exceeded").counter().count())
                .isEqualTo(6);
    }

    @Test
    void refusalsForClearanceAreQuarantinedEvenUnderTheFailPolicyWhichIsForBadRows() throws Exception {
        insert("s", "SECRET", 1);
        insert("u", "UNCLASSIFIED", 2);

        assertThat(publisher(CLEARANCES, BadRowPolicy.FAIL).publishBatch(100)).isEqualTo(2);

        assertThat(sentTo("s")).containsExactly(C);
        assertThat(sentTo("u")).containsExactly(B, C, D);
        assertThat(db.count("SELECT count(*) FROM quarantine WHERE message_id = 's'")).isEqualTo(2);
    }

    @Test
    void aDestinationWhoseClearanceWasLoweredSinceTheFirstSendIsNotSentItAgainNorAwaitedAndTheRefusalIsKept() throws Exception {
        insert("s", "SECRET", 1);
        assertThat(publisher(Clearances.unrestricted(), BadRowPolicy.QUARANTINE).publishBatch(100)).isEqualTo(1);
        assertThat(sentTo("s")).containsExactly(B, C, D);
        transport.sent.clear();

        // Restarted with b and d not cleared for SECRET; no receipt came, so all three are due again.
        clock.advance(Duration.ofMinutes(2));
        OutboxResender resender = new OutboxResender(db.dataSource(), ledger, envelopes(CLEARANCES), transport,
                metrics, new QuarantineRepository(), A, CustodyLog.off());
        resender.upkeep();
        assertThat(resender.resendDue(100)).isEqualTo(3);

        assertThat(transport.sent).extracting(Outbound::destinations).containsExactly(List.of(C));
        // Refused like a first send: quarantined with the reason, counted, and no longer awaited from b and d.
        assertThat(db.strings("SELECT reason FROM quarantine ORDER BY reason")).containsExactly(
                "destination b is cleared CONFIDENTIAL; the message is SECRET ('SECRET'): not sent there",
                "destination d is cleared UNCLASSIFIED; the message is SECRET ('SECRET'): not sent there");
        assertThat(db.strings("SELECT destination FROM outbox_delivery")).containsExactly("c");
        assertThat(refused("b") + refused("d")).isEqualTo(2);
        assertThat(db.count("SELECT count(*) FROM outbox WHERE message_id = 's' AND sent_at IS NOT NULL"))
                .isEqualTo(1);
    }
}
