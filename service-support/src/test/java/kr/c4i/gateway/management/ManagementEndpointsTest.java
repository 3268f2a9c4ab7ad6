package kr.c4i.gateway.management;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;

import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.security.core.userdetails.UserDetailsPasswordService;
import org.springframework.security.core.userdetails.UserDetailsService;

/**
 * A minimal Spring Boot web application with actuator and this module and nothing of its own but two health
 * components, as a service gets the management endpoints by depending on it; asked over HTTP as an operator's
 * curl, a scraper or an attacker would.
 */
@ExtendWith(OutputCaptureExtension.class)
class ManagementEndpointsTest {

    private static final String PASSWORD = "management-secret";

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    private static ConfigurableApplicationContext service;

    private static int port;

    /** The service: two components whose status a test sets. */
    @SpringBootConfiguration(proxyBeanMethods = false)
    @EnableAutoConfiguration
    static class Service {

        static final AtomicReference<Status> FIRST = new AtomicReference<>(Status.UP);

        static final AtomicReference<Status> SECOND = new AtomicReference<>(Status.UP);

        @Bean
        HealthIndicator first() {
            return () -> Health.status(FIRST.get()).build();
        }

        @Bean
        HealthIndicator second() {
            return () -> Health.status(SECOND.get()).build();
        }
    }

    @BeforeAll
    static void startService() {
        service = run("--spring.security.user.password=" + PASSWORD);
        port = managementPort(service);
    }

    @AfterAll
    static void stopService() {
        service.close();
    }

    /** As a service runs: no application HTTP, management on a port of its own. */
    private static ConfigurableApplicationContext run(String... arguments) {
        return new SpringApplicationBuilder(Service.class).run(Stream.concat(Stream.of("--server.port=-1",
                "--management.server.port=0", "--spring.main.banner-mode=off"), Stream.of(arguments))
                .toArray(String[]::new));
    }

    private static int managementPort(ConfigurableApplicationContext context) {
        return context.getEnvironment().getRequiredProperty("local.management.port", Integer.class);
    }

    @Test
    void healthIsOpenWithTheStatusOnly() throws Exception {
        HttpResponse<String> response = get(port, "/actuator/health", null);
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).contains("\"status\":\"UP\"").doesNotContain("components")
                .doesNotContain("first");
    }

    @ParameterizedTest
    @ValueSource(strings = { "/actuator/health/liveness", "/actuator/health/readiness" })
    void probesAreOpen(String path) throws Exception {
        HttpResponse<String> response = get(port, path, null);
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).contains("\"status\":\"UP\"");
    }

    @ParameterizedTest
    @ValueSource(strings = { "/actuator/prometheus", "/actuator/metrics", "/actuator/info", "/actuator",
            "/actuator/health/first" })
    void everythingElseNeedsTheCredential(String path) throws Exception {
        HttpResponse<String> anonymous = get(port, path, null);
        assertThat(anonymous.statusCode()).isEqualTo(401);
        assertThat(anonymous.headers().firstValue("WWW-Authenticate"))
                .hasValueSatisfying(challenge -> assertThat(challenge).startsWith("Basic"));
        assertThat(get(port, path, "wrong").statusCode()).isEqualTo(401);
        assertThat(get(port, path, PASSWORD).statusCode()).isEqualTo(200);
    }

    @Test
    void theCredentialGetsMetricsAndHealthDetails() throws Exception {
        HttpResponse<String> metrics = get(port, "/actuator/prometheus", PASSWORD);
        assertThat(metrics.statusCode()).isEqualTo(200);
        assertThat(metrics.body()).contains("jvm_memory_used_bytes");
        assertThat(get(port, "/actuator/health", PASSWORD).body()).contains("\"components\"").contains("\"first\"")
                .contains("\"second\"");
    }

    @Test
    void aPlainPasswordStaysPlainAfterLoginsSoAScrapeCostsNoBcryptCheck() throws Exception {
        for (int scrape = 0; scrape < 2; scrape++) {
            assertThat(get(port, "/actuator/prometheus", PASSWORD).statusCode()).isEqualTo(200);
        }
        UserDetailsService users = service.getBean(UserDetailsService.class);
        assertThat(users).isNotInstanceOf(UserDetailsPasswordService.class);
        assertThat(users.loadUserByUsername("user").getPassword()).isEqualTo("{noop}" + PASSWORD);
    }

    @Test
    void managementListensOnLoopbackOnly() throws IOException {
        try (Socket loopback = new Socket()) {
            loopback.connect(new InetSocketAddress("127.0.0.1", port), 2000);
        }
        // 127.0.0.2 is this host too: a listener on every interface would accept it, one on 127.0.0.1 does not.
        assertThatExceptionOfType(ConnectException.class).isThrownBy(() -> {
            try (Socket other = new Socket()) {
                other.connect(new InetSocketAddress("127.0.0.2", port), 2000);
            }
        });
    }

    @Test
    void degradedRanksBetweenDownAndUpAndAnswers200() throws Exception {
        try {
            Service.FIRST.set(new Status("DEGRADED"));
            HttpResponse<String> degraded = get(port, "/actuator/health", null);
            assertThat(degraded.statusCode()).isEqualTo(200);
            assertThat(degraded.body()).contains("\"status\":\"DEGRADED\"");
            Service.SECOND.set(Status.DOWN);
            HttpResponse<String> down = get(port, "/actuator/health", null);
            assertThat(down.statusCode()).isEqualTo(503);
            assertThat(down.body()).contains("\"status\":\"DOWN\"");
        }
        finally {
            Service.FIRST.set(Status.UP);
            Service.SECOND.set(Status.UP);
        }
    }

    @Test
    void aServicesOwnConfigurationOverridesTheDefaults() throws Exception {
        // service-override.yaml exposes health only, as a service's application.yaml could.
        try (ConfigurableApplicationContext overridden = run("--spring.security.user.password=" + PASSWORD,
                "--spring.config.name=service-override")) {
            int overriddenPort = managementPort(overridden);
            assertThat(get(overriddenPort, "/actuator/health", null).statusCode()).isEqualTo(200);
            assertThat(get(overriddenPort, "/actuator", PASSWORD).body()).contains("/actuator/health")
                    .doesNotContain("prometheus");
            // No endpoint any more: refused like any other path.
            assertThat(get(overriddenPort, "/actuator/prometheus", PASSWORD).statusCode()).isEqualTo(403);
        }
    }

    @Test
    void aServiceWithoutAPasswordDoesNotStartAndSaysWhatToSet(CapturedOutput output) {
        assertThatThrownBy(() -> run()).hasRootCauseInstanceOf(
                ManagementPasswordMissingException.class);
        assertThat(output).contains("APPLICATION FAILED TO START")
                .contains("No password is set for the management endpoints' user 'user'")
                .contains("Set spring.security.user.password (environment: SPRING_SECURITY_USER_PASSWORD)")
                .doesNotContain("Using generated security password");
    }

    private static HttpResponse<String> get(int port, String path, @Nullable String password)
            throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(5));
        if (password != null) {
            request.header("Authorization", "Basic " + Base64.getEncoder()
                    .encodeToString(("user:" + password).getBytes(StandardCharsets.UTF_8)));
        }
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }
}
