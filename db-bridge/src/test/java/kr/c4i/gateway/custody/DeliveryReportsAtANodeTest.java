package kr.c4i.gateway.custody;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import kr.c4i.gateway.bridge.inbox.InboundQuarantine;
import kr.c4i.gateway.bridge.inbox.InboundValidator;
import kr.c4i.gateway.bridge.inbox.InboxWriter;
import kr.c4i.gateway.bridge.metrics.BridgeMetrics;
import kr.c4i.gateway.bridge.support.InterfaceDatabase;
import kr.c4i.gateway.core.Envelope;
import kr.c4i.gateway.core.NodeId;
import kr.c4i.gateway.core.transport.TransportKind;
import kr.c4i.gateway.jdbc.DatabaseOwner;
import kr.c4i.gateway.jdbc.Transactions;
import kr.c4i.gateway.kmtf.catalogue.Precedence;

/**
 * Node b's custody log as the reports of the nodes of its site read it (db-bridge V11), on a real interface database:
 * what b's inbox and its inbound quarantine did with each origin's messages, split by origin; b's own messages' steps
 * are no one's reports.
 */
class DeliveryReportsAtANodeTest {

    private static final NodeId A = NodeId.of("a");
    private static final NodeId X = NodeId.of("x");

    @TempDir
    Path dir;

    private InterfaceDatabase db;
    private CustodyLog custody;
    private DeliveryReports reports;

    @BeforeEach
    void start() throws Exception {
        db = new InterfaceDatabase(dir.resolve("pg"));
        custody = new CustodyLog("b", "jms");
        reports = new DeliveryReports(db.dataSource(), new DatabaseOwner("node", "b", "gateway.node.id"));
    }

    @AfterEach
    void stop() throws Exception {
        db.close();
    }

    private static Envelope envelope(String id, NodeId origin) {
        return new Envelope(id, origin, "SITREP", Precedence.FLASH, "UNCLASSIFIED",
                Instant.now().truncatedTo(ChronoUnit.MICROS), ("MSGID/SITREP/" + id + "//")
                        .getBytes(StandardCharsets.UTF_8));
    }

    private static InboundQuarantine.Kept kept(String id, String origin, String kind) {
        return new InboundQuarantine.Kept(origin, id, "SITREP", null, "FLASH", "SECRET", null, kind, "why", null);
    }

    @Test
    void theInboxesAndTheQuarantinesStepsAreTheirOriginsReportsByNodeB() throws Exception {
        new InboxWriter(db.dataSource(), new BridgeMetrics(new SimpleMeterRegistry(), TransportKind.JMS), custody)
                .deliver(List.of(envelope("a-1", A), envelope("x-1", X), envelope("a-2", A)));
        new InboundQuarantine(db.dataSource(), "jms", custody).keep(List.of(kept("a-3", "a", "unknown-type"),
                kept("a-4", "a", InboundValidator.CLEARANCE_EXCEEDED), kept("x-2", "x", "unknown-type"),
                kept("n-1", "No Node", "unknown-type")));
        // b's own outbox quarantines a row: a step without an origin.
        Transactions.durable(db.dataSource(), tx -> {
            custody.entries().add(CustodyEvent.QUARANTINED, "b-1", List.of(), null, "bad-row").write(tx);
            return null;
        });

        List<DeliveryReports.Report> ofA = reports.after(A, 0, 10);

        assertThat(ofA).extracting(r -> r.reporter() + " " + r.event() + " " + r.messageIds() + " " + r.peers() + " "
                + r.precedence() + " " + r.delivered()).containsExactly(
                        "node b delivered [a-1, a-2] [a] FLASH true",
                        "node b quarantined [a-3] [a] FLASH false",
                        "node b refused [a-4] [a] FLASH false");
        assertThat(ofA.get(1).detail()).isEqualTo("unknown-type: why");
        assertThat(reports.after(A, ofA.getFirst().id(), 10)).containsExactlyElementsOf(ofA.subList(1, 3));
        assertThat(reports.after(A, ofA.getLast().id(), 10)).isEmpty();
        assertThat(reports.after(X, 0, 10)).extracting(r -> r.event() + " " + r.messageIds())
                .containsExactly("delivered [x-1]", "quarantined [x-2]");
        assertThat(reports.after(NodeId.of("b"), 0, 10)).as("b's own steps").isEmpty();
        assertThat(db.strings("SELECT event || ' ' || coalesce(origin, '-') FROM custody_log "
                + "WHERE message_ids && ARRAY['n-1', 'b-1'] ORDER BY id"))
                .as("a claimed origin that is no node id, b's own message").containsExactly("quarantined -",
                        "quarantined -");
    }
}
