package kr.c4i.gateway.jms;

import static kr.c4i.gateway.jms.Fixtures.envelope;
import static kr.c4i.gateway.jms.Fixtures.outbound;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

import jakarta.jms.Connection;
import jakarta.jms.JMSException;
import jakarta.jms.QueueBrowser;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import kr.c4i.gateway.core.NodeId;
import kr.c4i.gateway.core.transport.InvalidSettingsException;
import kr.c4i.gateway.core.transport.InvalidSettingsException.Problem;
import kr.c4i.gateway.ports.LoopbackPorts;
import org.apache.activemq.artemis.api.core.TransportConfiguration;
import org.apache.activemq.artemis.core.remoting.impl.netty.TransportConstants;
import org.apache.activemq.artemis.jms.client.ActiveMQConnectionFactory;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Mutual TLS on a node's embedded broker, with real certificates from a site's authority: the node's own clients and
 * its bridge get through; a client without a certificate, with one from another authority, in plain TCP, or checking
 * a broker whose certificate names another host, is refused and delivers nothing.
 */
class BrokerTlsTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(30);
    private static final String PROBE_QUEUE = JmsTransportSettings.DEFAULT_INVALID_QUEUE;
    // Refused at the connection, before the (valid) user and password are looked at.
    private static final String CONNECTION_REFUSED = "Failed to create session factory";

    @TempDir
    Path tempDir;

    private TlsFixture site;
    private TestNodes nodes;
    private @Nullable EmbeddedBroker broker;

    @BeforeEach
    void createSite() {
        this.site = new TlsFixture("s1", this.tempDir);
    }

    @AfterEach
    void stop() {
        if (this.nodes != null) {
            this.nodes.close();
        }
        if (this.broker != null) {
            this.broker.close();
        }
    }

    @Test
    void twoNodesOverMutualTlsDeliverThroughTheirBridge() throws Exception {
        this.nodes = TestNodes.create(this.tempDir, "a", "b").withTls(this.site::loopback);
        this.nodes.start("a");
        this.nodes.start("b");

        this.nodes.transport("a").send(List.of(outbound(envelope("a-0001", "a"), "b")));

        this.nodes.handler("b").awaitUnique(1, TIMEOUT);
        assertThat(this.nodes.settings("a").tls()).isNotNull();
    }

    @Test
    void aClientWithACertificateOfTheSiteSendsAndReceives() throws Exception {
        String url = startNode();

        send(client(url, this.site.loopback("client")), "probe");

        assertThat(browse(client(url, this.site.loopback("client")))).containsExactly("probe");
    }

    @Test
    void aClientWithoutACertificateWithOneOfAnotherAuthorityOrInPlainTcpIsRefusedAndDeliversNothing()
            throws Exception {
        String url = startNode();
        BrokerTls valid = this.site.loopback("client");
        BrokerTls foreignIdentity = new TlsFixture("s9", this.tempDir).loopback("client");
        // Trusts the broker, so only the broker's check of the client can refuse it.
        BrokerTls foreign = new BrokerTls(foreignIdentity.keyStore(), foreignIdentity.keyStorePasswordFile(),
                valid.trustStore(), valid.keyStorePasswordFile(), true);
        ActiveMQConnectionFactory withoutCertificate = client(url, null);
        for (TransportConfiguration connector : withoutCertificate.getStaticConnectors()) {
            connector.getParams().putAll(Map.of(TransportConstants.SSL_ENABLED_PROP_NAME, true,
                    TransportConstants.TRUSTSTORE_TYPE_PROP_NAME, "PKCS12",
                    TransportConstants.TRUSTSTORE_PATH_PROP_NAME, valid.trustStore().toString(),
                    TransportConstants.TRUSTSTORE_PASSWORD_PROP_NAME,
                    BrokerTls.readPassword(valid.keyStorePasswordFile())));
        }

        assertThatExceptionOfType(JMSException.class).as("no client certificate")
                .isThrownBy(() -> send(withoutCertificate, "without a certificate"))
                .withMessageContaining(CONNECTION_REFUSED);
        assertThatExceptionOfType(JMSException.class).as("a certificate of another authority")
                .isThrownBy(() -> send(client(url, foreign), "from another authority"))
                .withMessageContaining(CONNECTION_REFUSED);
        assertThatExceptionOfType(JMSException.class).as("plain TCP")
                .isThrownBy(() -> send(client(url, null), "in plain TCP"))
                .withMessageContaining(CONNECTION_REFUSED);

        assertThat(browse(client(url, valid))).isEmpty();
        assertThat(this.nodes.handler("a").uniqueCount()).isZero();
    }

    @Test
    void aClientRefusesABrokerWhoseCertificateNamesAnotherHost() throws Exception {
        int port = LoopbackPorts.freeTcp();
        JmsTransportSettings settings = JmsTransportSettings.of(NodeId.of("a"), TestNodes.USER, TestNodes.PASSWORD,
                JmsTransportSettings.Embedded.at("127.0.0.1", port, this.tempDir.resolve("a")),
                JmsTransportSettings.Receive.of(10), JmsTransportSettings.Bridge.of(Duration.ofSeconds(1)))
                .withTls(this.site.elsewhere("a"));
        this.broker = new EmbeddedBroker(settings, List.of());
        this.broker.start();
        String url = "tcp://127.0.0.1:" + port;
        BrokerTls client = this.site.loopback("client");

        assertThatExceptionOfType(JMSException.class)
                .isThrownBy(() -> send(client(url, client), "to a broker for another host"))
                .withMessageContaining(CONNECTION_REFUSED);

        // The same client without the host check gets through: the check is what refused it.
        assertThat(browse(client(url, client.withVerifyHost(false)))).isEmpty();
        send(client(url, client.withVerifyHost(false)), "host not checked");
        assertThat(browse(client(url, client.withVerifyHost(false)))).containsExactly("host not checked");
    }

    @Test
    void settingsNameAKeyStoreThatDoesNotOpenWithThePasswordInItsFileWithoutShowingThePassword() throws Exception {
        BrokerTls tls = this.site.loopback("a");
        Path wrong = Files.writeString(this.tempDir.resolve("wrong.password"), "not-the-password\n");
        BrokerTls misconfigured = new BrokerTls(tls.keyStore(), wrong, tls.trustStore(), tls.keyStorePasswordFile(),
                true);

        assertThatExceptionOfType(InvalidSettingsException.class)
                .isThrownBy(() -> TestNodes.settings(NodeId.of("a"), "gateway", "pw").withTls(misconfigured))
                .withMessageContaining("tls.keyStore").withMessageContaining(wrong.toString())
                .withMessageNotContaining("not-the-password")
                .satisfies((ex) -> assertThat(ex.problems()).extracting(Problem::setting)
                        .containsExactly("tls.keyStore"));
    }

    private String startNode() throws Exception {
        this.nodes = TestNodes.create(this.tempDir, "a").withTls(this.site::loopback);
        this.nodes.start("a");
        return this.nodes.url("a");
    }

    /** A client that fails at once rather than retrying. */
    private static ActiveMQConnectionFactory client(String url, @Nullable BrokerTls tls) {
        ActiveMQConnectionFactory factory = new ActiveMQConnectionFactory(url + "?connect-timeout-millis=5000",
                TestNodes.USER, TestNodes.PASSWORD);
        factory.setCallTimeout(5_000);
        factory.setReconnectAttempts(0);
        return BrokerTls.secure(factory, tls);
    }

    private static void send(ActiveMQConnectionFactory factory, String text) throws JMSException {
        try (factory; Connection connection = factory.createConnection()) {
            Session session = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
            session.createProducer(session.createQueue(PROBE_QUEUE)).send(session.createTextMessage(text));
        }
    }

    private static List<String> browse(ActiveMQConnectionFactory factory) throws JMSException {
        try (factory; Connection connection = factory.createConnection()) {
            Session session = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
            try (QueueBrowser browser = session.createBrowser(session.createQueue(PROBE_QUEUE))) {
                List<String> texts = new ArrayList<>();
                for (Object message : Collections.list(browser.getEnumeration())) {
                    texts.add(((TextMessage) message).getText());
                }
                return texts;
            }
        }
    }
}
