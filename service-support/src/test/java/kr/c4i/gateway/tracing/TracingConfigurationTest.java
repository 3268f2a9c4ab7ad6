package kr.c4i.gateway.tracing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Collectors;

import com.google.protobuf.ByteString;
import com.sun.net.httpserver.HttpServer;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.registry.otlp.OtlpMeterRegistry;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.trace.v1.Span;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.export.SpanExporter;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.otlp.OtlpMetricsExportAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration;
import org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration;
import org.springframework.boot.micrometer.tracing.autoconfigure.MicrometerTracingAutoConfiguration;
import org.springframework.boot.micrometer.tracing.opentelemetry.autoconfigure.OpenTelemetryTracingAutoConfiguration;
import org.springframework.boot.micrometer.tracing.opentelemetry.autoconfigure.otlp.OtlpTracingAutoConfiguration;
import org.springframework.boot.opentelemetry.autoconfigure.OpenTelemetrySdkAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import kr.c4i.gateway.core.Envelope;
import kr.c4i.gateway.core.NodeId;
import kr.c4i.gateway.core.TraceParent;
import kr.c4i.gateway.core.metrics.MetricNames;
import kr.c4i.gateway.core.transport.Outbound;
import kr.c4i.gateway.kmtf.catalogue.KmtfCatalogue;
import kr.c4i.gateway.kmtf.catalogue.MessageType;
import kr.c4i.gateway.kmtf.catalogue.Precedence;
import kr.c4i.gateway.ports.LoopbackPorts;

/**
 * The services' tracing as Spring Boot's OpenTelemetry auto-configuration and the shipped defaults make it: nothing
 * of it when off, and when on, spans that wait on disk for a collector that cannot be reached and reach it once it
 * can, each linked to its message's creation context. The collector is an OTLP/HTTP receiver in this JVM.
 */
@ExtendWith(OutputCaptureExtension.class)
class TracingConfigurationTest {

    private static final MessageType SITREP = KmtfCatalogue.loadDefault().find("SITREP").orElseThrow();
    private static final TraceParent CREATION = new TraceParent(
            "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01");
    private static final HexFormat HEX = HexFormat.of();

    @TempDir
    Path dir;

    private final List<HttpServer> collectors = new ArrayList<>();

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withInitializer(context -> new TracingDefaults().postProcessEnvironment(context.getEnvironment(),
                    new SpringApplication()))
            .withConfiguration(AutoConfigurations.of(TracingConfiguration.class,
                    OpenTelemetrySdkAutoConfiguration.class, OpenTelemetryTracingAutoConfiguration.class,
                    OtlpTracingAutoConfiguration.class, ObservationAutoConfiguration.class,
                    MicrometerTracingAutoConfiguration.class, MetricsAutoConfiguration.class,
                    OtlpMetricsExportAutoConfiguration.class, SimpleMetricsExportAutoConfiguration.class));

    @AfterEach
    void stopCollectors() {
        collectors.forEach(c -> c.stop(0));
    }

    @Test
    void offByDefaultNothingOfOpenTelemetryIsMadeNoQueueNoExporterNoMetricsExport() {
        Path queue = dir.resolve("traces");
        Set<Thread> before = Thread.getAllStackTraces().keySet();
        runner.withPropertyValues(TracingConfiguration.ENDPOINT + "=http://127.0.0.1:4318/v1/traces",
                "gateway.tracing.queue.directory=" + queue).run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(context.getBean(MessageTracing.class)).isSameAs(MessageTracing.off());
                    assertThat(context).doesNotHaveBean(SdkTracerProvider.class).doesNotHaveBean(SpanExporter.class)
                            .doesNotHaveBean(SpanQueue.class)
                            .doesNotHaveBean(OtlpMeterRegistry.class);
                    assertThat(context.getBean(io.micrometer.tracing.Tracer.class))
                            .isSameAs(io.micrometer.tracing.Tracer.NOOP);
                    assertThat(Thread.getAllStackTraces().keySet()).filteredOn(t -> !before.contains(t))
                            .extracting(Thread::getName).noneMatch(name -> name.startsWith("BatchSpanProcessor")
                                    || name.equals("trace-queue-export"));
                });
        assertThat(queue).doesNotExist();
    }

    @Test
    void onWithoutACollectorTheSpansAreMadeAndNoQueueIs() {
        runner.withPropertyValues("gateway.tracing.enabled=true",
                "gateway.tracing.queue.directory=" + dir.resolve("traces")).run(context -> {
                    assertThat(context.getBean(MessageTracing.class)).isInstanceOf(OpenTelemetryMessageTracing.class);
                    assertThat(context).hasSingleBean(SdkTracerProvider.class).doesNotHaveBean(SpanQueue.class);
                });
        assertThat(dir.resolve("traces")).doesNotExist();
    }

    /**
     * Two messages sent, one with the application's creation context and one without, and both stored at the other
     * end, while the collector is down: their spans wait on disk, one WARN says so, the metrics count the failed
     * exports and the bytes queued; the collector comes up, one INFO says so, and it gets all four (counted), producer
     * and consumer spans linked to each message's creation context.
     */
    @Test
    void spansMadeWhileTheCollectorIsDownReachItOnceItIsUpLinkedToTheirCreationContexts(CapturedOutput output)
            throws Exception {
        int port = LoopbackPorts.freeTcp();
        Path queue = dir.resolve("traces");
        runner.withPropertyValues("gateway.tracing.enabled=true",
                TracingConfiguration.ENDPOINT + "=http://127.0.0.1:" + port + "/v1/traces",
                "gateway.tracing.queue.directory=" + queue,
                "management.opentelemetry.tracing.export.schedule-delay=100ms").run(context -> {
                    MessageTracing tracing = context.getBean(MessageTracing.class);
                    List<Outbound> sent = new ArrayList<>();
                    tracing.send("dds", List.of(outbound("m-1", CREATION), outbound("m-2", null)), sent::addAll);
                    TraceParent started = sent.get(1).envelope().traceParent();
                    assertThat(sent.get(0).envelope().traceParent()).as("the application's").isEqualTo(CREATION);
                    assertThat(started).as("the producer span's, as m-2 had none").isNotNull();

                    MessageTracing.Receiving receiving = tracing.receiving("dds");
                    sent.forEach(o -> receiving.stored(o.envelope()));
                    receiving.stored(sent.get(0).envelope());
                    context.getBean(SdkTracerProvider.class).forceFlush().join(10, TimeUnit.SECONDS);

                    await().atMost(Duration.ofSeconds(60)).until(() -> output.getOut().contains(
                            "The trace collector at http://127.0.0.1:" + port + "/v1/traces cannot be reached"));
                    try (var files = Files.list(queue)) {
                        assertThat(files).as("the queue on disk").isNotEmpty();
                    }
                    MeterRegistry registry = context.getBean(MeterRegistry.class);
                    assertThat(registry.get(MetricNames.TRACING_EXPORT_FAILURES).counter().count()).isPositive();
                    assertThat(registry.get(MetricNames.TRACING_SPANS_EXPORTED).counter().count()).isZero();
                    assertThat(registry.get(MetricNames.TRACING_QUEUE_BYTES).gauge().value()).as("bytes queued")
                            .isPositive();
                    assertThat(registry.get(MetricNames.TRACING_QUEUE_BOUND).gauge().value())
                            .isEqualTo(64.0 * 1024 * 1024);
                    ConcurrentLinkedQueue<Span> received = collector(port);
                    await().atMost(Duration.ofSeconds(60)).until(() -> received.size() >= 4);
                    await().atMost(Duration.ofSeconds(10)).until(
                            () -> registry.get(MetricNames.TRACING_SPANS_EXPORTED).counter().count() >= 4);

                    Map<String, List<Span>> byName = received.stream().collect(Collectors.groupingBy(Span::getName));
                    assertThat(byName.keySet()).containsExactlyInAnyOrder("send SITREP", "process SITREP");
                    Map<String, Span> producers = byMessage(byName.get("send SITREP"));
                    Map<String, Span> consumers = byMessage(byName.get("process SITREP"));
                    assertThat(producers.keySet()).containsExactlyInAnyOrder("m-1", "m-2");
                    assertThat(consumers.keySet()).as("one span per message stored, however often")
                            .containsExactlyInAnyOrder("m-1", "m-2");
                    assertThat(byName.get("process SITREP")).hasSize(2);

                    Span producer = producers.get("m-1");
                    assertThat(producer.getKind()).isEqualTo(Span.SpanKind.SPAN_KIND_PRODUCER);
                    assertThat(attributes(producer)).containsEntry("messaging.system", "dds")
                            .containsEntry("messaging.operation.type", "send")
                            .containsEntry("messaging.destination.name", "SITREP")
                            .containsEntry("messaging.message.id", "m-1")
                            .containsEntry("messaging.batch.message_count", "2");
                    assertThat(links(producer)).containsExactly(CREATION.traceId() + "-" + CREATION.parentId());
                    assertThat(links(producers.get("m-2"))).as("m-2 had no creation context").isEmpty();
                    assertThat(hex(producers.get("m-2").getTraceId()) + "-" + hex(producers.get("m-2").getSpanId()))
                            .as("m-2's creation context is its producer span")
                            .isEqualTo(started.traceId() + "-" + started.parentId());

                    Span consumer = consumers.get("m-1");
                    assertThat(consumer.getKind()).isEqualTo(Span.SpanKind.SPAN_KIND_CONSUMER);
                    assertThat(attributes(consumer)).containsEntry("messaging.operation.type", "process")
                            .containsEntry("messaging.message.id", "m-1");
                    assertThat(links(consumer)).containsExactly(CREATION.traceId() + "-" + CREATION.parentId());
                    assertThat(links(consumers.get("m-2"))).containsExactly(started.traceId() + "-"
                            + started.parentId());
                    await().atMost(Duration.ofSeconds(10)).until(() -> output.getOut().contains(
                            "The trace collector at http://127.0.0.1:" + port + "/v1/traces takes spans again"));
                });
        assertThat(output.getOut().split("cannot be reached", -1)).as("one WARN while it was down").hasSize(2);
    }

    private static Outbound outbound(String id, TraceParent creation) {
        Envelope envelope = new Envelope(id, NodeId.of("a"), "SITREP", Precedence.ROUTINE, "UNCLASSIFIED",
                Instant.now(), "EXER/X//".getBytes()).withTraceParent(creation);
        return new Outbound(envelope, SITREP, List.of(NodeId.of("b")));
    }

    /** An OTLP/HTTP receiver of traces on this port: each span of each request it is POSTed, decoded. */
    private ConcurrentLinkedQueue<Span> collector(int port) throws IOException {
        ConcurrentLinkedQueue<Span> spans = new ConcurrentLinkedQueue<>();
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", port), 0);
        server.createContext("/v1/traces", exchange -> {
            try (InputStream body = exchange.getRequestBody()) {
                ExportTraceServiceRequest request = ExportTraceServiceRequest.parseFrom(body);
                request.getResourceSpansList().forEach(r -> r.getScopeSpansList()
                        .forEach(s -> spans.addAll(s.getSpansList())));
            }
            exchange.getResponseHeaders().add("Content-Type", "application/x-protobuf");
            exchange.sendResponseHeaders(200, -1);
            exchange.close();
        });
        server.start();
        collectors.add(server);
        return spans;
    }

    private static Map<String, Span> byMessage(List<Span> spans) {
        return spans.stream().collect(Collectors.toMap(s -> attributes(s).get("messaging.message.id"),
                Function.identity(), (first, second) -> first));
    }

    private static Map<String, String> attributes(Span span) {
        return span.getAttributesList().stream().collect(Collectors.toMap(KeyValue::getKey,
                kv -> kv.getValue().hasIntValue() ? String.valueOf(kv.getValue().getIntValue())
                        : kv.getValue().getStringValue()));
    }

    private static Set<String> links(Span span) {
        return span.getLinksList().stream().map(l -> hex(l.getTraceId()) + "-" + hex(l.getSpanId()))
                .collect(Collectors.toSet());
    }

    private static String hex(ByteString bytes) {
        return HEX.formatHex(bytes.toByteArray());
    }
}
