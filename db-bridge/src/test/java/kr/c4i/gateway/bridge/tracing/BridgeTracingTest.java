package kr.c4i.gateway.bridge.tracing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

import javax.sql.DataSource;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Import;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import kr.c4i.gateway.bridge.DbBridgeApplication;
import kr.c4i.gateway.bridge.support.Kmtf;
import kr.c4i.gateway.bridge.support.RecordingNode;
import kr.c4i.gateway.bridge.support.RecordingTransport;
import kr.c4i.gateway.tracing.MessageTracing;
import kr.c4i.gateway.tracing.SpanQueue;

/**
 * The whole bridge as deployed, tracing switched on by its one property, its collector hanging up on every
 * connection: the message's send span is queued on disk, the bridge says once that the collector cannot be reached,
 * and the exporter's own errors, attempt after attempt, stay out of the log; the queue's meters count the failed
 * exports. Its trace id goes with the message.
 */
@SpringBootTest(classes = DbBridgeApplication.class,
        properties = { "gateway.node.id=a", "gateway.jms.user=gateway", "gateway.jms.password=broker-secret",
                "spring.security.user.password=management-secret", "management.server.port=0",
                "gateway.routing.subscriptions.b=*", "gateway.jms.tls.plain-tcp=true", "gateway.tracing.enabled=true",
                "management.opentelemetry.tracing.export.schedule-delay=100ms" })
@Import(RecordingNode.class)
@ExtendWith(OutputCaptureExtension.class)
@DirtiesContext
class BridgeTracingTest {

    @TempDir
    static Path dir;

    private static final AtomicInteger attempts = new AtomicInteger();

    private static ServerSocket collector;

    @DynamicPropertySource
    static void queue(DynamicPropertyRegistry registry) throws IOException {
        collector = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread.ofPlatform().daemon().start(() -> {
            while (!collector.isClosed()) {
                try (Socket connection = collector.accept()) {
                    attempts.incrementAndGet();
                }
                catch (IOException closed) {
                    return;
                }
            }
        });
        registry.add("gateway.tracing.queue.directory", () -> dir.resolve("traces").toString());
        registry.add("management.opentelemetry.tracing.export.otlp.endpoint", BridgeTracingTest::endpoint);
    }

    @AfterAll
    static void closeCollector() throws IOException {
        collector.close();
    }

    private static String endpoint() {
        return "http://127.0.0.1:" + collector.getLocalPort() + "/v1/traces";
    }

    @Autowired
    DataSource dataSource;

    @Autowired
    RecordingTransport transport;

    @Autowired
    MessageTracing tracing;

    @Autowired
    SpanQueue queue;

    @Autowired
    PrometheusMeterRegistry prometheus;

    @Test
    void aMessagesSpanWaitsOnDiskWhileTheCollectorCannotBeReachedSaidOnce(CapturedOutput output) throws Exception {
        assertThat(tracing).isNotSameAs(MessageTracing.off());
        assertThat(queue.directory()).isEqualTo(dir.resolve("traces"));
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement(
                "INSERT INTO outbox (message_id, kmtf_type, body) VALUES ('m-traced', 'SITREP', convert_to(?, 'UTF8'))")) {
            ps.setString(1, Kmtf.message("SITREP", 1));
            ps.executeUpdate();
        }
        await().atMost(Duration.ofSeconds(20)).until(() -> !transport.sent.isEmpty());
        assertThat(transport.sent.peek().envelope().traceParent()).as("the send span's context").isNotNull();

        String unreachable = "The trace collector at " + endpoint() + " cannot be reached";
        await().atMost(Duration.ofSeconds(60)).until(() -> output.getOut().contains(unreachable));
        try (var files = Files.list(queue.directory())) {
            assertThat(files).as("the queued span").isNotEmpty();
        }
        int logged = attempts.get();
        await().atMost(Duration.ofSeconds(30)).until(() -> attempts.get() > logged);
        assertThat(output.getOut().split("cannot be reached", -1)).as("said once").hasSize(2);
        assertThat(output.getAll()).doesNotContain("Failed to export spans");

        // As the alerts on the queue read them (deploy/prometheus/alerts.yml).
        assertThat(prometheus.scrape()).contains("gateway_tracing_queue_bytes{", "gateway_tracing_queue_bound_bytes{",
                "gateway_tracing_spans_exported_total{").containsPattern("gateway_tracing_export_failures_total\\{[^}]*} [1-9]");
    }
}
