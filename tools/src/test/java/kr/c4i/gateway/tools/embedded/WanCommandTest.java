package kr.c4i.gateway.tools.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Map;

import org.junit.jupiter.api.Test;

import kr.c4i.gateway.bridge.DbBridgeApplication;
import kr.c4i.gateway.wan.WanGatewayApplication;

/** The gateway in the tools' JVM reads its own application.yaml and none of db-bridge's auto-configuration. */
class WanCommandTest {

    @Test
    void eachServiceFindsItsOwnApplicationYamlOnTheSharedClasspath() throws Exception {
        assertThat(read(WanCommand.configLocation(WanGatewayApplication.class))).contains("name: wan-gateway");
        assertThat(read(WanCommand.configLocation(DbBridgeApplication.class))).contains("name: db-bridge");
    }

    @Test
    void theGatewayIsToldItsConfigurationAndTheNodesAutoConfigurationsAreExcluded() {
        String[] arguments = WanCommand.arguments(Map.of("gateway.wan.site", "s1"));
        assertThat(arguments[0]).startsWith("--spring.config.location=").endsWith("application.yaml");
        assertThat(arguments[1]).startsWith("--spring.autoconfigure.exclude=")
                .contains("JmsTransportConfiguration", "DdsTransportConfiguration", "ManagementSecurityConfiguration");
        assertThat(arguments).endsWith("--gateway.wan.site=s1");
    }

    private static String read(String url) throws Exception {
        try (InputStream in = URI.create(url).toURL().openStream()) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
