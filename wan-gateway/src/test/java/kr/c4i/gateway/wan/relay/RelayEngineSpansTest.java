package kr.c4i.gateway.wan.relay;

import static kr.c4i.gateway.wan.relay.S1Gateway.C;
import static kr.c4i.gateway.wan.relay.S1Gateway.CREATED;
import static kr.c4i.gateway.wan.relay.S1Gateway.S1;
import static kr.c4i.gateway.wan.relay.S1Gateway.S2;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import kr.c4i.gateway.core.Envelope;
import kr.c4i.gateway.core.TraceParent;
import kr.c4i.gateway.custody.CustodyLog;
import kr.c4i.gateway.kmtf.catalogue.Precedence;
import kr.c4i.gateway.tracing.MessageTracing;
import kr.c4i.gateway.wan.policy.RelayPolicy;

/**
 * Site s1's gateway, with tracing on, makes a CONSUMER span for each message it takes into its store, from a peer or
 * from its own LAN, once however often it comes again, linked to the message's creation context: on a real store, with
 * a link and a LAN that record what the engine hands them.
 */
class RelayEngineSpansTest {

    private static final TraceParent CREATION = new TraceParent(
            "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01");

    private final InMemorySpanExporter spans = InMemorySpanExporter.create();
    private SdkTracerProvider provider;
    private S1Gateway s1;
    private RelayEngine engine;

    @BeforeEach
    void startEngine() throws Exception {
        provider = SdkTracerProvider.builder().addSpanProcessor(SimpleSpanProcessor.create(spans))
                .build();
        s1 = new S1Gateway(CustodyLog.off());
        engine = s1.engine(S1Gateway.sites(), RelayPolicy.allowAll(S1Gateway.CATALOGUE), new SimpleMeterRegistry(),
                MessageTracing.of(OpenTelemetrySdk.builder().setTracerProvider(provider).build()));
    }

    @AfterEach
    void stop() throws Exception {
        engine.close();
        s1.close();
        provider.close();
    }

    @Test
    void aMessageFromAPeerNewlyInTheStoreHasOneConsumerSpan() {
        Envelope message = message("c-1");
        engine.received(S2, s1.codec.data(7, 0, List.of(fromPeer(message))));
        s1.clock.advance(Duration.ofSeconds(5));
        engine.received(S2, s1.codec.data(7, 1, List.of(fromPeer(message))));

        assertThat(spans.getFinishedSpanItems()).singleElement().satisfies(span -> {
            assertThat(span.getKind()).isEqualTo(SpanKind.CONSUMER);
            assertThat(span.getName()).isEqualTo("process SITREP");
            assertThat(span.getAttributes().get(AttributeKey.stringKey("messaging.system"))).isEqualTo("test");
            assertThat(span.getAttributes().get(AttributeKey.stringKey("messaging.operation.type")))
                    .isEqualTo("process");
            assertThat(span.getAttributes().get(AttributeKey.stringKey("messaging.message.id"))).isEqualTo("c-1");
        });
    }

    /** Node a's message, bound for s2: stored for the link once, however often the LAN hands it over. */
    @Test
    void aMessageFromThisSitesLanNewlyInTheStoreHasOneConsumerSpan() throws Exception {
        Envelope message = new Envelope("a-1", S1Gateway.A, "SITREP", Precedence.ROUTINE, "UNCLASSIFIED", CREATED,
                "MSGID/SITREP/a-1//".getBytes(StandardCharsets.UTF_8)).withTraceParent(CREATION);

        assertThat(engine.ingest(List.of(message))).containsExactly("a-1");
        assertThat(engine.ingest(List.of(message))).containsExactly("a-1");

        assertThat(spans.getFinishedSpanItems()).singleElement().satisfies(span -> {
            assertThat(span.getKind()).isEqualTo(SpanKind.CONSUMER);
            assertThat(span.getName()).isEqualTo("process SITREP");
            assertThat(span.getAttributes().get(AttributeKey.stringKey("messaging.system"))).isEqualTo("test-lan");
            assertThat(span.getAttributes().get(AttributeKey.stringKey("messaging.message.id"))).isEqualTo("a-1");
            assertThat(span.getLinks()).singleElement().satisfies(link -> assertThat(link.getSpanContext().getTraceId())
                    .isEqualTo(CREATION.traceId()));
        });
    }

    /** The frames carry the creation context (WAN frame format's {@code traceparent}). */
    @Test
    void theSpanIsLinkedToTheCreationContextTheMessageCarried() {
        engine.received(S2, s1.codec.data(7, 0, List.of(fromPeer(message("c-1")))));

        assertThat(spans.getFinishedSpanItems()).singleElement().satisfies(span -> assertThat(span.getLinks())
                .singleElement().satisfies(link -> {
                    assertThat(link.getSpanContext().getTraceId()).isEqualTo(CREATION.traceId());
                    assertThat(link.getSpanContext().getSpanId()).isEqualTo(CREATION.parentId());
                }));
    }

    private static Envelope message(String id) {
        return new Envelope(id, C, "SITREP", Precedence.ROUTINE, "UNCLASSIFIED", CREATED,
                ("MSGID/SITREP/" + id + "//").getBytes(StandardCharsets.UTF_8)).withTraceParent(CREATION);
    }

    private static RelayedEnvelope fromPeer(Envelope envelope) {
        return new RelayedEnvelope(envelope, List.of(S2), new TreeSet<>(Set.of(S1)));
    }
}
