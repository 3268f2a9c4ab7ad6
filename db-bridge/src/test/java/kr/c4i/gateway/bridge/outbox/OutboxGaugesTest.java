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
import kr.c4i.gateway.core.transport.TransportKind;
import kr.c4i.gateway.custody.CustodyLog;
import kr.c4i.gateway.kmtf.KmtfValidator;
import kr.c4i.gateway.kmtf.catalogue.KmtfCatalogue;

class OutboxGaugesTest {

    private static final KmtfCatalogue CATALOGUE = KmtfCatalogue.loadDefault();
    private static final NodeId A = NodeId.of("a");
    private static final NodeId B = NodeId.of("b");

    @TempDir
    Path dir;

    private InterfaceDatabase db;
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final BridgeMetrics metrics = new BridgeMetrics(registry, TransportKind.JMS);
    private final RowFailures failures = new RowFailures(5);

    @BeforeEach
    void start() throws Exception {
        db = new InterfaceDatabase(dir.resolve("pg"));
    }

    @AfterEach
    void stop() throws Exception {
        db.close();
    }

    private double gauge(String name) {
        return registry.get(name).gauge().value();
    }

    @Test
    void refreshReadsTheBacklogAndTheUnreceiptedDeliveries() throws Exception {
        DeliveryLedger ledger = new DeliveryLedger(db.dataSource(), Duration.ofSeconds(5), Duration.ofSeconds(30),
                new MutableClock(), CustodyLog.off());
        OutboxRepository outbox = new OutboxRepository(db.dataSource());
        OutboxPublisher publisher = new OutboxPublisher(db.dataSource(), outbox, new QuarantineRepository(),
                new RowEnvelopes(new KmtfValidator(CATALOGUE), RoutingTable.of(Map.of(B, List.of("*")), CATALOGUE),
                        A, Clearances.unrestricted(), metrics),
                A, new RecordingTransport(), metrics, BadRowPolicy.QUARANTINE, ledger, failures,
                CustodyLog.off());
        for (int i = 0; i < 3; i++) {
            db.insertOutbox("SITREP", Kmtf.message("SITREP", i));
        }
        publisher.publishBatch(2);
        OutboxGauges gauges = new OutboxGauges(outbox, failures, ledger, metrics);
        assertThat(gauge("gateway.outbox.backlog")).as("not read before the poller says so").isZero();

        gauges.refresh();

        assertThat(gauge("gateway.outbox.backlog")).isEqualTo(1);
        assertThat(gauge("gateway.outbox.unreceipted")).isEqualTo(2);
    }

    @Test
    void aRetriedRowThatSomeoneElseSentIsNoLongerReportedAsRetried() throws Exception {
        db.insertOutbox("SITREP", Kmtf.message("SITREP", 1));
        db.insertOutbox("SITREP", Kmtf.message("SITREP", 2));
        List<Long> ids = db.strings("SELECT id FROM outbox ORDER BY id").stream().map(Long::valueOf).toList();
        ids.forEach(id -> failures.record(id, new IllegalStateException("transport bug (test)")));
        db.execute("UPDATE outbox SET sent_at = clock_timestamp(), sent_by = 'other' WHERE id = ?", ids.getFirst());

        new OutboxGauges(new OutboxRepository(db.dataSource()), failures, null, metrics).refresh();

        assertThat(failures.ids()).containsExactly(ids.get(1));
        assertThat(gauge("gateway.outbox.backlog")).isEqualTo(1);
        assertThat(gauge("gateway.outbox.unreceipted")).as("no ledger: left alone").isZero();
    }
}
