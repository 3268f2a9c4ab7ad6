package kr.c4i.gateway.jms;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import kr.c4i.gateway.core.NodeId;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class JmsTransportSettingsTest {

    private static final NodeId A = NodeId.of("a");
    private static final NodeId B = NodeId.of("b");
    private static final JmsTransportSettings DEFAULTS = TestNodes.settings(A, "gateway", "pw");

    @Test
    void defaultsAreTheDocumentedOnes() {
        JmsTransportSettings settings = TestNodes.settings(A, "gateway", "pw");

        assertThat(settings.effectiveMode()).isEqualTo(BrokerMode.EMBEDDED);
        assertThat(settings.queuePrefix()).isEqualTo("kmtf.node.");
        assertThat(settings.invalidQueue()).isEqualTo("kmtf.invalid");
        assertThat(settings.queueName(B)).isEqualTo("kmtf.node.b");
        assertThat(settings.embedded().journalSyncTransactional()).isTrue();
        assertThat(settings.embedded().duplicateIdCacheSize()).isEqualTo(2_000);
        assertThat(settings.receive().timeout()).isEqualTo(Duration.ofSeconds(1));
        assertThat(settings.peers()).isEmpty();
    }

    @Test
    void brokerUrlMeansExternalUnlessModeIsSet() {
        JmsTransportSettings settings = TestNodes.settings(A, "gateway", "pw").withBrokerUrl("tcp://broker:61616");

        assertThat(settings.mode()).isNull();
        assertThat(settings.effectiveMode()).isEqualTo(BrokerMode.EXTERNAL);
        assertThat(settings.withMode(BrokerMode.EMBEDDED).effectiveMode()).isEqualTo(BrokerMode.EMBEDDED);
    }

    @Test
    void blankUserIsRejectedNamingTheSetting() {
        assertThatIllegalArgumentException().isThrownBy(() -> TestNodes.settings(A, " ", "pw"))
                .withMessage("Invalid JMS transport settings: user must not be blank");
    }

    @Test
    void everyBadSettingIsNamedInOneException() {
        JmsTransportSettings.Embedded embedded = new JmsTransportSettings.Embedded("", 0, null, true,
                Duration.ofSeconds(1), Duration.ofMillis(10), 0);
        Map<NodeId, JmsTransportSettings.Peer> peers = Map.of(A, JmsTransportSettings.Peer.at("tcp://a:61616"), B,
                new JmsTransportSettings.Peer("bogus://b", null, null), NodeId.of("c"),
                new JmsTransportSettings.Peer(null, null, null));

        assertThatIllegalArgumentException()
                .isThrownBy(() -> new JmsTransportSettings(A, null, null, "", null, embedded, peers, "kmtf node.",
                        "kmtf.#", new JmsTransportSettings.Receive(0, Duration.ZERO, Duration.ofSeconds(2),
                                Duration.ofSeconds(1)),
                        new JmsTransportSettings.Bridge(Duration.ofMillis(-1), 0.5, Duration.ofSeconds(1), 0,
                                Duration.ofSeconds(10), Duration.ofSeconds(5))))
                .withMessageContainingAll("user must not be blank", "password must not be blank",
                        "embedded.host must not be blank", "embedded.port must be 1..65535, was 0",
                        "embedded.maxRedeliveryDelay (PT0.01S) must not be shorter than embedded.redeliveryDelay",
                        "embedded.duplicateIdCacheSize", "peers.a is this node itself", "peers.b.url 'bogus://b'",
                        "peers.c.url must be set in embedded mode", "queuePrefix 'kmtf node.'", "invalidQueue 'kmtf.#'",
                        "receive.batchSize",
                        "receive.timeout", "receive.maxRetryBackoff", "bridge.retryInterval",
                        "bridge.retryIntervalMultiplier", "bridge.confirmationWindowSize",
                        "bridge.connectionTtl (PT5S) must not be shorter than bridge.failureCheckPeriod");
    }

    @Test
    void invalidQueueMustNotLookLikeANodesQueue() {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> new JmsTransportSettings(A, null, null, "gateway", "pw",
                        DEFAULTS.embedded(), Map.of(), "kmtf.node.", "kmtf.node.invalid", DEFAULTS.receive(),
                        DEFAULTS.bridge()))
                .withMessageContaining("invalidQueue 'kmtf.node.invalid' must not start with queuePrefix 'kmtf.node.'");
    }

    @Test
    void externalModeNeedsAValidBrokerUrlButNoPeerUrls() {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> TestNodes.settings(A, "gateway", "pw").withMode(BrokerMode.EXTERNAL))
                .withMessageContaining("brokerUrl must be set when mode is external");
        assertThatIllegalArgumentException()
                .isThrownBy(() -> TestNodes.settings(A, "gateway", "pw").withBrokerUrl("nope://x"))
                .withMessageContaining("brokerUrl 'nope://x' is not a valid Artemis broker URL");

        JmsTransportSettings settings = TestNodes.settings(A, "gateway", "pw")
                .withBrokerUrl("(tcp://broker1:61616,tcp://broker2:61616)?ha=true")
                .withPeers(Map.of(B, new JmsTransportSettings.Peer(null, null, null)));
        assertThat(settings.peers()).containsOnlyKeys(B);
    }

    @Test
    void peerWithoutCredentialsUsesTheNodesOwn() {
        JmsTransportSettings settings = TestNodes.settings(A, "gateway", "pw")
                .withPeers(Map.of(B, JmsTransportSettings.Peer.at("tcp://b:61616")));
        JmsTransportSettings.Peer b = settings.peers().get(B);

        assertThat(settings.userFor(b)).isEqualTo("gateway");
        assertThat(settings.passwordFor(b)).isEqualTo("pw");
        assertThat(settings.passwordFor(new JmsTransportSettings.Peer("tcp://b:61616", "other", "pw2"))).isEqualTo("pw2");
    }

    @Test
    void toStringHidesPasswords() {
        JmsTransportSettings settings = TestNodes.settings(A, "gateway", "top-secret")
                .withPeers(Map.of(B, new JmsTransportSettings.Peer("tcp://b:61616", "gw-b", "peer-secret")));

        assertThat(settings.toString()).contains("gateway", "gw-b").doesNotContain("top-secret", "peer-secret");
    }

    @Test
    void aLoneBrokerHasNoPair() {
        assertThat(DEFAULTS.embedded().pair()).isNull();
    }

    @Test
    void everyBadPairSettingIsNamed() {
        JmsTransportSettings.Embedded wildcard = DEFAULTS.embedded().withPair(new JmsTransportSettings.Pair(null,
                "node-b2:70000", null, "cluster", null, Duration.ofSeconds(5), Duration.ofSeconds(1)));

        assertThatIllegalArgumentException().isThrownBy(() -> DEFAULTS.withEmbedded(wildcard))
                .withMessageContainingAll("embedded.pair.role must be primary or backup",
                        "embedded.pair.partner 'node-b2:70000' must end in a port 1..65535",
                        "embedded.pair.host must be set when embedded.host is the wildcard address '0.0.0.0'",
                        "embedded.pair.clusterUser and embedded.pair.clusterPassword must be set together",
                        "embedded.pair.connectionTtl (PT1S) must not be shorter than embedded.pair.failureCheckPeriod");
    }

    @Test
    void aPairsPartnerIsNotThisBroker() {
        JmsTransportSettings.Embedded self = JmsTransportSettings.Embedded.at("0.0.0.0", 61616, Path.of("d"))
                .withPair(JmsTransportSettings.Pair.of(PairRole.PRIMARY, "node-b1:61616").withHost("node-b1"));

        assertThatIllegalArgumentException().isThrownBy(() -> DEFAULTS.withEmbedded(self))
                .withMessage("Invalid JMS transport settings: embedded.pair.partner 'node-b1:61616' is this broker "
                        + "itself; it must be the other broker of the pair");
    }

    @Test
    void aPairIsForAnEmbeddedBrokerOnly() {
        JmsTransportSettings.Embedded paired = JmsTransportSettings.Embedded.at("node-b1", 61616, Path.of("d"))
                .withPair(JmsTransportSettings.Pair.of(PairRole.BACKUP, "[fd00::2]:61616"));

        assertThat(DEFAULTS.withEmbedded(paired).embedded().pair().partnerHost()).isEqualTo("fd00::2");
        assertThatIllegalArgumentException()
                .isThrownBy(() -> DEFAULTS.withEmbedded(paired).withBrokerUrl("tcp://broker:61616"))
                .withMessageContaining("embedded.pair is for an embedded broker; list an external pair's brokers in "
                        + "brokerUrl");
    }

    @Test
    void toStringHidesTheClusterPassword() {
        JmsTransportSettings.Pair pair = new JmsTransportSettings.Pair(PairRole.PRIMARY, "node-b2:61616", "node-b1",
                "cluster", "cluster-secret", Duration.ofSeconds(5), Duration.ofSeconds(15));

        assertThat(DEFAULTS.withEmbedded(DEFAULTS.embedded().withPair(pair)).toString())
                .contains("role=PRIMARY", "partner=node-b2:61616").doesNotContain("cluster-secret");
    }

    @Test
    void pairRoleParsesLowerCaseNames() {
        assertThat(PairRole.parse(" Backup ")).isEqualTo(PairRole.BACKUP);
        assertThat(PairRole.PRIMARY.partner()).isEqualTo(PairRole.BACKUP);
        assertThatIllegalArgumentException().isThrownBy(() -> PairRole.parse("standby"))
                .withMessageContaining("primary, backup");
    }

    @Test
    void brokerModeParsesLowerCaseNames() {
        assertThat(BrokerMode.parse("External")).isEqualTo(BrokerMode.EXTERNAL);
        assertThatIllegalArgumentException().isThrownBy(() -> BrokerMode.parse("cloud"))
                .withMessageContaining("embedded, external");
    }
}
