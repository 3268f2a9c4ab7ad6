package kr.c4i.gateway.scenarios.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import kr.c4i.gateway.pki.SiteDirectory;
import kr.c4i.gateway.pki.TlsStores;
import kr.c4i.gateway.scenarios.net.Topology;
import kr.c4i.gateway.scenarios.net.WanTopology;

class WanDeploymentPlanTest {

    private final WanTopology wan = WanTopology.of(Topology.DEFAULT);
    private final NodeSettings settings = new NodeSettings(Path.of("/jdk/bin/java"), Path.of("/x/gateway-tools-exec.jar"),
            "384m", "1s", 7, "239.255.0.1", Map.of(), Map.of());
    private final Map<String, List<String>> subscriptions = Map.of("n4", List.of("LOGSITREP"));

    @Test
    void jmsNodesSendToARemoteNodeThroughTheirSiteGatewaysLanBroker() {
        List<WanDeploymentPlan.SiteNode> nodes = WanDeploymentPlan.nodes(wan, WanLinkKind.JMS, 2, subscriptions,
                settings, Map.of());
        assertThat(nodes).extracting(n -> n.spec().id()).containsExactly("n1", "n2", "n4", "n5");
        assertThat(nodes).extracting(n -> n.spec().host()).containsExactly(1, 2, 1, 2);
        Map<String, String> n1 = nodes.getFirst().spec().properties();
        assertThat(n1).containsEntry("gateway.jms.embedded.host", "10.77.1.1")
                .containsEntry("gateway.jms.peers.n2.url", "tcp://10.77.1.2:61616")
                .containsEntry("gateway.jms.peers.n4.url", "tcp://10.77.1.3:61616")
                .containsEntry("gateway.jms.peers.n5.url", "tcp://10.77.1.3:61616")
                .containsEntry("gateway.routing.subscriptions.n4", "LOGSITREP");
        Map<String, String> n4 = nodes.get(2).spec().properties();
        assertThat(n4).containsEntry("gateway.jms.embedded.host", "10.77.2.1")
                .containsEntry("gateway.jms.peers.n1.url", "tcp://10.77.2.3:61616");
        List<String> command = WanDeploymentPlan.nodeCommand(wan, nodes.get(2), settings, Path.of("/w"), Path.of("/s"));
        assertThat(command.subList(0, 4)).containsExactly("ip", "netns", "exec", "c4gb-h1");
    }

    @Test
    void ddsSitesEachGetTheirOwnDomainAndTheWanAThird() {
        List<WanDeploymentPlan.SiteNode> nodes = WanDeploymentPlan.nodes(wan, WanLinkKind.DDS, 1, subscriptions,
                settings, Map.of());
        assertThat(nodes.getFirst().spec().properties()).containsEntry("gateway.dds.domain-id", "7");
        assertThat(nodes.get(1).spec().properties()).containsEntry("gateway.dds.domain-id", "8")
                .as("without a PKI, plain DDS explicitly").containsEntry("gateway.dds.security.plain", "true");
        assertThat(nodes).allSatisfy(n -> assertThat(n.spec().properties()).as("multicast discovery, as shipped")
                .containsEntry("gateway.dds.multicast-address", settings.multicastAddress())
                .doesNotContainKey("gateway.dds.peers"));
        Map<String, String> gw2 = WanDeploymentPlan.gateway(wan, 2, WanLinkKind.DDS, 1, subscriptions, 244_840, settings,
                Path.of("/w"), Map.of(), Map.of()).launch().properties();
        assertThat(gw2).containsEntry("gateway.wan.lan.dds.security.plain", "true");
        assertThat(gw2).containsEntry("gateway.wan.link", "dds").containsEntry("gateway.wan.lan.transport", "dds")
                .containsEntry("gateway.wan.lan.dds.domain-id", "8")
                .containsEntry("gateway.wan.lan.dds.network-interface", "eth0")
                .as("the site's nodes found on their multicast group")
                .containsEntry("gateway.wan.lan.dds.multicast-address", settings.multicastAddress())
                .doesNotContainKey("gateway.wan.lan.dds.peers")
                .containsEntry("gateway.wan.dds.domain-id", "9")
                .containsEntry("gateway.wan.dds.network-interface", "wan0")
                .containsEntry("gateway.wan.dds.peers.s1", "10.77.3.1");
    }

    @Test
    void aNormGatewayReceivesOnItsWanAddressAndSendsToThePeerGatewaysWanAddressWithDdsLans() {
        List<WanDeploymentPlan.SiteNode> nodes = WanDeploymentPlan.nodes(wan, WanLinkKind.NORM, 1, subscriptions,
                settings, Map.of());
        assertThat(nodes).allSatisfy(n -> assertThat(n.spec().transport()).isEqualTo(
                kr.c4i.gateway.core.transport.TransportKind.DDS));
        Map<String, String> gw1 = WanDeploymentPlan.gateway(wan, 1, WanLinkKind.NORM, 1, subscriptions, 2_000_000,
                settings, Path.of("/w"), Map.of(), Map.of()).launch().properties();
        assertThat(gw1).containsEntry("gateway.wan.link", "norm").containsEntry("gateway.wan.lan.transport", "dds")
                .containsEntry("gateway.wan.lan.dds.domain-id", "7")
                .containsEntry("gateway.wan.norm.bind-address", "10.77.3.1")
                .containsEntry("gateway.wan.norm.port", "6010")
                .containsEntry("gateway.wan.norm.peers.s2", "10.77.3.2:6010")
                .containsEntry("gateway.wan.schedule.budget-bits-per-second", "2000000")
                .doesNotContainKeys("gateway.wan.dds.domain-id", "gateway.wan.jms.embedded.host");
        Map<String, String> gw2 = WanDeploymentPlan.gateway(wan, 2, WanLinkKind.NORM, 1, subscriptions, 2_000_000,
                settings, Path.of("/w"), Map.of(), Map.of()).launch().properties();
        assertThat(gw2).containsEntry("gateway.wan.norm.bind-address", "10.77.3.2")
                .containsEntry("gateway.wan.norm.peers.s1", "10.77.3.1:6010");
        assertThat(WanLinkKind.parse(" NORM ")).isEqualTo(WanLinkKind.NORM);
    }

    @Test
    void aJmsGatewayHasItsBudgetItsSitesAndItsBrokersOnTheRightInterfacesWithSecretsInTheEnvironment() {
        WanDeploymentPlan.Gateway gw1 = WanDeploymentPlan.gateway(wan, 1, WanLinkKind.JMS, 2, subscriptions, 122_420,
                settings, Path.of("/w"), Map.of(), Map.of("gateway.wan.schedule.floor", "0.1"));
        assertThat(gw1.id()).isEqualTo("s1");
        assertThat(gw1.launch().properties()).containsEntry("gateway.wan.site", "s1")
                .containsEntry("gateway.wan.link", "jms").containsEntry("gateway.wan.lan.transport", "jms")
                .containsEntry("gateway.wan.schedule.budget-bits-per-second", "122420")
                .containsEntry("gateway.routing.sites.s1", "n1,n2").containsEntry("gateway.routing.sites.s2", "n4,n5")
                .containsEntry("gateway.routing.subscriptions.n4", "LOGSITREP")
                .containsEntry("gateway.wan.lan.jms.embedded.host", "10.77.1.3")
                .containsEntry("gateway.wan.lan.jms.embedded.port", "61616")
                .containsEntry("gateway.wan.lan.jms.peers.n1.url", "tcp://10.77.1.1:61616")
                .containsEntry("gateway.wan.lan.jms.peers.n2.url", "tcp://10.77.1.2:61616")
                .containsEntry("gateway.wan.jms.embedded.host", "10.77.3.1")
                .containsEntry("gateway.wan.jms.peers.s2.url", "tcp://10.77.3.2:61716")
                .containsEntry("gateway.wan.schedule.floor", "0.1");
        List<String> command = WanDeploymentPlan.gatewayCommand(wan, gw1, settings, Path.of("/w"), Path.of("/s"));
        assertThat(command).containsSequence("ip", "netns", "exec", "c4ga-h3")
                .containsSequence("wan", "--site", "s1", "--work-dir", "/w", "--http-port", "8080", "--pg-socket-dir",
                        "/s", "--")
                .contains("--gateway.wan.schedule.budget-bits-per-second=122420");
        // The wan command keeps its management password in <work-dir>/<site>-gw, and no password is set here.
        assertThat(WanDeploymentPlan.managementPasswordFile(Path.of("/w"), 1))
                .isEqualTo(Path.of("/w/s1-gw/management-password"));
        assertThat(gw1.launch().managementPassword()).isNull();
        assertThat(gw1.launch().properties()).doesNotContainKey("spring.security.user.name");
        assertThat(String.join(" ", command)).doesNotContain(NodeSettings.JMS_PASSWORD);
        assertThat(gw1.launch().environment()).containsEntry("GATEWAY_WAN_LAN_JMS_PASSWORD", NodeSettings.JMS_PASSWORD)
                .containsEntry("GATEWAY_WAN_JMS_PASSWORD", NodeSettings.JMS_PASSWORD);
        assertThat(gw1.launch().properties()).containsEntry("gateway.wan.security.plain", "true")
                .containsEntry("gateway.wan.lan.jms.tls.plain-tcp", "true")
                .containsEntry("gateway.wan.jms.tls.plain-tcp", "true")
                .doesNotContainKeys("gateway.wan.security.certificate", "gateway.wan.lan.jms.tls.key-store");
    }

    @Test
    void securedJmsSitesUseTlsOnTheLanAndTheLinkAndSealFramesForThePeerSite() {
        Map<Integer, SitePki> pki = Map.of(1, pki(1, "n1", "n2"), 2, pki(2, "n4", "n5"));
        List<WanDeploymentPlan.SiteNode> nodes = WanDeploymentPlan.nodes(wan, WanLinkKind.JMS, 2, subscriptions,
                settings, pki);
        assertThat(nodes.get(2).spec().properties()).containsEntry("gateway.jms.tls.key-store", "/p/s2/n4/n4.p12")
                .containsEntry("gateway.jms.tls.trust-store", "/p/s2/n4/trust.p12")
                .containsEntry("gateway.jms.peers.n1.url", "tcp://10.77.2.3:61616")
                .doesNotContainKey("gateway.jms.tls.plain-tcp");
        Map<String, String> gw1 = WanDeploymentPlan.gateway(wan, 1, WanLinkKind.JMS, 2, subscriptions, 122_420,
                settings, Path.of("/w"), pki, Map.of()).launch().properties();
        assertThat(gw1).containsEntry("gateway.wan.lan.jms.tls.key-store", "/p/s1/gw-s1/gw-s1.p12")
                .containsEntry("gateway.wan.lan.jms.tls.key-store-password-file", "/p/s1/gw-s1/gw-s1.password")
                .containsEntry("gateway.wan.jms.tls.key-store", "/p/s1/gw-s1/gw-s1.p12")
                .containsEntry("gateway.wan.jms.tls.trust-store", "/p/s1/gw-s1/trust.p12")
                .containsEntry("gateway.wan.security.certificate", "/p/s1/gw-s1/identity.crt")
                .containsEntry("gateway.wan.security.private-key", "/p/s1/gw-s1/identity.key")
                .containsEntry("gateway.wan.security.trusted-authorities",
                        "/p/s1/authority/ca.crt,/p/s2/authority/ca.crt")
                .containsEntry("gateway.wan.security.peers.s2", "/p/s2/gw-s2/identity.crt")
                .doesNotContainKeys("gateway.wan.security.plain", "gateway.wan.lan.jms.tls.plain-tcp",
                        "gateway.wan.jms.tls.plain-tcp");
    }

    @Test
    void securedDdsLanSitesRunDdsSecurityEachNodeAndGatewayAsItselfAndSealTheirFrames() {
        Map<Integer, SitePki> pki = Map.of(1, pki(1, "n1"), 2, pki(2, "n4"));
        List<WanDeploymentPlan.SiteNode> nodes = WanDeploymentPlan.nodes(wan, WanLinkKind.NORM, 1, subscriptions,
                settings, pki);
        assertThat(nodes.get(1).spec().properties()).containsEntry("gateway.dds.security.directory", "/p/s2")
                .containsEntry("gateway.dds.security.identity-certificate", "/p/s2/n4/identity.crt")
                .containsEntry("gateway.dds.security.private-key", "/p/s2/n4/identity.key")
                .doesNotContainKey("gateway.jms.tls.key-store");
        Map<String, String> gw2 = WanDeploymentPlan.gateway(wan, 2, WanLinkKind.NORM, 1, subscriptions, 2_000_000,
                settings, Path.of("/w"), pki, Map.of()).launch().properties();
        // Its identity there is gw-s2's, the gateway's node id on its LAN.
        assertThat(gw2).containsEntry("gateway.wan.lan.dds.security.directory", "/p/s2")
                .doesNotContainKey("gateway.wan.lan.dds.security.plain")
                .containsEntry("gateway.wan.security.certificate", "/p/s2/gw-s2/identity.crt")
                .containsEntry("gateway.wan.security.trusted-authorities",
                        "/p/s2/authority/ca.crt,/p/s1/authority/ca.crt")
                .containsEntry("gateway.wan.security.peers.s1", "/p/s1/gw-s1/identity.crt")
                .doesNotContainKey("gateway.wan.security.plain");
        assertThat(WanDeploymentPlan.gatewayId(2)).isEqualTo("gw-s2");
        assertThatIllegalArgumentException().isThrownBy(() -> WanDeploymentPlan.gateway(wan, 1, WanLinkKind.NORM, 1,
                subscriptions, 2_000_000, settings, Path.of("/w"), Map.of(1, pki(1)), Map.of()));
    }

    @Test
    void uncompressedGatewaysAreToldToSendTheirFramesAsTheyAre() {
        WanDeploymentPlan.Gateway gw1 = WanDeploymentPlan.gateway(wan, 1, WanLinkKind.NORM, 1, subscriptions,
                2_000_000, settings, Path.of("/w"), Map.of(), WanDeploymentPlan.UNCOMPRESSED_FRAMES);

        assertThat(WanDeploymentPlan.gatewayCommand(wan, gw1, settings, Path.of("/w"), Path.of("/s")))
                .contains("--gateway.wan.compress-frames=false");
    }

    /** A site's PKI file names as the runner's would be: its gateway's identity and these nodes'. */
    private static SitePki pki(int site, String... nodes) {
        Path dir = Path.of("/p", "s" + site);
        Map<String, SiteDirectory.HolderFiles> holders = new LinkedHashMap<>();
        List<String> ids = new java.util.ArrayList<>(List.of(nodes));
        ids.add(WanDeploymentPlan.gatewayId(site));
        for (String id : ids) {
            Path home = dir.resolve(id);
            holders.put(id, new SiteDirectory.HolderFiles(home.resolve("identity.crt"), home.resolve("identity.key"),
                    TlsStores.in(home, id)));
        }
        return new SitePki(dir, dir.resolve("authority/ca.crt"), holders);
    }

    @Test
    void aSiteHasRoomForTwoNodesBesideItsGateway() {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> WanDeploymentPlan.nodes(wan, WanLinkKind.JMS, 3, subscriptions, settings, Map.of()));
        assertThat(WanLinkKind.parse(" DDS ")).isEqualTo(WanLinkKind.DDS);
        assertThatIllegalArgumentException().isThrownBy(() -> WanLinkKind.parse("mqtt"))
                .withMessageContaining("[jms, dds, norm]");
    }
}
