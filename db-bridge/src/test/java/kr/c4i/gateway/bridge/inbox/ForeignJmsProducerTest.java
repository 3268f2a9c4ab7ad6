package kr.c4i.gateway.bridge.inbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import jakarta.jms.BytesMessage;
import jakarta.jms.Connection;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import org.apache.activemq.artemis.jms.client.ActiveMQConnectionFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import kr.c4i.gateway.bridge.metrics.BridgeMetrics;
import kr.c4i.gateway.bridge.support.InterfaceDatabase;
import kr.c4i.gateway.bridge.support.Kmtf;
import kr.c4i.gateway.core.NodeId;
import kr.c4i.gateway.core.metrics.MetricNames;
import kr.c4i.gateway.core.transport.TransportKind;
import kr.c4i.gateway.custody.CustodyLog;
import kr.c4i.gateway.jms.JmsTransport;
import kr.c4i.gateway.jms.JmsTransportSettings;
import kr.c4i.gateway.kmtf.KmtfRejection;
import kr.c4i.gateway.kmtf.KmtfValidator;
import kr.c4i.gateway.kmtf.catalogue.KmtfCatalogue;
import kr.c4i.gateway.ports.LoopbackPorts;

/**
 * The same protection on JMS: anything with the broker's credentials puts envelopes on a node's queue (real
 * embedded Artemis, real PostgreSQL). A NUL in a message id used to fail the inbox's batch on every redelivery, so
 * nothing behind it ever arrived.
 */
@Timeout(120)
class ForeignJmsProducerTest {

    private static final String USER = "gateway";
    private static final String PASSWORD = "s3cret-pw";

    @TempDir
    Path dir;

    private InterfaceDatabase db;
    private JmsTransport transport;
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

    @BeforeEach
    void start() throws Exception {
        db = new InterfaceDatabase(dir.resolve("pg"));
    }

    @AfterEach
    void stop() throws Exception {
        if (transport != null) {
            transport.close();
        }
        db.close();
    }

    @Test
    void badEnvelopesOnTheQueueAreQuarantinedAndWhatFollowsStillArrives() throws Exception {
        int port = LoopbackPorts.freeTcp();
        transport = new JmsTransport(JmsTransportSettings.of(NodeId.of("b"), USER, PASSWORD,
                JmsTransportSettings.Embedded.at("127.0.0.1", port, dir.resolve("broker")),
                JmsTransportSettings.Receive.of(500), JmsTransportSettings.Bridge.of(Duration.ofSeconds(10))));
        BridgeMetrics metrics = new BridgeMetrics(registry, TransportKind.JMS);
        transport.open();
        transport.subscribe(new ValidatingInbox(new InboundValidator(new KmtfValidator(KmtfCatalogue.loadDefault())),
                new InboxWriter(db.dataSource(), metrics, CustodyLog.off()),
                new InboundQuarantine(db.dataSource(), "jms", CustodyLog.off()), metrics));

        ActiveMQConnectionFactory factory = new ActiveMQConnectionFactory("tcp://127.0.0.1:" + port, USER, PASSWORD);
        try (factory; Connection connection = factory.createConnection()) {
            Session session = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
            MessageProducer producer = session.createProducer(session.createQueue("kmtf.node.b"));
            producer.send(envelope(session, "nul\u0000id", "UNCLASSIFIED", Kmtf.message("SITREP", 1)));
            producer.send(envelope(session, "relabelled", "SECRET", Kmtf.message("SITREP", 2)));
            producer.send(envelope(session, "not-kmtf", "UNCLASSIFIED", "hello"));
            producer.send(envelope(session, "good-1", "UNCLASSIFIED", Kmtf.message("SITREP", 3)));
        }

        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            assertThat(db.strings("SELECT message_id FROM inbox")).containsExactly("good-1");
            assertThat(db.count("SELECT count(*) FROM inbound_quarantine")).isEqualTo(3);
        });
        assertThat(db.strings("SELECT replace(message_id, U&'\\FFFD', '?') || '=' || reason_kind "
                + "FROM inbound_quarantine WHERE transport = 'jms' ORDER BY id")).containsExactly(
                        "nul?id=" + InboundValidator.INVALID_MESSAGE_ID,
                        "relabelled=" + InboundValidator.CLASSIFICATION_MISMATCH,
                        "not-kmtf=" + rejectionKind("hello"));
        assertThat(registry.find(MetricNames.INBOUND_REJECTED).tag(MetricNames.TAG_TRANSPORT, "jms").counters()
                .stream().mapToDouble(c -> c.count()).sum()).isEqualTo(3);
    }

    private static BytesMessage envelope(Session session, String id, String classification, String text)
            throws Exception {
        BytesMessage message = session.createBytesMessage();
        message.writeBytes(text.getBytes(StandardCharsets.UTF_8));
        message.setStringProperty("kmtf_message_id", id);
        message.setStringProperty("kmtf_origin", "a");
        message.setStringProperty("kmtf_type", "SITREP");
        message.setStringProperty("kmtf_precedence", "ROUTINE");
        message.setStringProperty("kmtf_classification", classification);
        Instant now = Instant.now();
        message.setLongProperty("kmtf_created_at_micros", now.getEpochSecond() * 1_000_000L + now.getNano() / 1_000);
        return message;
    }

    private static String rejectionKind(String text) {
        try {
            new KmtfValidator(KmtfCatalogue.loadDefault()).validate(text.getBytes(StandardCharsets.UTF_8), "SITREP");
        }
        catch (KmtfRejection rejection) {
            return rejection.kind();
        }
        throw new AssertionError(text + " is valid KMTF");
    }
}
