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
import kr.c4i.gateway.bridge.support.Kmtf;
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

/** The resender on its own, on the ledger the publisher filled; time is the test's clock. */
class OutboxResenderTest {

    private static final KmtfCatalogue CATALOGUE = KmtfCatalogue.loadDefault();
    private static final NodeId A = NodeId.of("a");
    private static final NodeId B = NodeId.of("b");
    private static final NodeId C = NodeId.of("c");
    private static final Duration RESEND_AFTER = Duration.ofSeconds(5);

    @TempDir
    Path dir;

    private InterfaceDatabase db;
    private final MutableClock clock = new MutableClock();
    private final RecordingTransport transport = new RecordingTransport();
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private DeliveryLedger ledger;
    private OutboxPublisher publisher;
    private OutboxResender resender;

    @BeforeEach
    void start() throws Exception {
        db = new InterfaceDatabase(dir.resolve("pg"));
        ledger = new DeliveryLedger(db.dataSource(), RESEND_AFTER, Duration.ofMinutes(10), clock, CustodyLog.off());
        BridgeMetrics metrics = new BridgeMetrics(registry, TransportKind.JMS);
        RowEnvelopes envelopes = new RowEnvelopes(new KmtfValidator(CATALOGUE),
                RoutingTable.of(Map.of(B, List.of("*"), C, List.of("*")), CATALOGUE), A,
                Clearances.unrestricted(), metrics);
        publisher = new OutboxPublisher(db.dataSource(), new OutboxRepository(db.dataSource()),
                new QuarantineRepository(), envelopes, A, transport, metrics, BadRowPolicy.QUARANTINE, ledger,
                new RowFailures(5), CustodyLog.off());
        resender = new OutboxResender(db.dataSource(), ledger, envelopes, transport, metrics,
                new QuarantineRepository(), A, CustodyLog.off());
    }

    @AfterEach
    void stop() throws Exception {
        db.close();
    }

    private List<String> sendSitreps(int count) throws Exception {
        for (int i = 0; i < count; i++) {
            db.insertOutbox("SITREP", Kmtf.message("SITREP", i));
        }
        assertThat(publisher.publishBatch(100)).isEqualTo(count);
        List<String> ids = transport.sent.stream().map(o -> o.envelope().messageId()).toList();
        transport.sent.clear();
        return ids;
    }

    @Test
    void aMissedMessageIsSentAgainOnlyToTheDestinationLackingItAndThenWaitsOnTheClock() throws Exception {
        List<String> ids = sendSitreps(2);
        ledger.receipted(B, List.of(ids.get(1)));
        ledger.receipted(C, List.of(ids.get(0), ids.get(1)));
        assertThat(resender.applyReceipts()).isEqualTo(3);

        assertThat(resender.resendDue(100)).isEqualTo(1);
        assertThat(transport.sent).singleElement().satisfies(o -> {
            assertThat(o.envelope().messageId()).isEqualTo(ids.get(0));
            assertThat(o.destinations()).containsExactly(B);
        });
        assertThat(registry.get("gateway.outbox.resent").counter().count()).isEqualTo(1);

        // Rescheduled: the second attempt waits twice resend-after, measured on the clock.
        assertThat(resender.resendDue(100)).isZero();
        clock.advance(RESEND_AFTER.multipliedBy(2).minusMillis(1));
        assertThat(resender.resendDue(100)).isZero();
        clock.advance(Duration.ofMillis(2));
        assertThat(resender.resendDue(100)).isEqualTo(1);
        assertThat(transport.sent).extracting(Outbound::destinations).containsExactly(List.of(B), List.of(B));
    }
}
