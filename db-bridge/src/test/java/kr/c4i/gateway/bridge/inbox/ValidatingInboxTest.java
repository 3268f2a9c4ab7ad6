package kr.c4i.gateway.bridge.inbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import kr.c4i.gateway.bridge.metrics.BridgeMetrics;
import kr.c4i.gateway.bridge.support.InterfaceDatabase;
import kr.c4i.gateway.bridge.support.Kmtf;
import kr.c4i.gateway.core.Envelope;
import kr.c4i.gateway.core.NodeId;
import kr.c4i.gateway.core.metrics.MetricNames;
import kr.c4i.gateway.core.transport.InboundRefusal;
import kr.c4i.gateway.core.transport.TransportKind;
import kr.c4i.gateway.custody.CustodyLog;
import kr.c4i.gateway.kmtf.KmtfValidator;
import kr.c4i.gateway.kmtf.catalogue.KmtfCatalogue;
import kr.c4i.gateway.kmtf.catalogue.Precedence;

/** The transport-neutral half against a real PostgreSQL: what a JMS or DDS transport hands over. */
class ValidatingInboxTest {

    @TempDir
    Path dir;

    private InterfaceDatabase db;
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private ValidatingInbox inbox;

    @BeforeEach
    void start() throws Exception {
        db = new InterfaceDatabase(dir.resolve("pg"));
        BridgeMetrics metrics = new BridgeMetrics(registry, TransportKind.JMS);
        inbox = new ValidatingInbox(new InboundValidator(new KmtfValidator(KmtfCatalogue.loadDefault())),
                new InboxWriter(db.dataSource(), metrics, CustodyLog.off()),
                new InboundQuarantine(db.dataSource(), "jms", CustodyLog.off()), metrics);
    }

    @AfterEach
    void stop() throws Exception {
        db.close();
    }

    private static Envelope envelope(String id, String classification, Instant created) {
        return new Envelope(id, NodeId.of("alpha"), "SITREP", Precedence.PRIORITY, classification, created,
                Kmtf.message("SITREP", id.length()).getBytes(StandardCharsets.UTF_8));
    }

    private double rejected(String kind) {
        var counter = registry.find(MetricNames.INBOUND_REJECTED).tag(MetricNames.TAG_REASON, kind)
                .tag(MetricNames.TAG_TRANSPORT, "jms").counter();
        return counter == null ? 0 : counter.count();
    }

    @Test
    void badEnvelopesAreQuarantinedAndTheGoodOnesOfTheBatchStillGoIn() throws Exception {
        Instant now = Instant.now().truncatedTo(ChronoUnit.MICROS);
        Envelope good1 = envelope("good-1", "UNCLASSIFIED", now);
        Envelope good2 = envelope("good-2", "UNCLASSIFIED", now);
        // Written as it is, this one fails the inbox's whole batch, which the transport hands again for ever.
        Envelope nul = envelope("nul\u0000id", "UNCLASSIFIED", now);
        Envelope future = envelope("far-future", "UNCLASSIFIED", Instant.parse("+100000-01-01T00:00:00Z"));
        Envelope relabelled = envelope("relabelled", "SECRET", now);

        InboxWriter unchecked = new InboxWriter(db.dataSource(),
                new BridgeMetrics(new SimpleMeterRegistry(), TransportKind.JMS), CustodyLog.off());
        assertThatThrownBy(() -> unchecked.deliver(List.of(good1, nul))).isInstanceOf(SQLException.class);

        List<Envelope> delivered = inbox.deliver(List.of(good1, nul, future, good2, relabelled), List.of());

        assertThat(delivered).containsExactly(good1, good2);
        assertThat(db.strings("SELECT message_id FROM inbox ORDER BY message_id")).containsExactly("good-1", "good-2");
        assertThat(db.strings("SELECT concat_ws('|', transport, origin_node, message_id, kmtf_type, precedence, "
                + "classification, reason_kind, coalesce(created_at::text, 'null'), body_size = octet_length(body)) "
                + "FROM inbound_quarantine ORDER BY id")).containsExactly(
                        "jms|alpha|nul\uFFFDid|SITREP|PRIORITY|UNCLASSIFIED|invalid-message-id|" + db.strings(
                                "SELECT '" + now + "'::timestamptz::text").getFirst() + "|t",
                        "jms|alpha|far-future|SITREP|PRIORITY|UNCLASSIFIED|invalid-created-at|null|t",
                        "jms|alpha|relabelled|SITREP|PRIORITY|SECRET|classification-mismatch|"
                                + db.strings("SELECT '" + now + "'::timestamptz::text").getFirst() + "|t");
        assertThat(db.strings("SELECT reason FROM inbound_quarantine WHERE message_id = 'far-future'"))
                .singleElement().asString().contains("+100000-01-01T00:00:00Z");
        assertThat(rejected(InboundValidator.INVALID_MESSAGE_ID)).isEqualTo(1);
        assertThat(rejected(InboundValidator.INVALID_CREATED_AT)).isEqualTo(1);
        assertThat(rejected(InboundValidator.CLASSIFICATION_MISMATCH)).isEqualTo(1);
    }

    @Test
    void whatTheTransportCouldNotReadIsKeptStorablyAndBounded() throws Exception {
        byte[] huge = new byte[InboundQuarantine.MAX_KEPT_BODY + 10];
        huge[0] = 'X';
        inbox.deliver(List.of(), List.of(
                new InboundRefusal(null, null, null, "kmtf/operations/SITREP", "undecodable", "could not decode",
                        null),
                new InboundRefusal("Not\u0000A Node", "x".repeat(10_000), "SITREP", "kmtf/operations/SITREP",
                        "invalid-origin", "origin is not a node id", huge)));

        assertThat(db.strings("SELECT concat_ws('|', coalesce(origin_node, '-'), coalesce(length(message_id), 0), "
                + "topic, reason_kind, coalesce(octet_length(body), -1), coalesce(body_size, -1)) "
                + "FROM inbound_quarantine ORDER BY id")).containsExactly(
                        "-|0|kmtf/operations/SITREP|undecodable|-1|-1",
                        "Not\uFFFDA Node|" + InboundQuarantine.MAX_CLAIMED_CHARS + "|kmtf/operations/SITREP"
                                + "|invalid-origin|" + InboundQuarantine.MAX_KEPT_BODY + "|" + huge.length);
        assertThat(db.count("SELECT count(*) FROM inbox")).isZero();
        assertThat(rejected("undecodable")).isEqualTo(1);
        assertThat(rejected("invalid-origin")).isEqualTo(1);
    }

    @Test
    void aRefusedMessageSentAgainCountsOnItsRowInsteadOfAddingRows() throws Exception {
        Envelope relabelled = envelope("relabelled", "SECRET", Instant.now());
        for (int i = 0; i < 3; i++) {
            assertThat(inbox.deliver(List.of(relabelled, relabelled), List.of())).isEmpty();
        }
        assertThat(db.strings("SELECT times_received || '|' || (last_received_at > received_at)::text "
                + "FROM inbound_quarantine")).containsExactly("6|true");
        assertThat(rejected(InboundValidator.CLASSIFICATION_MISMATCH)).isEqualTo(6);
    }

    @Test
    void anEnvelopeTheInboxItselfRefusesIsQuarantinedAloneInsteadOfStallingTheBatch() throws Exception {
        try (Connection c = db.dataSource().getConnection(); Statement s = c.createStatement()) {
            s.execute("ALTER TABLE inbox ADD CONSTRAINT operator_rule CHECK (message_id <> 'vetoed')");
        }
        Instant now = Instant.now();
        Envelope good1 = envelope("good-1", "UNCLASSIFIED", now);
        Envelope vetoed = envelope("vetoed", "UNCLASSIFIED", now);
        Envelope good2 = envelope("good-2", "UNCLASSIFIED", now);

        assertThat(inbox.deliver(List.of(good1, vetoed, good2), List.of())).containsExactly(good1, good2);

        assertThat(db.strings("SELECT message_id FROM inbox ORDER BY message_id")).containsExactly("good-1", "good-2");
        assertThat(db.strings("SELECT reason_kind || '|' || (reason LIKE '%operator_rule%')::text "
                + "FROM inbound_quarantine WHERE message_id = 'vetoed'"))
                .containsExactly(ValidatingInbox.INBOX_REFUSED + "|true");
        assertThat(rejected(ValidatingInbox.INBOX_REFUSED)).isEqualTo(1);
    }
}
