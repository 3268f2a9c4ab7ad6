package kr.c4i.gateway.tools.node;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

class GatewayLaunchTest {

    private final GatewayLaunch launch = GatewayLaunch.builder("s1").site("s1", List.of("a", "b"))
            .site("s2", List.of("c")).subscription("c", "*")
            .jmsLan("gateway", "lan-secret", "127.0.0.1", 61620, Path.of("/w/s1-gw/artemis-lan"))
            .jmsLanNode("a", "tcp://127.0.0.1:61616")
            .jmsLink("wan", "wan-secret", "127.0.0.1", 61720, Path.of("/w/s1-gw/artemis-wan"))
            .jmsLinkPeer("s2", "tcp://127.0.0.1:61721").property("gateway.wan.jms.peers.s2.password", "peer-secret")
            .budgetBitsPerSecond(256_000)
            .datasource("jdbc:postgresql://127.0.0.1:5432/postgres", "postgres", "db-secret")
            .managementPort(8091).managementPassword("mgmt-secret").build();

    @Test
    void inTheJvmEveryPropertyIsGivenInOrder() {
        assertThat(launch.site()).isEqualTo("s1");
        assertThat(launch.properties()).containsEntry("gateway.routing.sites.s1", "a,b")
                .containsEntry("gateway.wan.lan.transport", "jms").containsEntry("gateway.wan.link", "jms")
                .containsEntry("gateway.wan.lan.jms.password", "lan-secret")
                .containsEntry("gateway.wan.schedule.budget-bits-per-second", "256000");
        assertThat(launch.properties().keySet()).startsWith("gateway.wan.site", "gateway.routing.sites.s1")
                .endsWith("spring.security.user.password");
        assertThat(launch.managementPassword()).isEqualTo("mgmt-secret");
    }

    @Test
    void aProcessGetsEveryPasswordInItsEnvironmentNeverOnItsCommandLine() {
        List<String> arguments = launch.arguments();
        assertThat(arguments).contains("--gateway.wan.site=s1", "--gateway.wan.lan.jms.user=gateway",
                "--gateway.wan.lan.jms.peers.a.url=tcp://127.0.0.1:61616", "--gateway.wan.jms.embedded.port=61720",
                "--gateway.wan.jms.peers.s2.url=tcp://127.0.0.1:61721", "--spring.datasource.username=postgres",
                "--management.server.port=8091");
        assertThat(String.join(" ", arguments)).doesNotContain("secret").doesNotContain("password");
        assertThat(launch.environment()).containsExactly(
                Map.entry("GATEWAY_WAN_LAN_JMS_PASSWORD", "lan-secret"),
                Map.entry("GATEWAY_WAN_JMS_PASSWORD", "wan-secret"),
                Map.entry("GATEWAY_WAN_JMS_PEERS_S2_PASSWORD", "peer-secret"),
                Map.entry("SPRING_DATASOURCE_PASSWORD", "db-secret"),
                Map.entry("SPRING_SECURITY_USER_PASSWORD", "mgmt-secret"));
        assertThat(launch.toString()).doesNotContain("secret");
    }

    @Test
    void sealedFramesNameTheIdentityTheAuthoritiesAndEachPeerAndAreNotPlain() {
        GatewayLaunch sealed = GatewayLaunch.builder("s1").normLink(null, 6010)
                .wanSecurity(Path.of("/p/s1/gw-s1/identity.crt"), Path.of("/p/s1/gw-s1/identity.key"),
                        List.of(Path.of("/p/s1/authority/ca.crt"), Path.of("/p/s2/authority/ca.crt")),
                        Map.of("s2", Path.of("/p/s2/gw-s2/identity.crt")))
                .build();
        assertThat(sealed.properties())
                .containsEntry("gateway.wan.security.certificate", "/p/s1/gw-s1/identity.crt")
                .containsEntry("gateway.wan.security.private-key", "/p/s1/gw-s1/identity.key")
                .containsEntry("gateway.wan.security.trusted-authorities", "/p/s1/authority/ca.crt,/p/s2/authority/ca.crt")
                .containsEntry("gateway.wan.security.peers.s2", "/p/s2/gw-s2/identity.crt")
                .doesNotContainKey("gateway.wan.security.plain");
    }

    @Test
    void ddsLanAndLinkAndAPropertyGivenAgainOverrides() {
        GatewayLaunch dds = GatewayLaunch.builder("s2").ddsLan(12, false, List.of("127.0.0.1")).ddsLink(100)
                .ddsLinkPeer("s1", "127.0.0.1").property("gateway.wan.dds.domain-id", "101").build();
        assertThat(dds.properties()).containsEntry("gateway.wan.lan.transport", "dds")
                .containsEntry("gateway.wan.lan.dds.domain-id", "12").containsEntry("gateway.wan.lan.dds.multicast", "false")
                .containsEntry("gateway.wan.lan.dds.peers", "127.0.0.1").containsEntry("gateway.wan.link", "dds")
                .containsEntry("gateway.wan.dds.domain-id", "101").containsEntry("gateway.wan.dds.peers.s1", "127.0.0.1");
        assertThat(dds.environment()).isEmpty();
        assertThat(dds.properties()).as("frames in clear and plain DDS unless security is set").containsEntry(
                "gateway.wan.security.plain", "true").containsEntry("gateway.wan.lan.dds.security.plain", "true");
        assertThat(GatewayLaunch.builder("s2").ddsLan(12, false, List.of()).ddsLanSecurity(Path.of("/pki/s2"))
                .build().properties()).containsEntry("gateway.wan.lan.dds.security.directory", "/pki/s2")
                .doesNotContainKey("gateway.wan.lan.dds.security.plain");
        assertThat(GatewayLaunch.builder("s2").jmsLanPlainTcp().build().properties())
                .doesNotContainKey("gateway.wan.lan.dds.security.plain");
        assertThat(GatewayLaunch.builder("s2").property("gateway.wan.security.certificate", "/pki/gw-s2.crt").build()
                .properties()).doesNotContainKey("gateway.wan.security.plain");
        assertThat(GatewayLaunch.builder("s3").ddsLan(3, true, List.of()).build().properties())
                .doesNotContainKey("gateway.wan.lan.dds.peers").doesNotContainKey("gateway.wan.lan.dds.multicast-address");
        assertThat(GatewayLaunch.builder("s3").ddsLan(3, true, List.of()).ddsLanMulticastAddress("239.255.0.7").build()
                .properties()).containsEntry("gateway.wan.lan.dds.multicast-address", "239.255.0.7");
    }
}
