package kr.c4i.gateway.management.dashboard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;

import io.micrometer.core.instrument.MeterRegistry;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;

import kr.c4i.gateway.management.dashboard.DashboardChart.Series;

/** The page, its scripts and its figures on a service's management listener, behind the credential like the rest. */
class DashboardEndpointTest {

    private static final String PASSWORD = "management-secret";

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    private static ConfigurableApplicationContext service;

    private static int port;

    @SpringBootConfiguration(proxyBeanMethods = false)
    @EnableAutoConfiguration
    static class Service {

        @Bean
        DashboardChart ordersChart() {
            return DashboardChart.of("Orders", "orders/s", Series.rate("taken", "test.orders"),
                    Series.valueBy("refused", "test.refused", "reason"),
                    Series.rateBy("express", "test.sent", "route").where("class", "express"));
        }

        @Bean
        DashboardChart levelsChart() {
            return DashboardChart.of("Levels", "items", Series.value("unknown", "test.unknown"));
        }

        @Bean
        DashboardChart packingChart() {
            return DashboardChart.of("Packing", "after/before", Series.ratio("packed over raw", "test.bytes",
                    Series.rate("", "test.raw").where("stage", "in")).where("stage", "out"));
        }
    }

    @BeforeAll
    static void startService() {
        service = new SpringApplicationBuilder(Service.class).run("--server.port=-1", "--management.server.port=0",
                "--spring.main.banner-mode=off", "--spring.application.name=test-service",
                "--spring.security.user.password=" + PASSWORD);
        port = service.getEnvironment().getRequiredProperty("local.management.port", Integer.class);
    }

    @AfterAll
    static void stopService() {
        service.close();
    }

    @ParameterizedTest
    @ValueSource(strings = { "/actuator/dashboard", "/actuator/dashboard/figures", "/actuator/dashboard/chart.js",
            "/actuator/dashboard/dashboard.js", "/actuator/dashboard/nothing" })
    void nothingWithoutTheCredential(String path) throws Exception {
        HttpResponse<String> response = get(path, null);
        assertThat(response.statusCode()).isEqualTo(401);
        assertThat(response.headers().firstValue("WWW-Authenticate")).hasValueSatisfying(
                challenge -> assertThat(challenge).startsWith("Basic"));
        assertThat(response.body()).doesNotContain("Chart").doesNotContain("Orders");
    }

    @Test
    void thePageLoadsItsScriptsFromTheEndpoint() throws Exception {
        HttpResponse<String> page = get("/actuator/dashboard", PASSWORD);
        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.headers().firstValue("Content-Type")).hasValueSatisfying(
                type -> assertThat(type).startsWith("text/html"));
        assertThat(page.body()).contains("<script src=\"dashboard/chart.js\">")
                .contains("<script src=\"dashboard/dashboard.js\">").doesNotContain("http")
                // The search box asks the custody endpoint beside this one (tools' DashboardPageBrowserTest uses it).
                .contains("<form id=\"search\"").contains("<section id=\"custody\"");

        HttpResponse<String> chartJs = get("/actuator/dashboard/chart.js", PASSWORD);
        assertThat(chartJs.statusCode()).isEqualTo(200);
        assertThat(chartJs.headers().firstValue("Content-Type")).hasValueSatisfying(
                type -> assertThat(type).startsWith("text/javascript"));
        assertThat(chartJs.body()).contains("Chart.js v4");

        HttpResponse<String> script = get("/actuator/dashboard/dashboard.js", PASSWORD);
        assertThat(script.statusCode()).isEqualTo(200);
        assertThat(script.body()).contains("dashboard/figures").contains("'custody/'")
                // Data is only ever text in the page.
                .doesNotContain("innerHTML").doesNotContain("insertAdjacentHTML").doesNotContain("document.write");

        assertThat(get("/actuator/dashboard/nothing", PASSWORD).statusCode()).isEqualTo(404);
    }

    @Test
    void theFiguresAreTheRegistrysCurrentValues() throws Exception {
        MeterRegistry registry = service.getBean(MeterRegistry.class);
        registry.counter("test.orders").increment(7);
        registry.counter("test.refused", "reason", "oversize").increment(2);
        registry.counter("test.refused", "reason", "malformed").increment(3);
        registry.counter("test.sent", "route", "north", "class", "express").increment(4);
        registry.counter("test.sent", "route", "north", "class", "standard").increment(50);
        registry.counter("test.sent", "route", "south", "class", "standard").increment(60);

        HttpResponse<String> figures = get("/actuator/dashboard/figures", PASSWORD);
        assertThat(figures.statusCode()).isEqualTo(200);
        assertThat(figures.headers().firstValue("Content-Type")).hasValueSatisfying(
                type -> assertThat(type).startsWith("application/json"));
        assertThat(figures.body()).contains("\"service\":\"test-service\"").contains("\"title\":\"Orders\"")
                .contains("{\"label\":\"taken\",\"kind\":\"rate\",\"value\":7.0}")
                .contains("{\"label\":\"refused malformed\",\"kind\":\"value\",\"value\":3.0}")
                .contains("{\"label\":\"refused oversize\",\"kind\":\"value\",\"value\":2.0}")
                // Only the meters with the series' tags: the standard class is not counted, south has none.
                .contains("{\"label\":\"express north\",\"kind\":\"rate\",\"value\":4.0}")
                .doesNotContain("express south")
                // Every service's page ends with the JVM's memory.
                .contains("\"title\":\"JVM memory used\"").contains("\"label\":\"heap\"");
    }

    @Test
    void aRatioCarriesTheTotalItIsDividedBy() throws Exception {
        MeterRegistry registry = service.getBean(MeterRegistry.class);
        registry.counter("test.bytes", "stage", "out").increment(30);
        registry.counter("test.bytes", "stage", "in").increment(1000);
        registry.counter("test.raw", "stage", "in").increment(100);

        assertThat(get("/actuator/dashboard/figures", PASSWORD).body()).contains("\"title\":\"Packing\"")
                .contains("{\"label\":\"packed over raw\",\"kind\":\"ratio\",\"value\":30.0,\"of\":100.0}");
    }

    /** A gauge that has no value (NaN: a standby's link, a loss not yet measured) is a line without one. */
    @Test
    void aGaugeWithoutAValueIsALineWithoutOne() throws Exception {
        MeterRegistry registry = service.getBean(MeterRegistry.class);
        registry.gauge("test.unknown", Double.NaN);

        assertThat(get("/actuator/dashboard/figures", PASSWORD).body()).contains("\"title\":\"Levels\"")
                .contains("{\"label\":\"unknown\",\"kind\":\"value\",\"value\":null}");
    }

    @Test
    void aRatioIsOneLineDividedByAnother() {
        Series per = Series.rate("", "test.raw");
        assertThatIllegalArgumentException().isThrownBy(
                () -> new Series("split", "test.bytes", DashboardChart.Kind.RATIO, 0, "stage", Map.of(), per));
        assertThatIllegalArgumentException().isThrownBy(
                () -> new Series("alone", "test.bytes", DashboardChart.Kind.RATIO, 0, null, Map.of(), null));
        assertThatIllegalArgumentException().isThrownBy(
                () -> new Series("rate", "test.bytes", DashboardChart.Kind.RATE, 0, null, Map.of(), per));
        assertThat(Series.ratio("r", "test.bytes", per).where("stage", "out").per()).isEqualTo(per);
    }

    private static HttpResponse<String> get(String path, @Nullable String password) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(30));
        if (password != null) {
            request.header("Authorization", "Basic " + Base64.getEncoder()
                    .encodeToString(("user:" + password).getBytes(StandardCharsets.UTF_8)));
        }
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }
}
