package kr.c4i.gateway.bridge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

import kr.c4i.gateway.bridge.config.OutboxProperties;
import kr.c4i.gateway.bridge.inbox.InboxWriter;
import kr.c4i.gateway.bridge.metrics.BridgeMetrics;
import kr.c4i.gateway.bridge.outbox.OutboxLoop;
import kr.c4i.gateway.bridge.outbox.OutboxPoller;
import kr.c4i.gateway.bridge.support.InterfaceDatabase;
import kr.c4i.gateway.bridge.support.Kmtf;
import kr.c4i.gateway.bridge.support.RecordingTransport;
import kr.c4i.gateway.core.NodeId;
import kr.c4i.gateway.core.routing.RoutingTable;
import kr.c4i.gateway.core.transport.TransportKind;
import kr.c4i.gateway.custody.CustodyLog;
import kr.c4i.gateway.kmtf.catalogue.KmtfCatalogue;

class BridgeLifecycleTest {

    private static final KmtfCatalogue CATALOGUE = KmtfCatalogue.loadDefault();

    @TempDir
    Path dir;

    @Test
    void theOutboxIsPublishedAndTheBridgeStartedOnlyOnceEveryPublishGateOpened() throws Exception {
        try (InterfaceDatabase db = new InterfaceDatabase(dir.resolve("pg"))) {
            db.insertOutbox("SITREP", Kmtf.message("SITREP", 1));
            RecordingTransport transport = new RecordingTransport();
            BridgeMetrics metrics = new BridgeMetrics(new SimpleMeterRegistry(), TransportKind.JMS);
            OutboxProperties properties = new Binder(new MapConfigurationPropertySource(
                    Map.of("gateway.outbox.idle-poll", "100ms"))).bindOrCreate("gateway.outbox", OutboxProperties.class);
            OutboxPoller poller = OutboxLoop.poller(db.dataSource(), properties, CATALOGUE,
                    RoutingTable.of(Map.of(NodeId.of("b"), List.of("*")), CATALOGUE), NodeId.of("a"), transport,
                    metrics, null, Clock.systemUTC());
            CountDownLatch matched = new CountDownLatch(1);
            BridgeLifecycle lifecycle = new BridgeLifecycle(transport,
                    new InboxWriter(db.dataSource(), metrics, CustodyLog.off()),
                    poller, null, true, false, List.of(matched::await));
            Thread starting = Thread.ofPlatform().start(lifecycle::start);
            try {
                await().during(Duration.ofMillis(500)).atMost(Duration.ofSeconds(10))
                        .until(() -> transport.sent.isEmpty() && !lifecycle.isRunning() && starting.isAlive());
                matched.countDown();
                await().atMost(Duration.ofSeconds(20)).until(() -> transport.sent.size() == 1);
                starting.join(10_000);
                assertThat(lifecycle.isRunning()).isTrue();
            }
            finally {
                matched.countDown();
                starting.join(10_000);
                lifecycle.stop();
            }
        }
    }
}
