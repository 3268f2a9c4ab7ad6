package kr.c4i.gateway.wan.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.nio.file.Path;
import java.time.Duration;
import java.util.function.Consumer;

import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Configuration;

import kr.c4i.gateway.core.NodeId;
import kr.c4i.gateway.dds.ParticipantSettings;
import kr.c4i.gateway.dds.transport.DdsTransportSettings;

/** The DDS LAN side's settings from {@code gateway.wan.lan.dds.*}, each refused property named. */
class LanPropertiesTest {

    private static final NodeId GATEWAY = NodeId.of("gw-s1");
    /** DDS without security, which a DDS LAN side must be told explicitly. */
    private static final String PLAIN_DDS = "gateway.wan.lan.dds.security.plain=true";

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withUserConfiguration(Properties.class).withPropertyValues("gateway.wan.lan.transport=dds");

    @Test
    void ddsSecurityIsOffOnlyWhenPlainIsAskedFor() {
        dds(dds -> assertThat(dds.transportSettings(GATEWAY).participant().security()).isNull(), PLAIN_DDS);
    }

    @Test
    void aDdsLanSideWithNeitherSecurityNorPlainIsRefusedNamingBoth() {
        dds(dds -> assertThatIllegalArgumentException().isThrownBy(() -> dds.transportSettings(GATEWAY))
                .withMessageContaining("gateway.wan.lan.dds.security.directory: DDS runs under DDS Security unless")
                .withMessageContaining("gateway.wan.lan.dds.security.plain: or set security.plain=true"));
    }

    @Test
    void plainWithSecurityFilesIsRefusedNamingPlain() {
        dds(dds -> assertThatIllegalArgumentException().isThrownBy(() -> dds.transportSettings(GATEWAY))
                .withMessageContaining("gateway.wan.lan.dds.security.plain: security.plain is true but"),
                PLAIN_DDS, "gateway.wan.lan.dds.security.directory=/etc/c4i/pki");
    }

    @Test
    void ddsSecurityTakesTheGatewaysFilesFromTheDirectoryUnlessEachIsSet() {
        dds(dds -> {
            ParticipantSettings.Security security = dds.transportSettings(GATEWAY).participant().security();
            assertThat(security.identityCertificate()).isEqualTo(Path.of("/etc/c4i/pki/gw-s1/identity.crt"));
            assertThat(security.privateKey()).isEqualTo(Path.of("/etc/c4i/pki/gw-s1/identity.key"));
            assertThat(security.identityCa()).isEqualTo(Path.of("/etc/c4i/pki/authority/ca.crt"));
            assertThat(security.permissionsCa()).isEqualTo(Path.of("/etc/c4i/pki/authority/ca.crt"));
            assertThat(security.governance()).isEqualTo(Path.of("/etc/c4i/pki/dds/governance.p7s"));
            assertThat(security.permissions()).isEqualTo(Path.of("/srv/gw-permissions.p7s"));
        }, "gateway.wan.lan.dds.security.directory=/etc/c4i/pki",
                "gateway.wan.lan.dds.security.permissions=/srv/gw-permissions.p7s");
    }

    @Test
    void ddsSecurityWithACertificateButNoDirectoryNamesTheFilesItLacks() {
        dds(dds -> assertThatIllegalArgumentException().isThrownBy(() -> dds.transportSettings(GATEWAY))
                .withMessageContaining("gateway.wan.lan.dds.security.private-key: DDS Security needs"),
                "gateway.wan.lan.dds.security.identity-certificate=/etc/c4i/gw.crt");
    }

    @Test
    void anOutOfRangeDomainIsNamedByItsProperty() {
        dds(dds -> assertThatIllegalArgumentException().isThrownBy(() -> dds.transportSettings(GATEWAY))
                .withMessageContaining("gateway.wan.lan.dds.domain-id: domainId must be"),
                PLAIN_DDS, "gateway.wan.lan.dds.domain-id=999");
    }

    @Test
    void theGatewayJoinsTheSitesMulticastGroupAsItsNodesDo() {
        dds(dds -> assertThat(dds.transportSettings(GATEWAY).participant().network().multicastAddress()).isNull(),
                PLAIN_DDS);
        dds(dds -> assertThat(dds.transportSettings(GATEWAY).participant().network().multicastAddress())
                .isEqualTo("239.255.7.1"), PLAIN_DDS, "gateway.wan.lan.dds.multicast-address=239.255.7.1");
        dds(dds -> assertThatIllegalArgumentException().isThrownBy(() -> dds.transportSettings(GATEWAY))
                .withMessageContaining("gateway.wan.lan.dds.multicast-address: multicastAddress must be an IPv4 "
                        + "multicast group"), PLAIN_DDS, "gateway.wan.lan.dds.multicast-address=10.1.2.3");
    }

    @Test
    void theGatewayTakesLargerBatchesOffTheLanThanANodeUnlessSetOtherwise() {
        dds(dds -> assertThat(dds.transportSettings(GATEWAY).maxBatch()).isEqualTo(LanProperties.Dds.DEFAULT_MAX_BATCH)
                .isGreaterThan(DdsTransportSettings.DEFAULT_MAX_BATCH), PLAIN_DDS);
        dds(dds -> assertThat(dds.transportSettings(GATEWAY).maxBatch()).isEqualTo(500), PLAIN_DDS,
                "gateway.wan.lan.dds.max-batch=500");
    }

    @Test
    void theGatewayAnnouncesTheLeaseOfANodeUnlessSetOtherwise() {
        dds(dds -> assertThat(dds.transportSettings(GATEWAY).participant().discovery().lease())
                .isEqualTo(Duration.parse("PT" + DdsTransportSettings.DEFAULT_NODE_LEASE))
                .isLessThan(ParticipantSettings.DEFAULT_LEASE), PLAIN_DDS);
        dds(dds -> assertThat(dds.transportSettings(GATEWAY).participant().discovery().lease())
                .isEqualTo(Duration.ofSeconds(7)), PLAIN_DDS, "gateway.wan.lan.dds.lease=7s");
        dds(dds -> assertThatIllegalArgumentException().isThrownBy(() -> dds.transportSettings(GATEWAY))
                .withMessageContaining("gateway.wan.lan.dds.lease: lease must be 1..60 s"), PLAIN_DDS,
                "gateway.wan.lan.dds.lease=90s");
    }

    @Test
    void aBatchBelowOneIsNamedByItsProperty() {
        dds(dds -> assertThatIllegalArgumentException().isThrownBy(() -> dds.transportSettings(GATEWAY))
                .withMessageContaining("gateway.wan.lan.dds.max-batch"), PLAIN_DDS, "gateway.wan.lan.dds.max-batch=0");
    }

    private void dds(Consumer<LanProperties.Dds> check, String... properties) {
        this.runner.withPropertyValues(properties)
                .run(context -> check.accept(context.getBean(LanProperties.class).dds()));
    }

    @Configuration(proxyBeanMethods = false)
    @EnableConfigurationProperties(LanProperties.class)
    static class Properties {
    }
}
