package kr.c4i.gateway.bridge.outbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.LinkData;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import kr.c4i.gateway.bridge.config.OutboxProperties;
import kr.c4i.gateway.bridge.config.OutboxProperties.BadRowPolicy;
import kr.c4i.gateway.bridge.inbox.InboundQuarantine;
import kr.c4i.gateway.bridge.inbox.InboundValidator;
import kr.c4i.gateway.bridge.inbox.InboxWriter;
import kr.c4i.gateway.bridge.inbox.ValidatingInbox;
import kr.c4i.gateway.bridge.metrics.BridgeMetrics;
import kr.c4i.gateway.bridge.support.InterfaceDatabase;
import kr.c4i.gateway.bridge.support.Kmtf;
import kr.c4i.gateway.bridge.support.RecordingTransport;
import kr.c4i.gateway.core.Envelope;
import kr.c4i.gateway.core.NodeId;
import kr.c4i.gateway.core.TraceParent;
import kr.c4i.gateway.core.metrics.MetricNames;
import kr.c4i.gateway.core.routing.Clearances;
import kr.c4i.gateway.core.routing.RoutingTable;
import kr.c4i.gateway.core.transport.Outbound;
import kr.c4i.gateway.core.transport.TransportBusyException;
import kr.c4i.gateway.core.transport.TransportKind;
import kr.c4i.gateway.core.transport.TransportUnavailableException;
import kr.c4i.gateway.custody.CustodyLog;
import kr.c4i.gateway.dds.ParticipantSettings;
import kr.c4i.gateway.dds.transport.DdsTransport;
import kr.c4i.gateway.dds.transport.DdsTransportSettings;
import kr.c4i.gateway.kmtf.KmtfValidator;
import kr.c4i.gateway.kmtf.catalogue.KmtfCatalogue;
import kr.c4i.gateway.tracing.MessageTracing;

/**
 * The creation context a C4I application writes into {@code outbox.traceparent} goes with its message into the
 * receiving node's {@code inbox.traceparent}; a value that is not one holds nothing up; with tracing on, each message
 * has a PRODUCER span where it is sent and a CONSUMER span where it is stored, linked to its creation context, and a
 * message without one gets its producer span's. Real PostgreSQL for both nodes.
 */
@Timeout(180)
@ExtendWith(OutputCaptureExtension.class)
class OutboxTraceParentTest {

    private static final KmtfCatalogue CATALOGUE = KmtfCatalogue.loadDefault();
    private static final NodeId A = NodeId.of("a");
    private static final NodeId B = NodeId.of("b");
    private static final RoutingTable ROUTING = RoutingTable.of(Map.of(B, List.of("*")), CATALOGUE);
    private static final String CREATION = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
    private static final String MALFORMED = "00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01";

    @TempDir
    Path dir;

    private InterfaceDatabase a;
    private InterfaceDatabase b;
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final List<AutoCloseable> opened = new ArrayList<>();

    @BeforeEach
    void start() throws Exception {
        a = new InterfaceDatabase(dir.resolve("pg-a"));
        b = new InterfaceDatabase(dir.resolve("pg-b"));
        a.execute("INSERT INTO outbox (message_id, kmtf_type, body, traceparent) VALUES "
                + "('m-context', 'SITREP', convert_to(?, 'UTF8'), ?), "
                + "('m-malformed', 'SITREP', convert_to(?, 'UTF8'), ?), "
                + "('m-none', 'SITREP', convert_to(?, 'UTF8'), NULL)",
                Kmtf.message("SITREP", 1), CREATION, Kmtf.message("SITREP", 2), MALFORMED, Kmtf.message("SITREP", 3));
    }

    @AfterEach
    void stop() throws Exception {
        for (AutoCloseable c : opened.reversed()) {
            c.close();
        }
        a.close();
        b.close();
    }

    /** Over DDS (real Cyclone DDS on loopback), tracing off, as a node runs by default. */
    @Test
    void theApplicationsCreationContextGoesFromTheOutboxIntoTheInboxAndAMalformedOneHoldsNothingUp(
            CapturedOutput output) throws Exception {
        BridgeMetrics atA = new BridgeMetrics(registry, TransportKind.DDS);
        BridgeMetrics atB = new BridgeMetrics(new SimpleMeterRegistry(), TransportKind.DDS);
        DdsTransport bravo = dds(B, Set.of("SITREP"));
        bravo.open();
        bravo.subscribe(new ValidatingInbox(new InboundValidator(new KmtfValidator(CATALOGUE)),
                new InboxWriter(b.dataSource(), atB, CustodyLog.off()),
                new InboundQuarantine(b.dataSource(), "dds", CustodyLog.off()), atB));
        DdsTransport alpha = dds(A, Set.of());
        alpha.open();
        assertThat(alpha.awaitRemoteReaders(Map.of("SITREP", 1), Duration.ofSeconds(30))).isEmpty();

        OutboxPoller poller = OutboxLoop.poller(a.dataSource(), properties(), CATALOGUE, ROUTING,
                Clearances.unrestricted(), A, alpha, atA, null, Clock.systemUTC(), CustodyLog.off());
        opened.add(poller);
        poller.start();
        await().atMost(Duration.ofSeconds(60)).until(() -> b.count("SELECT count(*) FROM inbox") == 3);

        assertThat(a.count("SELECT count(*) FROM quarantine")).as("nothing quarantined at a").isZero();
        assertThat(a.count("SELECT count(*) FROM outbox WHERE sent_at IS NULL")).isZero();
        assertThat(registry.get(MetricNames.OUTBOX_TRACEPARENT_INVALID).counter().count()).isEqualTo(1);
        assertThat(output.getOut().lines().filter(l -> l.contains("WARN") && l.contains("'m-malformed'")))
                .singleElement().asString().contains("traceparent");
        assertThat(inboxTraceParent("m-malformed")).as("went without a creation context").isNull();
        assertThat(inboxTraceParent("m-none")).as("none, and tracing is off").isNull();
        assertThat(inboxTraceParent("m-context")).isEqualTo(CREATION);
    }

    /**
     * The broker is down for the first two sends: each failed send's spans say so, the batch is sent again, and the
     * malformed traceparent is still reported once.
     */
    @Test
    void withTracingOnEachMessageHasProducerAndConsumerSpansLinkedToItsCreationContext(CapturedOutput output)
            throws Exception {
        InMemorySpanExporter exporter = InMemorySpanExporter.create();
        SdkTracerProvider provider = SdkTracerProvider.builder().addSpanProcessor(SimpleSpanProcessor.create(exporter))
                .build();
        opened.add(provider);
        MessageTracing tracing = MessageTracing.of(OpenTelemetrySdk.builder().setTracerProvider(provider).build());
        BridgeMetrics atA = new BridgeMetrics(registry, TransportKind.JMS);
        RecordingTransport transport = new RecordingTransport();
        transport.failNext(2);
        OutboxPoller poller = OutboxLoop.poller(a.dataSource(), properties(), CATALOGUE, ROUTING,
                Clearances.unrestricted(), A, transport, atA, null, Clock.systemUTC(), CustodyLog.off(), tracing);
        opened.add(poller);
        poller.start();
        await().atMost(Duration.ofSeconds(30)).until(() -> transport.sent.size() == 3);

        Map<String, Envelope> sent = transport.sent.stream().map(Outbound::envelope)
                .collect(Collectors.toMap(Envelope::messageId, Function.identity()));
        List<SpanData> failed = exporter.getFinishedSpanItems().stream()
                .filter(s -> s.getStatus().getStatusCode() == StatusCode.ERROR).toList();
        assertThat(failed).hasSize(6).allSatisfy(span -> {
            assertThat(span.getKind()).isEqualTo(SpanKind.PRODUCER);
            assertThat(span.getAttributes().get(AttributeKey.stringKey("error.type")))
                    .isEqualTo(TransportUnavailableException.class.getName());
        });
        assertThat(registry.get(MetricNames.OUTBOX_TRACEPARENT_INVALID).counter().count()).isEqualTo(1);
        assertThat(output.getOut().lines().filter(l -> l.contains("WARN") && l.contains("'m-malformed'")))
                .hasSize(1);
        Map<String, SpanData> producers = byMessage(succeeded(exporter), SpanKind.PRODUCER);
        assertThat(producers.keySet()).containsExactlyInAnyOrder("m-context", "m-malformed", "m-none");
        SpanData producer = producers.get("m-context");
        assertThat(producer.getName()).isEqualTo("send SITREP");
        assertThat(producer.getAttributes().get(AttributeKey.stringKey("messaging.system"))).isEqualTo("jms");
        assertThat(producer.getAttributes().get(AttributeKey.stringKey("messaging.operation.type"))).isEqualTo("send");
        assertThat(producer.getAttributes().get(AttributeKey.stringKey("messaging.destination.name")))
                .isEqualTo("SITREP");
        assertThat(producer.getAttributes().get(AttributeKey.longKey("messaging.batch.message_count"))).isEqualTo(3);
        assertThat(links(producer)).containsExactly(CREATION.substring(3, 52));
        assertThat(sent.get("m-context").traceParent()).isEqualTo(new TraceParent(CREATION));
        for (String started : List.of("m-malformed", "m-none")) {
            SpanData own = producers.get(started);
            assertThat(links(own)).as(started).isEmpty();
            assertThat(sent.get(started).traceParent()).as("%s leaves with its producer span's context", started)
                    .isEqualTo(TraceParent.of(own.getTraceId(), own.getSpanId(),
                            own.getSpanContext().getTraceFlags().asByte()));
            assertThat(sent.get(started).traceParent().sampled()).isTrue();
        }

        BridgeMetrics atB = new BridgeMetrics(new SimpleMeterRegistry(), TransportKind.JMS);
        InboxWriter inbox = new InboxWriter(b.dataSource(), atB, CustodyLog.off(), tracing);
        inbox.deliver(List.copyOf(sent.values()));
        inbox.deliver(List.of(sent.get("m-none")));

        for (Envelope envelope : sent.values()) {
            assertThat(inboxTraceParent(envelope.messageId())).isEqualTo(envelope.traceParent().value());
        }
        List<SpanData> spans = succeeded(exporter);
        Map<String, SpanData> consumers = byMessage(spans, SpanKind.CONSUMER);
        assertThat(spans.stream().filter(s -> s.getKind() == SpanKind.CONSUMER)).as("none for the redelivery")
                .hasSize(3);
        for (Envelope envelope : sent.values()) {
            SpanData consumer = consumers.get(envelope.messageId());
            assertThat(consumer.getName()).isEqualTo("process SITREP");
            assertThat(consumer.getAttributes().get(AttributeKey.stringKey("messaging.operation.type")))
                    .isEqualTo("process");
            assertThat(links(consumer)).as(envelope.messageId())
                    .containsExactly(envelope.traceParent().traceId() + "-" + envelope.traceParent().parentId());
        }
    }

    /** A transport busy after the first message of the batch: that message's send succeeded, the others' failed. */
    @Test
    void aBusyTransportsSpansFailOnlyForWhatItDidNotTake() throws Exception {
        InMemorySpanExporter exporter = InMemorySpanExporter.create();
        SdkTracerProvider provider = SdkTracerProvider.builder().addSpanProcessor(SimpleSpanProcessor.create(exporter))
                .build();
        opened.add(provider);
        MessageTracing tracing = MessageTracing.of(OpenTelemetrySdk.builder().setTracerProvider(provider).build());
        RecordingTransport transport = new RecordingTransport();
        transport.busyAfter(1);
        OutboxPoller poller = OutboxLoop.poller(a.dataSource(), properties(), CATALOGUE, ROUTING,
                Clearances.unrestricted(), A, transport, new BridgeMetrics(registry, TransportKind.DDS), null,
                Clock.systemUTC(), CustodyLog.off(), tracing);
        opened.add(poller);
        poller.start();
        await().atMost(Duration.ofSeconds(30)).until(() -> transport.sent.size() == 3);

        String taken = transport.sent.peek().envelope().messageId();
        List<SpanData> producers = exporter.getFinishedSpanItems().stream()
                .filter(s -> s.getKind() == SpanKind.PRODUCER).toList();
        assertThat(producers.stream().filter(s -> s.getStatus().getStatusCode() == StatusCode.ERROR))
                .hasSize(2).allSatisfy(span -> {
                    assertThat(span.getAttributes().get(AttributeKey.stringKey("messaging.message.id")))
                            .isNotEqualTo(taken);
                    assertThat(span.getAttributes().get(AttributeKey.stringKey("error.type")))
                            .isEqualTo(TransportBusyException.class.getName());
                });
        assertThat(byMessage(succeeded(exporter), SpanKind.PRODUCER)).as("one successful send each")
                .containsOnlyKeys("m-context", "m-malformed", "m-none");
        assertThat(producers.stream().filter(s -> taken.equals(
                s.getAttributes().get(AttributeKey.stringKey("messaging.message.id"))))).hasSize(1);
    }

    private OutboxProperties properties() {
        return new OutboxProperties(true, 100, Duration.ofMillis(100), Duration.ofMillis(50), Duration.ofMillis(500),
                BadRowPolicy.QUARANTINE, Duration.ofSeconds(5), Duration.ofSeconds(30), 5);
    }

    private String inboxTraceParent(String messageId) throws SQLException {
        List<String> values = b.strings("SELECT traceparent FROM inbox WHERE message_id = '" + messageId + "'");
        assertThat(values).as("%s in b's inbox", messageId).hasSize(1);
        return values.getFirst();
    }

    /** Loopback only, one domain per test process; every participant in the process must use the same settings. */
    private DdsTransport dds(NodeId node, Set<String> types) {
        ParticipantSettings loopback = ParticipantSettings.builder()
                .domainId(1 + (int) (ProcessHandle.current().pid() % 200)).networkInterface("127.0.0.1")
                .multicast(false).peers(List.of("127.0.0.1")).writeBatch(DdsTransportSettings.DEFAULT_WRITE_BATCH)
                .build();
        DdsTransport transport = new DdsTransport(node, CATALOGUE, types,
                DdsTransportSettings.builder(Duration.ofSeconds(10), 4096).participant(loopback).build());
        opened.add(transport::close);
        return transport;
    }

    /** The spans finished so far but those of the failed sends. */
    private static List<SpanData> succeeded(InMemorySpanExporter exporter) {
        return exporter.getFinishedSpanItems().stream().filter(s -> s.getStatus().getStatusCode() != StatusCode.ERROR)
                .toList();
    }

    private static Map<String, SpanData> byMessage(Collection<SpanData> spans, SpanKind kind) {
        return spans.stream().filter(s -> s.getKind() == kind).collect(Collectors.toMap(
                s -> s.getAttributes().get(AttributeKey.stringKey("messaging.message.id")), Function.identity()));
    }

    /** Each link as {@code <trace id>-<span id>}. */
    private static List<String> links(SpanData span) {
        return span.getLinks().stream().map(LinkData::getSpanContext).map(c -> c.getTraceId() + "-" + c.getSpanId())
                .toList();
    }
}
