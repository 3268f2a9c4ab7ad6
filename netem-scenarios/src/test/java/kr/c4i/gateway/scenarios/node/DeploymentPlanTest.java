package kr.c4i.gateway.scenarios.node;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import kr.c4i.gateway.core.transport.TransportKind;
import kr.c4i.gateway.pki.SiteDirectory;
import kr.c4i.gateway.pki.TlsStores;
import kr.c4i.gateway.scenarios.net.Topology;

class DeploymentPlanTest {

    private final Topology topology = new Topology("c4g-", "10.77.0", 6);
    private final NodeSettings settings = new NodeSettings(Path.of("/jdk/bin/java"), Path.of("/x/gateway-tools-exec.jar"),
            "384m", "1s", 7, "239.255.0.1", Map.of("gateway.outbox.batch-size", "100"), Map.of());
    private final Map<Integer, List<String>> routing = Map.of(2, List.of("SITREP", "LOGSITREP"), 3,
            List.of("AIRSITREP"));

    @Test
    void jmsNodesBindTheirOwnAddressAndKnowOnlyTheDeploymentsPeers() {
        List<NodeSpec> nodes = DeploymentPlan.nodes(topology, TransportKind.JMS, List.of(1, 2, 3), routing, settings,
                null);
        assertThat(nodes).extracting(NodeSpec::id).containsExactly("n1", "n2", "n3");
        Map<String, String> n1 = nodes.getFirst().properties();
        assertThat(n1).containsEntry("gateway.jms.embedded.host", "10.77.0.1")
                .containsEntry("gateway.jms.embedded.port", "61616")
                .containsEntry("gateway.jms.user", NodeSettings.JMS_USER)
                .containsEntry("gateway.jms.bridge-max-retry-interval", "1s")
                .containsEntry("gateway.jms.peers.n2.url", "tcp://10.77.0.2:61616")
                .containsEntry("gateway.jms.peers.n3.url", "tcp://10.77.0.3:61616")
                .doesNotContainKey("gateway.jms.peers.n1.url").doesNotContainKey("gateway.jms.peers.n4.url")
                .containsEntry("gateway.outbox.batch-size", "100")
                .containsEntry("gateway.jms.tls.plain-tcp", "true").doesNotContainKey("gateway.jms.tls.key-store");
    }

    @Test
    void securedJmsNodesUseTheirOwnIdentityForMutualTlsAndNotPlainTcp() {
        List<NodeSpec> nodes = DeploymentPlan.nodes(topology, TransportKind.JMS, List.of(1, 2), routing, settings,
                pki(1, 2));
        assertThat(nodes.get(1).properties()).containsEntry("gateway.jms.tls.key-store", "/p/n2/n2.p12")
                .containsEntry("gateway.jms.tls.key-store-password-file", "/p/n2/n2.password")
                .containsEntry("gateway.jms.tls.trust-store", "/p/n2/trust.p12")
                .containsEntry("gateway.jms.peers.n1.url", "tcp://10.77.0.1:61616")
                .doesNotContainKeys("gateway.jms.tls.plain-tcp", "gateway.dds.security.directory");
    }

    @Test
    void securedDdsNodesEachJoinUnderTheirOwnIdentity() {
        List<NodeSpec> nodes = DeploymentPlan.nodes(topology, TransportKind.DDS, List.of(1, 2), routing, settings,
                pki(1, 2));
        assertThat(nodes.getFirst().properties()).containsEntry("gateway.dds.security.directory", "/p")
                .containsEntry("gateway.dds.security.identity-certificate", "/p/n1/identity.crt")
                .containsEntry("gateway.dds.security.private-key", "/p/n1/identity.key")
                .doesNotContainKeys("gateway.jms.tls.plain-tcp", "gateway.jms.tls.key-store",
                        "gateway.dds.security.plain");
        assertThat(nodes.get(1).properties()).containsEntry("gateway.dds.security.identity-certificate",
                "/p/n2/identity.crt");
        assertThat(DeploymentPlan.nodes(topology, TransportKind.DDS, List.of(1, 2), routing, settings, null)
                .getFirst().properties()).doesNotContainKeys("gateway.dds.security.directory",
                        "gateway.dds.security.identity-certificate")
                .as("without a PKI, plain DDS explicitly").containsEntry("gateway.dds.security.plain", "true");
    }

    /** A site PKI's file names as the runner's would be, for the nodes on these hosts. */
    static SitePki pki(int... hosts) {
        Map<String, SiteDirectory.HolderFiles> holders = new java.util.LinkedHashMap<>();
        for (int host : hosts) {
            String id = NodeSpec.idOf(host);
            Path home = Path.of("/p", id);
            holders.put(id, new SiteDirectory.HolderFiles(home.resolve("identity.crt"), home.resolve("identity.key"),
                    TlsStores.in(home, id)));
        }
        return new SitePki(Path.of("/p"), Path.of("/p/authority/ca.crt"), holders);
    }

    @Test
    void everyNodeGetsTheSameRoutingTableLimitedToTheDeployment() {
        List<NodeSpec> pair = DeploymentPlan.nodes(topology, TransportKind.JMS, List.of(1, 2), routing, settings, null);
        for (NodeSpec node : pair) {
            assertThat(node.properties()).containsEntry("gateway.routing.subscriptions.n2", "SITREP,LOGSITREP")
                    .doesNotContainKey("gateway.routing.subscriptions.n3");
        }
    }

    @Test
    void ddsNodesUseTheHostInterfaceAndTheMulticastGroupWithoutUnicastPeers() {
        NodeSpec n2 = DeploymentPlan.nodes(topology, TransportKind.DDS, List.of(1, 2, 3), routing, settings, null)
                .get(1);
        assertThat(n2.properties()).containsEntry("gateway.dds.domain-id", "7")
                .containsEntry("gateway.dds.network-interface", "eth0")
                .containsEntry("gateway.dds.multicast-address", "239.255.0.1")
                .doesNotContainKeys("gateway.dds.peers", "gateway.jms.user", "gateway.jms.embedded.host");
    }

    @Test
    void theNodeRunsInItsHostsNamespaceExactlyAsUsersStartIt() {
        NodeSpec n2 = DeploymentPlan.nodes(topology, TransportKind.DDS, List.of(1, 2), routing, settings, null).get(1);
        List<String> argv = DeploymentPlan.command(topology, n2, settings, Path.of("/w"), Path.of("/w/sockets/n2"));
        assertThat(argv.subList(0, 10)).containsExactly("ip", "netns", "exec", "c4g-h2", "/jdk/bin/java",
                "--sun-misc-unsafe-memory-access=allow", "--enable-native-access=ALL-UNNAMED", "-Xmx384m",
                "-jar", "/x/gateway-tools-exec.jar");
        assertThat(String.join(" ", argv)).contains(
                "node --id n2 --transport dds --work-dir /w --http-port 8080 --pg-socket-dir /w/sockets/n2 -- ",
                "--gateway.dds.multicast-address=239.255.0.1", "--gateway.routing.subscriptions.n2=SITREP,LOGSITREP");
        assertThat(argv).doesNotContain("--gateway.node.id=n2");
    }

    @Test
    void theBrokerPasswordGoesInTheNodesEnvironmentNotOnItsLoggedCommandLine() {
        NodeSpec n1 = DeploymentPlan.nodes(topology, TransportKind.JMS, List.of(1, 2), routing, settings, null)
                .getFirst();
        List<String> argv = DeploymentPlan.command(topology, n1, settings, Path.of("/w"), Path.of("/w/sockets/n1"));
        assertThat(String.join(" ", argv)).contains("--gateway.jms.user=" + NodeSettings.JMS_USER)
                .doesNotContain(NodeSettings.JMS_PASSWORD);
        assertThat(n1.environment()).containsExactly(Map.entry("GATEWAY_JMS_PASSWORD", NodeSettings.JMS_PASSWORD));
    }
}
