package kr.c4i.gateway.bridge.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.util.Map;

import org.junit.jupiter.api.Test;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.diagnostics.FailureAnalyzer;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;
import org.springframework.core.io.support.SpringFactoriesLoader;

import kr.c4i.gateway.bridge.support.NodeContext;
import kr.c4i.gateway.bridge.transport.DdsTransportConfiguration;
import kr.c4i.gateway.bridge.transport.JmsTransportConfiguration;

/** A bad gateway.* value stops the application with its property, its value as written and where it was set. */
class PropertiesFailureAnalyzerTest {

    private final PropertiesFailureAnalyzer analyzer = new PropertiesFailureAnalyzer();

    @Configuration(proxyBeanMethods = false)
    @Import({ NodeContext.class, JmsTransportConfiguration.class, DdsTransportConfiguration.class })
    static class Node {
    }

    @Test
    void aDomainIdOutOfRangeOnTheCommandLineIsNamedAsWrittenWithItsValueAndOrigin() {
        FailureAnalysis analysis = analyze(new StandardEnvironment(), "--gateway.node.transport=dds",
                "--gateway.dds.security.plain=true", "--gateway.dds.domain-id=500");

        assertThat(analysis.getDescription()).contains("Property: gateway.dds.domain-id").contains("Value: \"500\"")
                .contains("Origin: \"gateway.dds.domain-id\" from property source \"commandLineArgs\"")
                .contains("Reason: domainId must be 0..232, was 500");
        assertThat(analysis.getAction()).contains("docs/configuration.md");
    }

    @Test
    void aMulticastGroupThatIsNotOneIsNamedBeforeCycloneSeesIt() {
        FailureAnalysis analysis = analyze(new StandardEnvironment(), "--gateway.node.transport=dds",
                "--gateway.dds.security.plain=true", "--gateway.dds.multicast-address=10.0.0.1");

        assertThat(analysis.getDescription()).contains("Property: gateway.dds.multicast-address")
                .contains("Value: \"10.0.0.1\"")
                .contains("Reason: multicastAddress must be an IPv4 multicast group, 224.0.0.0 to 239.255.255.255");
    }

    @Test
    void aDdsNodeWithNeitherSecurityNorPlainDdsIsToldBothProperties() {
        FailureAnalysis analysis = analyze(new StandardEnvironment(), "--gateway.node.transport=dds");

        assertThat(analysis.getDescription()).contains("Property: gateway.dds.security.directory")
                .contains("Property: gateway.dds.security.plain").contains("Value: (not set)")
                .contains("Reason: DDS runs under DDS Security unless plain DDS is asked for");
    }

    @Test
    void aNegativeDatagramSizeInAYamlFileIsNamedWithTheFileAndLine() {
        FailureAnalysis analysis = analyze(new StandardEnvironment(),
                "--spring.config.additional-location=classpath:invalid-dds.yaml");

        assertThat(analysis.getDescription()).contains("Property: gateway.dds.max-datagram-size")
                .contains("Value: \"-1B\"").contains("Origin: class path resource [invalid-dds.yaml]")
                .contains("invalid-dds.yaml] - 6:").contains("Reason: maxDatagramSize must be 512..65507 bytes, was -1");
    }

    @Test
    void aBadJmsPortFromTheEnvironmentIsNamedWithTheVariable() {
        StandardEnvironment environment = new StandardEnvironment();
        // In place of the process's environment, as Boot reads it (GATEWAY_JMS_EMBEDDED_PORT is gateway.jms.embedded.port).
        environment.getPropertySources().replace(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME,
                new SystemEnvironmentPropertySource(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME,
                Map.of("GATEWAY_JMS_EMBEDDED_PORT", "70000", "GATEWAY_JMS_USER", "gateway",
                        "GATEWAY_JMS_PASSWORD", "secret")));

        FailureAnalysis analysis = analyze(environment);

        assertThat(analysis.getDescription()).contains("Property: gateway.jms.embedded.port")
                .contains("Value: \"70000\"")
                .contains("Origin: System Environment Property \"GATEWAY_JMS_EMBEDDED_PORT\"")
                .contains("Reason: embedded.port must be 1..65535, was 70000");
    }

    @Test
    void aMissingJmsPasswordIsNamedAsNotSet() {
        StandardEnvironment environment = new StandardEnvironment();
        environment.getPropertySources().addFirst(new MapPropertySource("test", Map.of("gateway.jms.user", "gw")));

        FailureAnalysis analysis = analyze(environment);

        assertThat(analysis.getDescription()).contains("Property: gateway.jms.password").contains("Value: (not set)")
                .contains("Reason: password must not be blank");
    }

    @Test
    void aNodeWithNeitherBrokerTlsNorPlainTcpIsToldWhatToSet() {
        StandardEnvironment environment = new StandardEnvironment();
        environment.getPropertySources().addFirst(new MapPropertySource("test",
                Map.of("gateway.jms.user", "gw", "gateway.jms.password", "secret")));

        FailureAnalysis analysis = analyze(environment);

        assertThat(analysis.getDescription()).contains("Property: gateway.jms.tls.key-store")
                .contains("Value: (not set)")
                .contains("Reason: broker connections use TLS unless plain TCP is turned on explicitly")
                .doesNotContain("Property: gateway.jms.password");
    }

    @Test
    void theAnalyzerIsRegisteredWithSpringBoot() {
        assertThat(SpringFactoriesLoader.loadFactoryNames(FailureAnalyzer.class, getClass().getClassLoader()))
                .contains(PropertiesFailureAnalyzer.class.getName());
    }

    private FailureAnalysis analyze(StandardEnvironment environment, String... args) {
        Throwable failure = catchThrowable(() -> new SpringApplicationBuilder(Node.class)
                .web(WebApplicationType.NONE).environment(environment).run(args).close());
        assertThat(failure).isNotNull();
        FailureAnalysis analysis = this.analyzer.analyze(failure);
        assertThat(analysis).as("analysis of %s", failure).isNotNull();
        return analysis;
    }
}
