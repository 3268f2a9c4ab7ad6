package kr.c4i.gateway.jms;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.Callable;

import jakarta.jms.BytesMessage;
import jakarta.jms.Connection;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import kr.c4i.gateway.core.Envelope;
import kr.c4i.gateway.core.HopTrace;
import kr.c4i.gateway.core.NodeId;
import kr.c4i.gateway.core.TraceParent;
import kr.c4i.gateway.core.transport.MessageRejectedException;
import kr.c4i.gateway.jms.EnvelopeCodec.InvalidMessageException;
import org.apache.activemq.artemis.jms.client.ActiveMQConnectionFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static kr.c4i.gateway.jms.Fixtures.envelope;
import static kr.c4i.gateway.jms.Fixtures.inTrace;
import static kr.c4i.gateway.jms.Fixtures.traced;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatNoException;

/**
 * The codec on messages that went through a real broker: each test's message is written, put on node a's queue
 * (nothing consumes it but this test) and read back as a receiver gets it.
 */
class EnvelopeCodecTest {

    private static final NodeId B = NodeId.of("b");

    @TempDir
    static Path tempDir;

    private static TestNodes nodes;
    private static ActiveMQConnectionFactory factory;
    private static Connection connection;
    private static Session session;
    private static MessageProducer producer;
    private static MessageConsumer consumer;

    @BeforeAll
    static void startBroker() throws Exception {
        nodes = TestNodes.create(tempDir, "a");
        nodes.open("a");
        factory = new ActiveMQConnectionFactory(nodes.url("a"), TestNodes.USER, TestNodes.PASSWORD);
        connection = factory.createConnection();
        session = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
        producer = session.createProducer(session.createQueue("kmtf.node.a"));
        consumer = session.createConsumer(session.createQueue("kmtf.node.a"));
        connection.start();
    }

    @AfterAll
    static void stopBroker() throws Exception {
        if (connection != null) {
            connection.close();
        }
        if (factory != null) {
            factory.close();
        }
        if (nodes != null) {
            nodes.close();
        }
    }

    static Envelope createdAt(String messageId, Instant createdAt) {
        Envelope e = envelope(messageId, "a");
        return new Envelope(e.messageId(), e.origin(), e.kmtfType(), e.precedence(), e.classification(), createdAt,
                e.body());
    }

    /** The message as a receiver reads it from the queue. */
    private static Message carried(Message message) throws Exception {
        producer.send(message);
        Message received = consumer.receive(10_000);
        assertThat(received).as("the message back from the queue").isNotNull();
        return received;
    }

    @Test
    void createdAtRoundTripsExactlyWhateverTheCalendarOfTheYear() {
        for (String text : new String[] { "1500-01-01T00:00:00Z", "1582-10-10T12:00:00.000001Z",
                "1678-01-01T00:00:00Z", "1969-12-31T23:59:59.999999Z", "2261-12-31T23:59:59.999999Z" }) {
            Instant instant = Instant.parse(text);
            assertThat(EnvelopeCodec.fromMicros(EnvelopeCodec.toMicros(instant))).as(text).isEqualTo(instant);
        }
    }

    @Test
    void infinityIsRejectedForThatMessageAloneNotAnArithmeticFailure() {
        // What the outbox reads for PostgreSQL's infinity and -infinity.
        for (Instant infinity : new Instant[] { Instant.MAX, Instant.MIN }) {
            assertThatExceptionOfType(MessageRejectedException.class)
                    .isThrownBy(() -> EnvelopeCodec.checkEncodable(createdAt("inf", infinity)))
                    .satisfies(ex -> assertThat(ex.messageId()).isEqualTo("inf"))
                    .satisfies(ex -> assertThat(ex.retryable()).isFalse())
                    .withMessageContaining(EnvelopeCodec.CREATED_AT_MICROS);
        }
        assertThatNoException().isThrownBy(
                () -> EnvelopeCodec.checkEncodable(createdAt("julian", Instant.parse("1500-01-01T00:00:00Z"))));
    }

    @Test
    void aLoneMessageCarriesItsTraceHopForHopInAProperty() throws Exception {
        Envelope sent = traced(envelope("lone-traced", "a"), 3);

        Message received = carried(EnvelopeCodec.toMessage(session, sent, B));

        assertThat(received.getStringProperty(EnvelopeCodec.TRACE))
                .isEqualTo("node a sent +3ms; site s1 relayed +20ms; site s2 relayed +71ms");
        Envelope read = EnvelopeCodec.fromMessage(received);
        assertThat(read).isEqualTo(sent);
        assertThat(read.trace()).isEqualTo(sent.trace());
        assertThat(read.trace().hops()).hasSize(3);
    }

    @Test
    void aLoneMessageWithoutHopsHasNoTracePropertyAndAnEmptyOneReadsAsNoHops() throws Exception {
        Envelope sent = envelope("lone-plain", "a");

        Message received = carried(EnvelopeCodec.toMessage(session, sent, B));

        assertThat(received.propertyExists(EnvelopeCodec.TRACE)).isFalse();
        assertThat(EnvelopeCodec.fromMessage(received).trace()).isEqualTo(HopTrace.EMPTY);
        BytesMessage empty = EnvelopeCodec.toMessage(session, envelope("lone-empty", "a"), B);
        empty.setStringProperty(EnvelopeCodec.TRACE, "");
        assertThat(EnvelopeCodec.fromMessage(carried(empty)).trace()).isEqualTo(HopTrace.EMPTY);
    }

    @Test
    void aBundleCarriesEachEnvelopesTraceInItsBodyAndSaysItsFormat() throws Exception {
        List<Envelope> sent = List.of(traced(envelope("bundled-traced-1", "a"), 3),
                envelope("bundled-traced-2", "a"), traced(envelope("bundled-traced-3", "a"), HopTrace.MAX_HOPS + 2));

        Message received = carried(EnvelopeCodec.toBundle(session, sent, B));

        assertThat(received.getIntProperty(EnvelopeCodec.BUNDLE_FORMAT))
                .isEqualTo(EnvelopeCodec.BUNDLE_FORMAT_TRACE_CONTEXT);
        List<Envelope> read = EnvelopeCodec.fromBundle(received);
        assertThat(read).containsExactlyElementsOf(sent);
        assertThat(read).map(Envelope::trace).containsExactlyElementsOf(sent.stream().map(Envelope::trace).toList());
        assertThat(read.get(1).trace()).isEqualTo(HopTrace.EMPTY);
        assertThat(read.get(2).trace().omitted()).isEqualTo(2);
    }

    @Test
    void aBundleWithoutTheFormatPropertyIsReadAsBeforeTracesWithEmptyTraces() throws Exception {
        List<Envelope> sent = List.of(envelope("old-bundle-1", "a"), envelope("old-bundle-2", "a"));
        BytesMessage old = session.createBytesMessage();
        for (Envelope envelope : sent) {
            // What a sender of the version before traces writes.
            old.writeUTF(envelope.messageId());
            old.writeUTF(envelope.origin().value());
            old.writeUTF(envelope.kmtfType());
            old.writeUTF(envelope.precedence().name());
            old.writeUTF(envelope.classification());
            old.writeLong(EnvelopeCodec.toMicros(envelope.createdAt()));
            old.writeInt(envelope.body().length);
            old.writeBytes(envelope.body());
        }
        old.setIntProperty(EnvelopeCodec.BUNDLE_COUNT, sent.size());

        Message received = carried(old);

        assertThat(EnvelopeCodec.isBundle(received)).isTrue();
        List<Envelope> read = EnvelopeCodec.fromBundle(received);
        assertThat(read).containsExactlyElementsOf(sent);
        assertThat(read).map(Envelope::trace).containsOnly(HopTrace.EMPTY);
        assertThat(read).map(Envelope::traceParent).containsOnlyNulls();
    }

    @Test
    void aBundleOfAFormatThisReceiverDoesNotKnowIsRefusedNamingTheFormat() throws Exception {
        BytesMessage later = EnvelopeCodec.toBundle(session, List.of(envelope("later-1", "a")), B);
        later.setIntProperty(EnvelopeCodec.BUNDLE_FORMAT, 4);

        Message received = carried(later);

        assertThatExceptionOfType(InvalidMessageException.class).isThrownBy(() -> EnvelopeCodec.fromBundle(received))
                .withMessageContaining(EnvelopeCodec.BUNDLE_FORMAT + " is 4")
                .withMessageContaining("does not know");
    }

    @Test
    void aTraceThatIsNotHopsIsRefusedNamingWhereAndWhatInALoneMessageAndInABundle() throws Exception {
        BytesMessage lone = EnvelopeCodec.toMessage(session, envelope("bad-trace-1", "a"), B);
        lone.setStringProperty(EnvelopeCodec.TRACE, "node a sent +3ms; over the hills");

        Message received = carried(lone);

        assertThatExceptionOfType(InvalidMessageException.class).isThrownBy(() -> EnvelopeCodec.fromMessage(received))
                .withMessageContaining("property " + EnvelopeCodec.TRACE
                        + " 'node a sent +3ms; over the hills' is invalid")
                .withMessageContaining("'over the hills' is not a hop");

        List<Envelope> sent = List.of(envelope("bad-trace-2", "a"), envelope("bad-trace-3", "a"));
        BytesMessage bundle = session.createBytesMessage();
        for (Envelope envelope : sent) {
            bundle.writeUTF(envelope.messageId());
            bundle.writeUTF(envelope.origin().value());
            bundle.writeUTF(envelope.kmtfType());
            bundle.writeUTF(envelope.precedence().name());
            bundle.writeUTF(envelope.classification());
            bundle.writeLong(EnvelopeCodec.toMicros(envelope.createdAt()));
            bundle.writeUTF(envelope == sent.getLast() ? "site S1 relayed +4ms" : "");
            bundle.writeInt(envelope.body().length);
            bundle.writeBytes(envelope.body());
        }
        bundle.setIntProperty(EnvelopeCodec.BUNDLE_COUNT, sent.size());
        bundle.setIntProperty(EnvelopeCodec.BUNDLE_FORMAT, EnvelopeCodec.BUNDLE_FORMAT_TRACED);

        Message receivedBundle = carried(bundle);

        assertThatExceptionOfType(InvalidMessageException.class)
                .isThrownBy(() -> EnvelopeCodec.fromBundle(receivedBundle))
                .withMessageContaining("envelope 2 of 2 (bad-trace-3): trace 'site S1 relayed +4ms' is invalid")
                .withMessageContaining("site id 'S1'");
    }

    @Test
    void bundledSizeCountsTheTraceAndIsNeverLessThanWhatABundleTakes() throws Exception {
        Envelope plain = envelope("size-1", "a");
        Envelope traced = traced(plain, HopTrace.MAX_HOPS);

        assertThat(EnvelopeCodec.bundledSize(traced) - EnvelopeCodec.bundledSize(plain))
                .isEqualTo(3 * traced.traceText().length());
        BytesMessage bundle = EnvelopeCodec.toBundle(session, List.of(traced, plain), B);
        bundle.reset();
        assertThat(bundle.getBodyLength())
                .isLessThanOrEqualTo(EnvelopeCodec.bundledSize(traced) + EnvelopeCodec.bundledSize(plain));
    }

    @Test
    void aLoneMessageCarriesItsTraceContextInTheTraceparentPropertyAndNoneWithout() throws Exception {
        Envelope sent = inTrace(envelope("lone-context", "a"), 1);

        Message received = carried(EnvelopeCodec.toMessage(session, sent, B));

        assertThat(received.getStringProperty("traceparent"))
                .isEqualTo("00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000001-01");
        assertThat(EnvelopeCodec.fromMessage(received).traceParent()).isEqualTo(sent.traceParent());
        Message without = carried(EnvelopeCodec.toMessage(session, envelope("lone-no-context", "a"), B));
        assertThat(without.propertyExists(EnvelopeCodec.TRACE_PARENT)).isFalse();
        assertThat(EnvelopeCodec.fromMessage(without).traceParent()).isNull();
    }

    @Test
    void aBundleCarriesEachEnvelopesTraceContextAfterItsTrace() throws Exception {
        List<Envelope> sent = List.of(inTrace(traced(envelope("bundled-context-1", "a"), 2), 1),
                envelope("bundled-context-2", "a"), inTrace(envelope("bundled-context-3", "a"), 3));

        List<Envelope> read = EnvelopeCodec.fromBundle(carried(EnvelopeCodec.toBundle(session, sent, B)));

        assertThat(read).containsExactlyElementsOf(sent);
        assertThat(read).map(Envelope::traceParent)
                .containsExactlyElementsOf(sent.stream().map(Envelope::traceParent).toList());
        assertThat(read.getFirst().trace()).isEqualTo(sent.getFirst().trace());
        assertThat(read.get(1).traceParent()).isNull();
    }

    @Test
    void aBundleOfFormatTwoIsReadWithItsTracesAndNoTraceContexts() throws Exception {
        List<Envelope> sent = List.of(traced(envelope("format-2-1", "a"), 2), envelope("format-2-2", "a"));
        BytesMessage old = session.createBytesMessage();
        for (Envelope envelope : sent) {
            // What a sender of the version before trace contexts writes.
            old.writeUTF(envelope.messageId());
            old.writeUTF(envelope.origin().value());
            old.writeUTF(envelope.kmtfType());
            old.writeUTF(envelope.precedence().name());
            old.writeUTF(envelope.classification());
            old.writeLong(EnvelopeCodec.toMicros(envelope.createdAt()));
            old.writeUTF(envelope.traceText());
            old.writeInt(envelope.body().length);
            old.writeBytes(envelope.body());
        }
        old.setIntProperty(EnvelopeCodec.BUNDLE_COUNT, sent.size());
        old.setIntProperty(EnvelopeCodec.BUNDLE_FORMAT, EnvelopeCodec.BUNDLE_FORMAT_TRACED);

        List<Envelope> read = EnvelopeCodec.fromBundle(carried(old));

        assertThat(read).containsExactlyElementsOf(sent);
        assertThat(read).map(Envelope::trace).containsExactlyElementsOf(sent.stream().map(Envelope::trace).toList());
        assertThat(read).map(Envelope::traceParent).containsOnlyNulls();
    }

    @Test
    void aMalformedTraceparentCostsALoneMessageOnlyItsContextWithOneWarningQuotingPartOfIt() throws Exception {
        String malformed = "00-" + "x".repeat(300);
        BytesMessage lone = EnvelopeCodec.toMessage(session, envelope("bad-context-1", "a"), B);
        lone.setStringProperty(EnvelopeCodec.TRACE_PARENT, malformed);
        Message received = carried(lone);

        Logged<Envelope> read = logged(() -> EnvelopeCodec.fromMessage(received));

        assertThat(read.value().messageId()).isEqualTo("bad-context-1");
        assertThat(read.value().traceParent()).isNull();
        assertThat(read.warnings()).singleElement().asString()
                .contains("bad-context-1", "property " + EnvelopeCodec.TRACE_PARENT, malformed.substring(0, 80))
                .doesNotContain(malformed.substring(0, 101));
    }

    @Test
    void aMalformedTraceparentInABundleCostsOnlyItsEnvelopesContextWithOneWarning() throws Exception {
        List<Envelope> sent = List.of(inTrace(envelope("bundled-bad-context-1", "a"), 1),
                envelope("bundled-bad-context-2", "a"), inTrace(envelope("bundled-bad-context-3", "a"), 3));
        // A zero trace id: the form of a traceparent, but one a receiver must not use.
        String zeroTraceId = "00-" + "0".repeat(32) + "-00f067aa0ba902b7-01";
        BytesMessage bundle = session.createBytesMessage();
        for (Envelope envelope : sent) {
            bundle.writeUTF(envelope.messageId());
            bundle.writeUTF(envelope.origin().value());
            bundle.writeUTF(envelope.kmtfType());
            bundle.writeUTF(envelope.precedence().name());
            bundle.writeUTF(envelope.classification());
            bundle.writeLong(EnvelopeCodec.toMicros(envelope.createdAt()));
            bundle.writeUTF(envelope.traceText());
            bundle.writeUTF(envelope == sent.get(1) ? zeroTraceId : TraceParent.text(envelope.traceParent()));
            bundle.writeInt(envelope.body().length);
            bundle.writeBytes(envelope.body());
        }
        bundle.setIntProperty(EnvelopeCodec.BUNDLE_COUNT, sent.size());
        bundle.setIntProperty(EnvelopeCodec.BUNDLE_FORMAT, EnvelopeCodec.BUNDLE_FORMAT_TRACE_CONTEXT);
        Message received = carried(bundle);

        Logged<List<Envelope>> read = logged(() -> EnvelopeCodec.fromBundle(received));

        assertThat(read.value()).containsExactlyElementsOf(sent);
        assertThat(read.value()).map(Envelope::traceParent).containsExactly(sent.get(0).traceParent(), null,
                sent.get(2).traceParent());
        assertThat(read.warnings()).singleElement().asString().contains("bundled-bad-context-2", zeroTraceId);
    }

    @Test
    void bundledSizeCountsTheTraceContext() {
        Envelope plain = envelope("size-context-1", "a");

        assertThat(EnvelopeCodec.bundledSize(inTrace(plain, 1)) - EnvelopeCodec.bundledSize(plain))
                .isEqualTo(3 * TraceParent.LENGTH);
    }

    /** What a read returned, with the codec's warnings meanwhile. */
    private record Logged<T>(T value, List<String> warnings) {
    }

    /** Runs the read with System.err caught: slf4j-simple, the tests' logger, looks it up for every line. */
    private static <T> Logged<T> logged(Callable<T> read) throws Exception {
        EnvelopeCodec.resetMalformedCount();
        PrintStream systemErr = System.err;
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
        T value;
        try {
            value = read.call();
        }
        finally {
            System.setErr(systemErr);
        }
        // The broker's threads may write meanwhile; only the codec's lines count.
        List<String> warnings = err.toString(StandardCharsets.UTF_8).lines()
                .filter((line) -> line.contains("WARN " + EnvelopeCodec.class.getName())).toList();
        return new Logged<>(value, warnings);
    }
}
