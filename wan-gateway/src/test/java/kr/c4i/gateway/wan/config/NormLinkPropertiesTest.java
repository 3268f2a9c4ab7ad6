package kr.c4i.gateway.wan.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Configuration;

import kr.c4i.gateway.norm.link.NormLinkSettings;

class NormLinkPropertiesTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withUserConfiguration(Properties.class);

    @Test
    void unsetMulticastGroupIsUnicast() {
        this.runner.withPropertyValues("gateway.wan.norm.peers.s2=10.0.2.1").run(context -> {
            NormLinkProperties norm = context.getBean(NormLinkProperties.class);
            assertThat(norm.toMulticast()).isNull();
            assertThat(norm.multicastTtl()).isEqualTo(NormLinkSettings.DEFAULT_MULTICAST_TTL);
        });
    }

    @Test
    void theMulticastKeysMakeTheGroup() {
        this.runner.withPropertyValues("gateway.wan.norm.peers.s2=", "gateway.wan.norm.peers.s3=",
                "gateway.wan.norm.multicast-group=239.255.10.1:6010", "gateway.wan.norm.multicast-interface=eth1",
                "gateway.wan.norm.multicast-ttl=4").run(context -> {
                    NormLinkProperties norm = context.getBean(NormLinkProperties.class);
                    assertThat(norm.toMulticast())
                            .isEqualTo(new NormLinkSettings.Multicast("239.255.10.1", 6010, "eth1", 4));
                    assertThat(norm.peers()).containsOnlyKeys("s2", "s3");
                });
    }

    @Test
    void aBadGroupIsNamedWithItsKey() {
        this.runner.withPropertyValues("gateway.wan.norm.multicast-group=10.0.0.1:6010").run(context -> {
            NormLinkProperties norm = context.getBean(NormLinkProperties.class);
            assertThatThrownBy(norm::toMulticast).hasMessageContaining("gateway.wan.norm.multicast-group")
                    .hasMessageContaining("'10.0.0.1'");
        });
    }

    @Test
    void autoParityIsAdaptiveUnlessANumberFixesIt() {
        this.runner.run(context -> {
            NormLinkProperties norm = context.getBean(NormLinkProperties.class);
            assertThat(norm.autoParity()).isEqualTo(NormLinkProperties.ADAPTIVE);
            assertThat(norm.fixedAutoParity()).isNull();
            assertThat(norm.parityTarget()).isEqualTo(NormLinkSettings.DEFAULT_PARITY_TARGET_PERCENT);
        });
        this.runner.withPropertyValues("gateway.wan.norm.auto-parity=4", "gateway.wan.norm.parity-target=0.5")
                .run(context -> {
                    NormLinkProperties norm = context.getBean(NormLinkProperties.class);
                    assertThat(norm.fixedAutoParity()).isEqualTo(4);
                    assertThat(norm.parityTarget()).isEqualTo(0.5);
                });
    }

    @Test
    void aBadAutoParityIsNamedWithItsKey() {
        this.runner.withPropertyValues("gateway.wan.norm.auto-parity=some").run(context -> {
            NormLinkProperties norm = context.getBean(NormLinkProperties.class);
            assertThatThrownBy(norm::fixedAutoParity).hasMessageContaining("gateway.wan.norm.auto-parity")
                    .hasMessageContaining("'some'").hasMessageContaining(NormLinkProperties.ADAPTIVE);
        });
    }

    @Configuration(proxyBeanMethods = false)
    @EnableConfigurationProperties(NormLinkProperties.class)
    static class Properties {
    }
}
