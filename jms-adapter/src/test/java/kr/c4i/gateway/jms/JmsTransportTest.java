package kr.c4i.gateway.jms;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

import jakarta.jms.BytesMessage;
import jakarta.jms.Connection;
import jakarta.jms.JMSSecurityException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.Session;
import kr.c4i.gateway.core.Envelope;
import kr.c4i.gateway.core.NodeId;
import kr.c4i.gateway.core.transport.MessageRejectedException;
import kr.c4i.gateway.core.transport.Outbound;
import kr.c4i.gateway.core.transport.TransportHealth;
import kr.c4i.gateway.core.transport.TransportKind;
import kr.c4i.gateway.core.transport.TransportUnavailableException;
import kr.c4i.gateway.kmtf.catalogue.Precedence;
import org.apache.activemq.artemis.core.config.Configuration;
import org.apache.activemq.artemis.jms.client.ActiveMQConnectionFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static kr.c4i.gateway.jms.Fixtures.batch;
import static kr.c4i.gateway.jms.Fixtures.envelope;
import static kr.c4i.gateway.jms.Fixtures.inTrace;
import static kr.c4i.gateway.jms.Fixtures.outbound;
import static kr.c4i.gateway.jms.Fixtures.traced;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

class JmsTransportTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    @TempDir
    Path tempDir;

    private TestNodes nodes;

    @AfterEach
    void stopNodes() {
        if (this.nodes != null) {
            this.nodes.close();
        }
    }

    @Test
    void messageFromOneNodeReachesTheOtherWithEveryFieldIntact() throws Exception {
        this.nodes = TestNodes.start(this.tempDir, "a", "b");
        Envelope sent = envelope("a-0001", "a");

        this.nodes.transport("a").send(List.of(outbound(sent, "b")));

        RecordingHandler b = this.nodes.handler("b");
        b.awaitUnique(1, TIMEOUT);
        Envelope received = b.received().get("a-0001");
        assertThat(received).isEqualTo(sent);
        assertThat(received.text()).isEqualTo(sent.text()).contains("적 기갑 대대");
        assertThat(this.nodes.handler("a").uniqueCount()).isZero();
    }

    @Test
    void tracesArriveHopForHopOnALoneMessageAndInABundle() throws Exception {
        this.nodes = TestNodes.start(this.tempDir, "a", "b");
        Envelope lone = traced(envelope("traced-lone", "a"), 4);
        List<Envelope> bundled = List.of(traced(envelope("traced-bundled-1", "a"), 2),
                envelope("traced-bundled-2", "a"), traced(envelope("traced-bundled-3", "a"), 20));

        this.nodes.transport("a").send(List.of(outbound(lone, "b")));
        // Three of one precedence for one destination: one bundle.
        this.nodes.transport("a").send(bundled.stream().map((e) -> outbound(e, "b")).toList());

        RecordingHandler b = this.nodes.handler("b");
        b.awaitUnique(4, TIMEOUT);
        for (Envelope sent : List.of(lone, bundled.get(0), bundled.get(1), bundled.get(2))) {
            Envelope received = b.received().get(sent.messageId());
            assertThat(received).isEqualTo(sent);
            assertThat(received.trace()).as("trace of %s", sent.messageId()).isEqualTo(sent.trace());
            assertThat(received.traceText()).isEqualTo(sent.traceText());
        }
    }

    @Test
    void traceContextsArriveOnALoneMessageAndInABundle() throws Exception {
        this.nodes = TestNodes.start(this.tempDir, "a", "b");
        Envelope lone = inTrace(envelope("context-lone", "a"), 1);
        List<Envelope> bundled = List.of(inTrace(traced(envelope("context-bundled-1", "a"), 2), 2),
                envelope("context-bundled-2", "a"), inTrace(envelope("context-bundled-3", "a"), 3));

        this.nodes.transport("a").send(List.of(outbound(lone, "b")));
        // Three of one precedence for one destination: one bundle.
        this.nodes.transport("a").send(bundled.stream().map((e) -> outbound(e, "b")).toList());

        RecordingHandler b = this.nodes.handler("b");
        b.awaitUnique(4, TIMEOUT);
        for (Envelope sent : List.of(lone, bundled.get(0), bundled.get(1), bundled.get(2))) {
            Envelope received = b.received().get(sent.messageId());
            assertThat(received.traceParent()).as("trace context of %s", sent.messageId())
                    .isEqualTo(sent.traceParent());
            assertThat(received.trace()).isEqualTo(sent.trace());
        }
    }

    @Test
    void aMessageWhoseTraceparentIsMalformedIsDeliveredWithoutItNotMovedAside() throws Exception {
        this.nodes = TestNodes.start(this.tempDir, "a", "b");
        ActiveMQConnectionFactory factory = new ActiveMQConnectionFactory(this.nodes.url("b"), TestNodes.USER,
                TestNodes.PASSWORD);
        Envelope stray = traced(envelope("stray-context-1", "x"), 1);
        try (Connection connection = factory.createConnection()) {
            Session session = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
            BytesMessage message = EnvelopeCodec.toMessage(session, stray, NodeId.of("b"));
            message.setStringProperty(EnvelopeCodec.TRACE_PARENT, "01-not-a-version-00-traceparent");
            session.createProducer(session.createQueue("kmtf.node.b")).send(message);
        }
        finally {
            factory.close();
        }

        RecordingHandler b = this.nodes.handler("b");
        b.awaitUnique(1, TIMEOUT);
        Envelope received = b.received().get("stray-context-1");
        assertThat(received).isEqualTo(stray);
        assertThat(received.trace()).isEqualTo(stray.trace());
        assertThat(received.traceParent()).isNull();
    }

    @Test
    void everyMessageToTwoDestinationsArrivesExactlyOnce() throws Exception {
        this.nodes = TestNodes.start(this.tempDir, "a", "b", "c");
        int count = 2000;

        for (int from = 0; from < count; from += 100) {
            this.nodes.transport("a").send(batch("a", "m", from, 100, "b", "c"));
        }

        for (String destination : List.of("b", "c")) {
            RecordingHandler handler = this.nodes.handler(destination);
            handler.awaitUnique(count, TIMEOUT);
            assertThat(handler.deliveryCount()).as("deliveries at %s", destination).isEqualTo(count);
        }
        assertThat(this.nodes.handler("a").uniqueCount()).isZero();
    }

    @Test
    void backlogIsDeliveredWhenReceivingNodeReturns() throws Exception {
        this.nodes = TestNodes.start(this.tempDir, "a", "b");
        JmsTransport a = this.nodes.transport("a");
        a.send(batch("a", "before", 0, 50, "b"));
        this.nodes.handler("b").awaitUnique(50, TIMEOUT);

        this.nodes.stop("b");
        for (int from = 0; from < 500; from += 50) {
            a.send(batch("a", "during", from, 50, "b"));
        }
        // Ten sends of 50 messages of one precedence: one bundle each.
        awaitPending(a, "b", 10);

        RecordingHandler b = this.nodes.start("b");
        b.awaitUnique(500, TIMEOUT);
        assertThat(b.received().keySet()).allMatch((id) -> id.startsWith("during-"));
        assertThat(b.deliveryCount()).isEqualTo(500);
        await().atMost(TIMEOUT).untilAsserted(() -> assertThat(pending(a, "b")).as("pending").isZero());
    }

    @Test
    void aMessageHandedBackOnAPeersQueueGoesAgainAheadOfTheOnesBehindIt() throws Exception {
        // A bridge that loses its connection hands back what it had in flight, as a consumer's rollback does. With
        // the inbox's redelivery delay (30 s here) the message behind would cross first, and this receive would wait.
        this.nodes = TestNodes.create(this.tempDir, "a", "b");
        JmsTransport a = this.nodes.open("a", (settings) -> {
            JmsTransportSettings.Embedded embedded = settings.embedded();
            return settings.withEmbedded(new JmsTransportSettings.Embedded(embedded.host(), embedded.port(),
                    embedded.dataDirectory(), embedded.journalSyncTransactional(), Duration.ofSeconds(30),
                    Duration.ofSeconds(30), embedded.duplicateIdCacheSize(), embedded.pair()));
        });
        a.send(batch("a", "first", 0, 1, "b"));
        a.send(batch("a", "second", 0, 1, "b"));
        awaitPending(a, "b", 2);

        ActiveMQConnectionFactory factory = new ActiveMQConnectionFactory(this.nodes.url("a"), TestNodes.USER,
                TestNodes.PASSWORD);
        try (factory; Connection connection = factory.createConnection()) {
            connection.start();
            Session session = connection.createSession(true, Session.SESSION_TRANSACTED);
            MessageConsumer consumer = session.createConsumer(session.createQueue("kmtf.node.b"));
            Message first = consumer.receive(TIMEOUT.toMillis());
            assertThat(first).isNotNull();
            session.rollback();
            Message again = consumer.receive(Duration.ofSeconds(10).toMillis());
            assertThat(again).as("the handed-back message, at once").isNotNull();
            assertThat(again.getJMSMessageID()).isEqualTo(first.getJMSMessageID());
            session.rollback();
        }
    }

    @Test
    void messagesJournaledBeforeSenderRestartAreForwardedAfterIt() throws Exception {
        this.nodes = TestNodes.create(this.tempDir, "a", "b");
        JmsTransport a = this.nodes.open("a");
        a.send(batch("a", "m", 0, 300, "b"));
        // 300 messages of one precedence: bundles of 256 and 44.
        awaitPending(a, "b", 2);
        this.nodes.stop("a");

        RecordingHandler b = this.nodes.start("b");
        this.nodes.open("a");

        b.awaitUnique(300, TIMEOUT);
        assertThat(b.deliveryCount()).isEqualTo(300);
    }

    @Test
    void batchIsRedeliveredWhenHandlerFailsAndCommittedWhenItSucceeds() throws Exception {
        this.nodes = TestNodes.create(this.tempDir, "a", "b");
        RecordingHandler b = this.nodes.start("b", new RecordingHandler(1));
        JmsTransport a = this.nodes.open("a");

        a.send(batch("a", "m", 0, 20, "b"));

        b.awaitUnique(20, TIMEOUT);
        assertThat(b.failedBatches()).hasSize(1);
        assertThat(b.received().keySet()).containsAll(b.failedBatches().getFirst());
        assertThat(b.batchCount()).isGreaterThan(1);
        JmsTransport bTransport = this.nodes.transport("b");
        await().atMost(TIMEOUT).untilAsserted(
                () -> assertThat(bTransport.health().details()).containsEntry("inboxDepth", 0L));
        assertThat(b.deliveryCount()).isEqualTo(20);
    }

    /**
     * An external broker may dead-letter a message after so many deliveries (Artemis's default: 10, then the
     * dead-letter address, or dropped without one); a batch the inbox's database cannot take is offered again in
     * place, not rolled back, so an outage of it counts no delivery and moves nothing aside.
     */
    @Test
    void aBatchTheHandlerRefusesStaysInPlaceOnABrokerThatDeadLettersAfterTwoDeliveries() throws Exception {
        this.nodes = TestNodes.create(this.tempDir, "a", "b");
        RecordingHandler b = this.nodes.start("b", new RecordingHandler(4), List.of((configuration) -> configuration
                .getAddressSettings().get("kmtf.node.b").setMaxDeliveryAttempts(2)));
        JmsTransport a = this.nodes.open("a");

        a.send(batch("a", "m", 0, 20, "b"));

        b.awaitUnique(20, TIMEOUT);
        assertThat(b.failedBatches()).hasSize(4);
        assertThat(b.deliveryCount()).isEqualTo(20);
        ActiveMQConnectionFactory factory = new ActiveMQConnectionFactory(this.nodes.url("b"), TestNodes.USER,
                TestNodes.PASSWORD);
        try (factory; Connection connection = factory.createConnection()) {
            Session session = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
            connection.start();
            assertThat(session.createConsumer(session.createQueue("kmtf.invalid")).receiveNoWait())
                    .as("a message moved to the invalid queue, the dead-letter address").isNull();
        }
    }

    @Test
    void connectingWithoutCredentialsOrWithWrongPasswordFails() throws Exception {
        this.nodes = TestNodes.start(this.tempDir, "a");
        String url = this.nodes.url("a");

        assertThatExceptionOfType(JMSSecurityException.class).isThrownBy(() -> connect(new ActiveMQConnectionFactory(url)));
        assertThatExceptionOfType(JMSSecurityException.class)
                .isThrownBy(() -> connect(new ActiveMQConnectionFactory(url, TestNodes.USER, "wrong")));
        assertThatExceptionOfType(JMSSecurityException.class)
                .isThrownBy(() -> connect(new ActiveMQConnectionFactory(url, "intruder", TestNodes.PASSWORD)));
        connect(new ActiveMQConnectionFactory(url, TestNodes.USER, TestNodes.PASSWORD));
    }

    @Test
    void aResentMessageOrBundleTheBrokerHasIsDroppedThere() throws Exception {
        this.nodes = TestNodes.start(this.tempDir, "a", "b", "c");
        JmsTransport a = this.nodes.transport("a");
        Envelope first = envelope("dup-1", "a");
        List<Outbound> bundle = List.of(outbound(envelope("bundled-1", "a"), "b"),
                outbound(envelope("bundled-2", "a"), "b"));

        a.send(List.of(outbound(first, "b")));
        a.send(bundle);
        // Resends after a crash: the same lone message, twice in one batch, and the same bundle.
        a.send(List.of(outbound(first, "b"), outbound(first, "b")));
        a.send(bundle);
        // A resend whose batch differs goes into a bundle the broker has not seen: the duplicate reaches the
        // receiver, whose inbox keeps one copy by message id. It goes to one destination that has it and one that
        // has not.
        a.send(List.of(outbound(envelope("dup-1", "a"), "b", "c"), outbound(envelope("new-1", "a"), "b")));

        RecordingHandler b = this.nodes.handler("b");
        RecordingHandler c = this.nodes.handler("c");
        b.awaitUnique(4, TIMEOUT);
        c.awaitUnique(1, TIMEOUT);
        a.send(List.of(outbound(envelope("marker", "a"), "b")));
        b.awaitUnique(5, TIMEOUT);
        assertThat(b.deliveryCount()).isEqualTo(6);
        assertThat(b.deliveries("dup-1")).isEqualTo(2);
        assertThat(b.deliveries("bundled-1")).isOne();
        assertThat(b.received().get("dup-1")).isEqualTo(first);
        assertThat(c.deliveryCount()).isEqualTo(1);
    }

    @Test
    void aBatchOfEveryPrecedenceTravelsInBundlesAndArrivesIntact() throws Exception {
        this.nodes = TestNodes.start(this.tempDir, "a", "b", "c");
        List<Outbound> batch = new ArrayList<>();
        Map<String, Envelope> sent = new HashMap<>();
        Precedence[] precedences = Precedence.values();
        for (int i = 0; i < 600; i++) {
            Envelope e = envelope("mixed-" + i, "a");
            Envelope varied = new Envelope(e.messageId(), e.origin(), e.kmtfType(), precedences[i % precedences.length],
                    (i % 2 == 0) ? "SECRET" : "II급 비밀", e.createdAt(), (i == 7) ? new byte[0] : e.body());
            sent.put(varied.messageId(), varied);
            batch.add(outbound(varied, "b", "c"));
        }
        // Too big for a bundle: it goes alone.
        Envelope big = new Envelope("big-1", NodeId.of("a"), "SITREP", Precedence.ROUTINE, "SECRET",
                Instant.now().truncatedTo(ChronoUnit.MICROS), new byte[EnvelopeCodec.BUNDLE_MAX_BYTES + 1]);
        sent.put(big.messageId(), big);
        batch.add(outbound(big, "b", "c"));

        this.nodes.transport("a").send(batch);

        for (String destination : List.of("b", "c")) {
            RecordingHandler handler = this.nodes.handler(destination);
            handler.awaitUnique(sent.size(), TIMEOUT);
            assertThat(handler.received()).as("at %s", destination).isEqualTo(sent);
            assertThat(handler.deliveryCount()).as("deliveries at %s", destination).isEqualTo(sent.size());
            // 600 in 150s of four precedences, each one bundle, and the big one alone: far fewer batches than messages.
            assertThat(handler.batchCount()).as("batches at %s", destination).isLessThanOrEqualTo(5);
        }
    }

    @Test
    void bundlesOfOneSendEveryMessageAsAJmsMessageOfItsOwn() throws Exception {
        this.nodes = TestNodes.create(this.tempDir, "a", "b");
        JmsTransport a = this.nodes.open("a", (settings) -> settings.withSend(new JmsTransportSettings.Send(1)));
        a.send(batch("a", "alone", 0, 7, "b"));
        awaitPending(a, "b", 7);

        RecordingHandler b = this.nodes.start("b");
        b.awaitUnique(7, TIMEOUT);
        assertThat(b.deliveryCount()).isEqualTo(7);
    }

    @Test
    void anUnreadableBundleIsMovedToTheInvalidQueueWhole() throws Exception {
        int[] length = new int[1];
        Message moved = movedAside((session) -> {
            // Says two envelopes, holds one and a half: nothing of it may reach the inbox.
            BytesMessage cut = EnvelopeCodec.toBundle(session, List.of(envelope("cut-1", "x"), envelope("cut-2", "x")),
                    NodeId.of("b"));
            cut.reset();
            byte[] whole = new byte[(int) cut.getBodyLength()];
            cut.readBytes(whole);
            length[0] = whole.length - 10;
            BytesMessage stray = session.createBytesMessage();
            stray.writeBytes(Arrays.copyOf(whole, length[0]));
            stray.setIntProperty(EnvelopeCodec.BUNDLE_COUNT, 2);
            return stray;
        });
        assertThat(moved.getStringProperty(EnvelopeCodec.INVALID_REASON)).contains("envelope 2 of 2");
        assertThat(moved.getBody(byte[].class)).hasSize(length[0]);
    }

    @Test
    void unreadableMessageIsMovedToInvalidQueueWithoutBlockingTheInbox() throws Exception {
        Message moved = movedAside((session) -> {
            BytesMessage stray = session.createBytesMessage();
            stray.writeBytes("not an envelope".getBytes());
            stray.setStringProperty(EnvelopeCodec.MESSAGE_ID, "stray-1");
            return stray;
        });
        assertThat(moved.getStringProperty(EnvelopeCodec.MESSAGE_ID)).isEqualTo("stray-1");
        assertThat(moved.getStringProperty(EnvelopeCodec.INVALID_REASON)).contains(EnvelopeCodec.ORIGIN);
        assertThat(moved.getStringProperty(EnvelopeCodec.INVALID_SOURCE)).isEqualTo("kmtf.node.b");
        assertThat(moved.getBody(byte[].class)).asString().isEqualTo("not an envelope");
    }

    @Test
    void aMessageWhoseTraceIsNotHopsIsMovedToTheInvalidQueueNamingTheTrace() throws Exception {
        Message moved = movedAside((session) -> {
            BytesMessage stray = EnvelopeCodec.toMessage(session, envelope("stray-trace-1", "x"), NodeId.of("b"));
            stray.setStringProperty(EnvelopeCodec.TRACE, "node x sent yesterday");
            return stray;
        });
        assertThat(moved.getStringProperty(EnvelopeCodec.MESSAGE_ID)).isEqualTo("stray-trace-1");
        assertThat(moved.getStringProperty(EnvelopeCodec.INVALID_REASON)).contains(EnvelopeCodec.TRACE)
                .contains("'node x sent yesterday'");
        assertThat(moved.getStringProperty(EnvelopeCodec.TRACE)).isEqualTo("node x sent yesterday");
    }

    /** A JMS message made by {@code stray}, which the transport cannot read, put on a receiving node's queue. */
    @FunctionalInterface
    private interface Stray {

        Message make(Session session) throws Exception;
    }

    /**
     * Puts the stray on node b's queue ahead of a good message from node a; returns it as the invalid queue got it,
     * once the good message arrived and only the good one.
     */
    private Message movedAside(Stray stray) throws Exception {
        this.nodes = TestNodes.start(this.tempDir, "a", "b");
        ActiveMQConnectionFactory factory = new ActiveMQConnectionFactory(this.nodes.url("b"), TestNodes.USER,
                TestNodes.PASSWORD);
        Message moved;
        try (Connection connection = factory.createConnection()) {
            Session session = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
            session.createProducer(session.createQueue("kmtf.node.b")).send(stray.make(session));

            this.nodes.transport("a").send(List.of(outbound(envelope("good-1", "a"), "b")));
            this.nodes.handler("b").awaitUnique(1, TIMEOUT);

            MessageConsumer invalid = session.createConsumer(session.createQueue("kmtf.invalid"));
            connection.start();
            moved = invalid.receive(TIMEOUT.toMillis());
            assertThat(moved).isNotNull();
        }
        finally {
            factory.close();
        }
        assertThat(this.nodes.handler("b").received()).containsOnlyKeys("good-1");
        return moved;
    }

    @Test
    void sendingToANodeThatIsNotAPeerIsRejectedPermanentlyAndSendsNothing() throws Exception {
        this.nodes = TestNodes.start(this.tempDir, "a", "b");
        List<Outbound> batch = List.of(outbound(envelope("ok-1", "a"), "b"), outbound(envelope("bad-1", "a"), "zulu"));

        assertThatExceptionOfType(MessageRejectedException.class)
                .isThrownBy(() -> this.nodes.transport("a").send(batch))
                .satisfies((ex) -> assertThat(ex.messageId()).isEqualTo("bad-1"))
                .satisfies((ex) -> assertThat(ex.retryable()).isFalse())
                .withMessageContaining("zulu");
        assertThat(pending(this.nodes.transport("a"), "b")).isZero();
    }

    @Test
    void anInfiniteCreatedAtIsRejectedAloneAndOneBeforeTheGregorianReformArrivesExactly() throws Exception {
        this.nodes = TestNodes.start(this.tempDir, "a", "b");
        Envelope julian = EnvelopeCodecTest.createdAt("julian-1", Instant.parse("1500-01-01T00:00:00Z"));
        Envelope infinite = EnvelopeCodecTest.createdAt("inf-1", Instant.MAX);

        assertThatExceptionOfType(MessageRejectedException.class)
                .isThrownBy(() -> this.nodes.transport("a").send(List.of(outbound(julian, "b"), outbound(infinite, "b"))))
                .satisfies((ex) -> assertThat(ex.messageId()).isEqualTo("inf-1"));
        assertThat(pending(this.nodes.transport("a"), "b")).isZero();

        this.nodes.transport("a").send(List.of(outbound(julian, "b")));
        RecordingHandler b = this.nodes.handler("b");
        b.awaitUnique(1, TIMEOUT);
        assertThat(b.received().get("julian-1").createdAt()).isEqualTo(Instant.parse("1500-01-01T00:00:00Z"));
    }

    @Test
    void healthReportsBridgeStateAndMessagesPendingForAPeer() throws Exception {
        this.nodes = TestNodes.create(this.tempDir, "a", "b");
        JmsTransport a = this.nodes.open("a");
        a.send(batch("a", "m", 0, 7, "b"));
        // Seven messages of one precedence: one bundle.
        awaitPending(a, "b", 1);

        TransportHealth waiting = a.health();
        assertThat(waiting.up()).isTrue();
        assertThat(waiting.details()).containsEntry("mode", "embedded")
                .containsEntry("brokerUrl", this.nodes.url("a"))
                .containsEntry("inboxQueue", "kmtf.node.a")
                .containsEntry("inboxDepth", 0L);
        assertThat(peer(waiting, "b")).containsEntry("queue", "kmtf.node.b")
                .containsEntry("bridgeConnected", false)
                .containsEntry("pending", 1L);

        this.nodes.start("b").awaitUnique(7, TIMEOUT);
        await().atMost(TIMEOUT).untilAsserted(() -> assertThat(peer(a.health(), "b"))
                .containsEntry("bridgeConnected", true).containsEntry("pending", 0L));

        a.close();
        a.close();
        assertThat(a.health().up()).isFalse();
    }

    @Test
    void sendToAnExternalBrokerFailsRetryablyWhileItIsDownAndResumesWhenItReturns() throws Exception {
        this.nodes = TestNodes.start(this.tempDir, "b");
        JmsTransportSettings external = TestNodes.settings(NodeId.of("x"), TestNodes.USER, TestNodes.PASSWORD)
                .withBrokerUrl(this.nodes.url("b"))
                .withPeers(Map.of(NodeId.of("b"), new JmsTransportSettings.Peer(null, null, null)));
        try (JmsTransport x = new JmsTransport(external)) {
            x.open();
            assertThat(x.health().details()).containsEntry("mode", "external").doesNotContainKey("inboxDepth");
            x.send(List.of(outbound(envelope("x-1", "x"), "b")));
            this.nodes.handler("b").awaitUnique(1, TIMEOUT);

            this.nodes.stop("b");
            assertThatExceptionOfType(TransportUnavailableException.class)
                    .isThrownBy(() -> x.send(List.of(outbound(envelope("x-2", "x"), "b"))))
                    .satisfies((ex) -> assertThat(ex.retryable()).isTrue())
                    .withMessageStartingWith("Unable to send")
                    .withMessageContaining("kmtf.node.b")
                    .withMessageContaining(this.nodes.url("b"));
            assertThat(x.health().up()).isFalse();

            RecordingHandler b = this.nodes.start("b");
            x.send(List.of(outbound(envelope("x-2", "x"), "b")));
            b.awaitUnique(1, TIMEOUT);
            assertThat(b.received()).containsOnlyKeys("x-2");
            assertThat(x.health().up()).isTrue();
        }
    }

    @Test
    void customizerChangesTheEmbeddedBrokerAfterTheSettings() throws Exception {
        this.nodes = TestNodes.create(this.tempDir, "a");
        AtomicReference<Configuration> seen = new AtomicReference<>();
        try (JmsTransport a = new JmsTransport(this.nodes.settings("a"), List.of((configuration) -> {
            seen.set(configuration);
            configuration.setMaxDiskUsage(-1);
        }))) {
            a.open();
            assertThat(seen.get().getAcceptorConfigurations()).hasSize(1);
            assertThat(seen.get().getMaxDiskUsage()).isEqualTo(-1);
            assertThat(a.health().up()).isTrue();
        }
    }

    @Test
    void methodsNeedAnOpenTransport() throws Exception {
        this.nodes = TestNodes.create(this.tempDir, "a", "b");
        JmsTransport a = new JmsTransport(this.nodes.settings("a"));
        assertThat(a.kind()).isEqualTo(TransportKind.JMS);
        assertThatThrownBy(() -> a.send(List.of())).isInstanceOf(IllegalStateException.class).hasMessageContaining("open");
        a.close();
        assertThatThrownBy(a::open).isInstanceOf(IllegalStateException.class).hasMessageContaining("closed");
    }

    private static void connect(ActiveMQConnectionFactory factory) throws Exception {
        try (factory; Connection connection = factory.createConnection()) {
            connection.createSession(false, Session.AUTO_ACKNOWLEDGE).createQueue("kmtf.node.a");
        }
    }

    // The queue's count can trail a committed send (CI once read 203 of 300 just after it returned),
    // so it is awaited rather than read once.
    private static void awaitPending(JmsTransport transport, String peer, long expected) {
        await().atMost(TIMEOUT).untilAsserted(
                () -> assertThat(pending(transport, peer)).as("pending for %s", peer).isEqualTo(expected));
    }

    private static long pending(JmsTransport transport, String peer) {
        Object pending = peer(transport.health(), peer).get("pending");
        return (pending instanceof Long value) ? value : -1;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> peer(TransportHealth health, String peer) {
        Map<String, Object> peers = (Map<String, Object>) health.details().get("peers");
        return (Map<String, Object>) peers.get(peer);
    }
}
