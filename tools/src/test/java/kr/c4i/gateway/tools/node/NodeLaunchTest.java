package kr.c4i.gateway.tools.node;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;

import kr.c4i.gateway.core.transport.TransportKind;
import kr.c4i.gateway.jms.PairRole;

class NodeLaunchTest {

    private final NodeLaunch launch = NodeLaunch.builder("b", TransportKind.JMS).roles(false, true).subscription("b", "*")
            .jmsCredentials("gateway", "broker-secret").embeddedBroker("127.0.0.1", 61617)
            .brokerDataDirectory(Path.of("/w/b/artemis")).jmsPeer("a", "tcp://127.0.0.1:61616")
            .datasource("jdbc:postgresql://localhost:5432/postgres", "postgres", "db-secret")
            .managementPort(8082).managementPassword("mgmt-secret").property("gateway.outbox.batch-size", "100")
            .build();

    @Test
    void inTheJvmEveryPropertyIsGivenInOrder() {
        assertThat(launch.properties()).containsEntry("gateway.node.id", "b")
                .containsEntry("gateway.node.transport", "jms").containsEntry("gateway.inbox.enabled", "true")
                .containsEntry("gateway.jms.password", "broker-secret")
                .containsEntry("spring.datasource.password", "db-secret")
                .containsEntry("spring.security.user.password", "mgmt-secret");
        assertThat(launch.properties().keySet()).startsWith("gateway.node.id", "gateway.node.transport",
                "gateway.outbox.enabled").endsWith("gateway.outbox.batch-size");
        assertThat(launch.id()).isEqualTo("b");
        assertThat(launch.managementPassword()).isEqualTo("mgmt-secret");
    }

    @Test
    void aProcessGetsTheSecretsInItsEnvironmentNeverOnItsCommandLine() {
        List<String> arguments = launch.arguments();
        assertThat(arguments).contains("--gateway.node.id=b", "--gateway.jms.user=gateway",
                "--gateway.jms.embedded.port=61617", "--gateway.jms.peers.a.url=tcp://127.0.0.1:61616",
                "--spring.datasource.username=postgres", "--management.server.port=8082",
                "--gateway.outbox.batch-size=100");
        assertThat(String.join(" ", arguments)).doesNotContain("secret").doesNotContain("password");
        assertThat(launch.environment()).containsExactly(
                java.util.Map.entry("GATEWAY_JMS_PASSWORD", "broker-secret"),
                java.util.Map.entry("SPRING_DATASOURCE_PASSWORD", "db-secret"),
                java.util.Map.entry("SPRING_SECURITY_USER_PASSWORD", "mgmt-secret"));
        assertThat(launch.toString()).doesNotContain("secret");
    }

    @Test
    void aBrokerOfAPairIsGivenItsRolePartnerAndHostWithTheClusterPasswordInTheEnvironment() {
        NodeLaunch backup = NodeLaunch.builder("b", TransportKind.JMS).embeddedBroker("0.0.0.0", 61616)
                .brokerPair(PairRole.BACKUP, "node-b1:61616", "node-b2")
                .property("gateway.jms.embedded.pair.cluster-user", "pair")
                .property("gateway.jms.embedded.pair.cluster-password", "pair-secret").build();
        assertThat(backup.arguments()).contains("--gateway.jms.embedded.pair.role=backup",
                "--gateway.jms.embedded.pair.partner=node-b1:61616", "--gateway.jms.embedded.pair.host=node-b2",
                "--gateway.jms.embedded.pair.cluster-user=pair");
        assertThat(String.join(" ", backup.arguments())).doesNotContain("secret");
        assertThat(backup.environment()).containsExactly(
                java.util.Map.entry("GATEWAY_JMS_EMBEDDED_PAIR_CLUSTERPASSWORD", "pair-secret"));
        assertThat(NodeLaunch.builder("b", TransportKind.JMS).brokerPair(PairRole.PRIMARY, "node-b2:61616", null)
                .build().properties()).containsEntry("gateway.jms.embedded.pair.role", "primary")
                .doesNotContainKey("gateway.jms.embedded.pair.host");
    }

    @Test
    void aPropertyGivenAgainOverridesAndDdsPeersOnlyWhenThereAreSome() {
        NodeLaunch dds = NodeLaunch.builder("n1", TransportKind.DDS).ddsDomain(7).ddsMulticast(false).ddsPeers(List.of())
                .property("gateway.dds.domain-id", "9").build();
        assertThat(dds.properties()).containsEntry("gateway.dds.domain-id", "9")
                .containsEntry("gateway.dds.multicast", "false").doesNotContainKey("gateway.dds.peers");
        assertThat(dds.environment()).isEmpty();
        assertThat(NodeLaunch.builder("n2", TransportKind.DDS).ddsPeers(List.of("10.0.0.1", "10.0.0.3")).build().arguments())
                .contains("--gateway.dds.peers=10.0.0.1,10.0.0.3");
    }

    @Test
    void aDdsNodeRunsPlainDdsUnlessDdsSecurityIsGivenAndAJmsNodeIsToldNothingOfDds() {
        assertThat(NodeLaunch.builder("n1", TransportKind.DDS).ddsDomain(7).build().properties())
                .as("plain DDS unless security is set").containsEntry("gateway.dds.security.plain", "true");
        assertThat(NodeLaunch.builder("n1", TransportKind.DDS).ddsSecurity(Path.of("/pki"),
                Path.of("/pki/n1/identity.crt"), Path.of("/pki/n1/identity.key")).build().properties())
                .containsEntry("gateway.dds.security.directory", "/pki")
                .doesNotContainKey("gateway.dds.security.plain");
        assertThat(NodeLaunch.builder("n1", TransportKind.JMS).jmsPlainTcp().build().properties())
                .doesNotContainKey("gateway.dds.security.plain");
    }
}
