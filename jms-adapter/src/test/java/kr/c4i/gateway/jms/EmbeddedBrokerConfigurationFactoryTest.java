package kr.c4i.gateway.jms;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;

import kr.c4i.gateway.core.NodeId;
import org.apache.activemq.artemis.api.core.TransportConfiguration;
import org.apache.activemq.artemis.core.config.BridgeConfiguration;
import org.apache.activemq.artemis.core.config.Configuration;
import org.apache.activemq.artemis.core.config.CoreAddressConfiguration;
import org.apache.activemq.artemis.core.config.ha.ReplicaPolicyConfiguration;
import org.apache.activemq.artemis.core.config.ha.ReplicatedPolicyConfiguration;
import org.apache.activemq.artemis.core.server.JournalType;
import org.apache.activemq.artemis.core.server.cluster.impl.MessageLoadBalancingType;
import org.apache.activemq.artemis.core.settings.impl.AddressSettings;
import org.apache.activemq.artemis.jms.client.ActiveMQConnectionFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

class EmbeddedBrokerConfigurationFactoryTest {

    private static final NodeId A = NodeId.of("a");
    private static final NodeId B = NodeId.of("b");

    private final JmsTransportSettings settings = TestNodes.settings(A, "gateway", "pw")
            .withEmbedded(JmsTransportSettings.Embedded.at("127.0.0.1", 61700, Path.of("/var/lib/gw/a")))
            .withPeers(Map.of(B, new JmsTransportSettings.Peer("tcp://node-b:61616", "gw-b", "pw-b")));

    private final Configuration configuration = new EmbeddedBrokerConfigurationFactory(this.settings)
            .createConfiguration();

    @Test
    void brokerIsPersistentUnderTheDataDirectoryWithJmxOff() {
        assertThat(this.configuration.isPersistenceEnabled()).isTrue();
        assertThat(this.configuration.getJournalType()).isEqualTo(JournalType.NIO);
        assertThat(this.configuration.getJournalDirectory()).isEqualTo("/var/lib/gw/a/journal");
        assertThat(this.configuration.getBindingsDirectory()).isEqualTo("/var/lib/gw/a/bindings");
        assertThat(this.configuration.getPagingDirectory()).isEqualTo("/var/lib/gw/a/paging");
        assertThat(this.configuration.getLargeMessagesDirectory()).isEqualTo("/var/lib/gw/a/large-messages");
        assertThat(this.configuration.isJournalSyncTransactional()).isTrue();
        assertThat(this.configuration.isJMXManagementEnabled()).isFalse();
        assertThat(this.configuration.getIDCacheSize()).isEqualTo(2_000);
        assertThat(this.configuration.isPersistIDCache()).isTrue();
    }

    @Test
    void oneCoreAcceptorListensOnTheConfiguredPort() {
        assertThat(this.configuration.getAcceptorConfigurations()).singleElement().satisfies((acceptor) -> {
            assertThat(acceptor.getParams()).containsEntry("host", "127.0.0.1").containsEntry("port", "61700")
                    .containsEntry("protocols", "CORE");
        });
    }

    @Test
    void withTlsTheAcceptorRequiresAClientCertificateAndTheBridgeChecksThePeersHostWithoutShowingAPassword(
            @TempDir Path dir) {
        BrokerTls tls = new TlsFixture("s1", dir).loopback("a");
        String password = BrokerTls.readPassword(tls.keyStorePasswordFile());

        Configuration secured = new EmbeddedBrokerConfigurationFactory(this.settings.withTls(tls))
                .createConfiguration();

        assertThat(secured.getAcceptorConfigurations()).singleElement().satisfies((acceptor) -> {
            assertThat(acceptor.getParams()).containsEntry("sslEnabled", true).containsEntry("needClientAuth", true)
                    .containsEntry("keyStoreType", "PKCS12")
                    .containsEntry("keyStorePath", tls.keyStore().toAbsolutePath().toString())
                    .containsEntry("trustStorePath", tls.trustStore().toAbsolutePath().toString())
                    .containsEntry("protocols", "CORE");
            assertThat(acceptor.toString()).doesNotContain(password);
        });
        TransportConfiguration bridge = secured.getConnectorConfigurations().get("kmtf-peer-b");
        assertThat(bridge.getParams()).containsEntry("sslEnabled", true).containsEntry("verifyHost", true)
                .containsEntry("keyStorePath", tls.keyStore().toAbsolutePath().toString())
                .containsEntry("host", "node-b").doesNotContainKey("needClientAuth");
        assertThat(bridge.toString()).doesNotContain(password);
        assertThat(this.configuration.getAcceptorConfigurations()).singleElement()
                .satisfies((plain) -> assertThat(plain.getParams()).doesNotContainKey("sslEnabled"));
    }

    @Test
    void securityIsOnWithOneRoleAllowedEverything() {
        assertThat(this.configuration.isSecurityEnabled()).isTrue();
        assertThat(this.configuration.getSecurityRoles().get("#")).singleElement().satisfies((role) -> {
            assertThat(role.getName()).isEqualTo("gateway");
            assertThat(role.isSend() && role.isConsume() && role.isManage() && role.isBrowse()
                    && role.isCreateDurableQueue() && role.isCreateAddress()).isTrue();
        });
        assertThat(new EmbeddedBrokerConfigurationFactory(this.settings).createSecurityManager().getConfiguration()
                .getDefaultUser()).isNull();
    }

    @Test
    void everyNodeHasADurableAnycastQueueNamedAfterIt() {
        assertThat(this.configuration.getAddressConfigurations()).extracting(CoreAddressConfiguration::getName)
                .containsExactlyInAnyOrder("kmtf.node.a", "kmtf.node.b", "kmtf.invalid");
        assertThat(this.configuration.getAddressConfigurations()).allSatisfy((address) -> {
            assertThat(address.getQueueConfigs()).singleElement().satisfies((queue) -> {
                assertThat(queue.getName().toString()).isEqualTo(address.getName());
                assertThat(queue.isDurable()).isTrue();
                assertThat(queue.getRoutingType().name()).isEqualTo("ANYCAST");
            });
        });
    }

    @Test
    void aGatewayHoldsADurableQueueWithoutABridgeForEachRelayedNode() {
        Configuration gateway = new EmbeddedBrokerConfigurationFactory(this.settings, Set.of(NodeId.of("remote")))
                .createConfiguration();
        assertThat(gateway.getAddressConfigurations()).extracting(CoreAddressConfiguration::getName)
                .containsExactlyInAnyOrder("kmtf.node.a", "kmtf.node.b", "kmtf.invalid", "kmtf.node.remote");
        assertThat(gateway.getAddressSettings().get("kmtf.node.remote").getMaxDeliveryAttempts()).isEqualTo(-1);
        assertThat(gateway.getBridgeConfigurations()).extracting(BridgeConfiguration::getQueueName)
                .containsExactly("kmtf.node.b");
    }

    @Test
    void queuesNeverDeadLetterAndTheInboxRedeliversWithBackoff() {
        AddressSettings addressSettings = this.configuration.getAddressSettings().get("kmtf.node.a");
        assertThat(addressSettings.getMaxDeliveryAttempts()).isEqualTo(-1);
        assertThat(addressSettings.getRedeliveryDelay()).isEqualTo(100);
        assertThat(addressSettings.getRedeliveryMultiplier()).isEqualTo(2.0);
        assertThat(addressSettings.getMaxRedeliveryDelay()).isEqualTo(5000);
        assertThat(addressSettings.getDeadLetterAddress().toString()).isEqualTo("kmtf.invalid");
        assertThat(addressSettings.getExpiryAddress().toString()).isEqualTo("kmtf.invalid");
        assertThat(this.configuration.getAddressSettings()).containsKeys("kmtf.node.b", "kmtf.invalid");
    }

    @Test
    void aPeersQueueHandsBackWithoutDelaySoWhatABridgeHadInFlightKeepsItsPlace() {
        AddressSettings addressSettings = this.configuration.getAddressSettings().get("kmtf.node.b");
        assertThat(addressSettings.getRedeliveryDelay()).isZero();
        assertThat(addressSettings.getMaxDeliveryAttempts()).isEqualTo(-1);
        assertThat(addressSettings.getDeadLetterAddress().toString()).isEqualTo("kmtf.invalid");
    }

    @Test
    void eachPeerQueueIsBridgedToThePeersBrokerForEver() {
        assertThat(this.configuration.getConnectorConfigurations().get("kmtf-peer-b").getParams())
                .containsEntry("host", "node-b").containsEntry("port", "61616");
        BridgeConfiguration bridge = this.configuration.getBridgeConfigurations().getFirst();
        assertThat(this.configuration.getBridgeConfigurations()).hasSize(1);
        assertThat(bridge.getName()).isEqualTo("kmtf-bridge-to-b");
        assertThat(bridge.getQueueName()).isEqualTo("kmtf.node.b");
        assertThat(bridge.getForwardingAddress()).isEqualTo("kmtf.node.b");
        assertThat(bridge.getStaticConnectors()).containsExactly("kmtf-peer-b");
        assertThat(bridge.getUser()).isEqualTo("gw-b");
        assertThat(bridge.getPassword()).isEqualTo("pw-b");
        assertThat(bridge.getReconnectAttempts()).isEqualTo(-1);
        assertThat(bridge.getInitialConnectAttempts()).isEqualTo(-1);
        assertThat(bridge.isUseDuplicateDetection()).isTrue();
        assertThat(bridge.isHA()).isFalse();
        assertThat(bridge.getConfirmationWindowSize()).isEqualTo(1024 * 1024);
        assertThat(bridge.getMaxRetryInterval()).isEqualTo(10_000);
    }

    @Test
    void aPeerIsGivenUpAfterTheBridgesLivenessSettingsAndReconnectedWithoutSynBackOff() {
        assertThat(this.configuration.getConnectorConfigurations().get("kmtf-peer-b").getParams())
                .containsEntry("connect-timeout-millis", 2_000);
        BridgeConfiguration bridge = this.configuration.getBridgeConfigurations().getFirst();
        assertThat(bridge.getClientFailureCheckPeriod()).isEqualTo(10_000);
        assertThat(bridge.getConnectionTTL()).isEqualTo(30_000);
    }

    @Test
    void aLoneBrokerHasNoClusterConnection() {
        assertThat(this.configuration.getClusterConfigurations()).isEmpty();
        // Artemis's default: a primary without a backup.
        assertThat(this.configuration.getHAPolicyConfiguration()).isNull();
    }

    @Test
    void aPrimaryReplicatesThroughOneClusterConnectionToItsBackupAndLooksForItWhenItRestarts() {
        Configuration primary = new EmbeddedBrokerConfigurationFactory(paired(PairRole.PRIMARY, this.settings))
                .createConfiguration();

        assertThat(primary.getHAPolicyConfiguration()).isInstanceOfSatisfying(ReplicatedPolicyConfiguration.class,
                (policy) -> {
                    assertThat(policy.isCheckForActiveServer()).isTrue();
                    assertThat(policy.getVoteOnReplicationFailure()).isFalse();
                    assertThat(policy.getClusterName()).isEqualTo("kmtf-pair");
                    assertThat(policy.getGroupName()).isEqualTo("kmtf-a");
                });
        assertThat(primary.getClusterConfigurations()).singleElement().satisfies((cluster) -> {
            assertThat(cluster.getName()).isEqualTo("kmtf-pair");
            assertThat(cluster.getConnectorName()).isEqualTo("kmtf-pair-primary");
            assertThat(cluster.getStaticConnectors()).containsExactly("kmtf-pair-backup");
            assertThat(cluster.getMessageLoadBalancingType()).isEqualTo(MessageLoadBalancingType.OFF);
            assertThat(cluster.getClientFailureCheckPeriod()).isEqualTo(5_000);
            assertThat(cluster.getConnectionTTL()).isEqualTo(15_000);
            assertThat(cluster.getRetryInterval()).isEqualTo(500);
            assertThat(cluster.getRetryIntervalMultiplier()).isEqualTo(2.0);
            assertThat(cluster.getMaxRetryInterval()).isEqualTo(2_000);
        });
        assertThat(primary.getConnectorConfigurations().get("kmtf-pair-primary").getParams())
                .containsEntry("host", "node-a1").containsEntry("port", 61700);
        assertThat(primary.getConnectorConfigurations().get("kmtf-pair-backup").getParams())
                .containsEntry("host", "node-a2").containsEntry("port", 61616)
                .containsEntry("connect-timeout-millis", 2_000);
        assertThat(primary.getClusterUser()).isEqualTo("gateway");
        assertThat(primary.getClusterPassword()).isEqualTo("pw");
        assertThat(primary.getAcceptorConfigurations()).hasSize(1);
    }

    @Test
    void aBackupHandsBackToItsPrimaryAndStartsAgainAsItsBackup() {
        JmsTransportSettings backupSettings = this.settings.withEmbedded(
                JmsTransportSettings.Embedded.at("node-a2", 61616, Path.of("/var/lib/gw/a"))
                        .withPair(new JmsTransportSettings.Pair(PairRole.BACKUP, "node-a1:61700", null, "pair",
                                "pair-pw", Duration.ofSeconds(2), Duration.ofSeconds(6))));

        Configuration backup = new EmbeddedBrokerConfigurationFactory(backupSettings).createConfiguration();

        assertThat(backup.getHAPolicyConfiguration()).isInstanceOfSatisfying(ReplicaPolicyConfiguration.class,
                (policy) -> {
                    assertThat(policy.isAllowFailBack()).isTrue();
                    assertThat(policy.isRestartBackup()).isTrue();
                    assertThat(policy.getGroupName()).isEqualTo("kmtf-a");
                });
        assertThat(backup.getClusterConfigurations()).singleElement().satisfies((cluster) -> {
            assertThat(cluster.getConnectorName()).isEqualTo("kmtf-pair-backup");
            assertThat(cluster.getStaticConnectors()).containsExactly("kmtf-pair-primary");
        });
        assertThat(backup.getConnectorConfigurations().get("kmtf-pair-primary").getParams())
                .containsEntry("host", "node-a1").containsEntry("port", 61700);
        assertThat(backup.getClusterUser()).isEqualTo("pair");
        assertThat(backup.getClusterPassword()).isEqualTo("pair-pw");
    }

    @Test
    void thisNodesClientsListBothBrokersPrimaryFirstAndFollowTheActiveOneForEver() {
        JmsConnectionFactoryFactory factory = new JmsConnectionFactoryFactory(paired(PairRole.BACKUP,
                this.settings.withEmbedded(JmsTransportSettings.Embedded.at("node-a2", 61616, Path.of("d")))));

        assertThat(factory.brokerUrl())
                .isEqualTo("(tcp://node-a1:61700,tcp://node-a2:61616)?ha=true&reconnectAttempts=-1");
        ActiveMQConnectionFactory clients = factory.createConnectionFactory();
        assertThat(clients.isHA()).isTrue();
        assertThat(clients.getReconnectAttempts()).isEqualTo(-1);
        assertThat(clients.getClientFailureCheckPeriod()).isEqualTo(5_000);
        assertThat(clients.getStaticConnectors()).extracting(TransportConfiguration::getName)
                .containsExactly("kmtf-pair-primary", "kmtf-pair-backup");
        clients.close();
    }

    @Test
    void withTlsBothBrokersOfAPairAreReachedByTrustNameWithoutAStoreOrPassword(@TempDir Path dir) {
        BrokerTls tls = new TlsFixture("s1", dir).loopback("a");

        Configuration secured = new EmbeddedBrokerConfigurationFactory(paired(PairRole.PRIMARY,
                this.settings.withTls(tls))).createConfiguration();

        for (String name : List.of("kmtf-pair-primary", "kmtf-pair-backup")) {
            assertThat(secured.getConnectorConfigurations().get(name).getParams()).as(name)
                    .containsEntry("sslEnabled", true).containsEntry("sslContext", tls.contextName())
                    .containsEntry("verifyHost", true)
                    .doesNotContainKeys("keyStorePath", "keyStorePassword", "trustStorePath", "trustStorePassword");
        }
    }

    @Test
    void aPeerThatIsAPairIsBridgedToBothOfItsBrokersFollowingTheActiveOne() {
        Configuration bridged = new EmbeddedBrokerConfigurationFactory(this.settings.withPeers(Map.of(B,
                JmsTransportSettings.Peer.at("(tcp://node-b1:61616,tcp://node-b2:61617)?ha=true&reconnectAttempts=-1"))))
                .createConfiguration();

        BridgeConfiguration bridge = bridged.getBridgeConfigurations().getFirst();
        assertThat(bridge.getStaticConnectors()).containsExactly("kmtf-peer-b", "kmtf-peer-b-2");
        assertThat(bridge.isHA()).isTrue();
        assertThat(bridge.getReconnectAttempts()).isEqualTo(-1);
        assertThat(bridge.isUseDuplicateDetection()).isTrue();
        assertThat(bridged.getConnectorConfigurations().get("kmtf-peer-b").getParams())
                .containsEntry("host", "node-b1").containsEntry("port", "61616");
        assertThat(bridged.getConnectorConfigurations().get("kmtf-peer-b-2").getParams())
                .containsEntry("host", "node-b2").containsEntry("port", "61617");
        assertThat(bridged.getConnectorConfigurations().get("kmtf-peer-b-2").getExtraParams())
                .doesNotContainKeys("ha", "reconnectAttempts");
    }

    /** These settings as the {@code role} broker of node a's pair: node-a1:61700 and node-a2:61616. */
    private static JmsTransportSettings paired(PairRole role, JmsTransportSettings settings) {
        JmsTransportSettings.Embedded embedded = settings.embedded();
        String partner = (role == PairRole.PRIMARY) ? "node-a2:61616" : "node-a1:61700";
        String host = (role == PairRole.PRIMARY) ? "node-a1" : "node-a2";
        int port = (role == PairRole.PRIMARY) ? 61700 : 61616;
        return settings.withEmbedded(JmsTransportSettings.Embedded.at("0.0.0.0", port, embedded.dataDirectory())
                .withPair(JmsTransportSettings.Pair.of(role, partner).withHost(host)));
    }

    @Test
    void wildcardBindAddressIsReachedThroughLoopback() {
        assertThat(EmbeddedBrokerConfigurationFactory.connectHost("0.0.0.0")).isEqualTo("127.0.0.1");
        assertThat(EmbeddedBrokerConfigurationFactory.connectHost("::")).isEqualTo("[::1]");
        assertThat(EmbeddedBrokerConfigurationFactory.connectHost("10.1.2.3")).isEqualTo("10.1.2.3");
    }
}
