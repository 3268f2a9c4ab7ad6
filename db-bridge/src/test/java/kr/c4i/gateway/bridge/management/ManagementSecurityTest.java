package kr.c4i.gateway.bridge.management;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;

import javax.sql.DataSource;

import com.jayway.jsonpath.JsonPath;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.export.SpanExporter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalManagementPort;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Import;
import org.springframework.test.annotation.DirtiesContext;

import kr.c4i.gateway.bridge.DbBridgeApplication;
import kr.c4i.gateway.bridge.inbox.InboxWriter;
import kr.c4i.gateway.bridge.support.Kmtf;
import kr.c4i.gateway.bridge.support.RecordingNode;
import kr.c4i.gateway.bridge.support.RecordingTransport;
import kr.c4i.gateway.core.Envelope;
import kr.c4i.gateway.core.NodeId;
import kr.c4i.gateway.kmtf.catalogue.Precedence;
import kr.c4i.gateway.tracing.MessageTracing;
import kr.c4i.gateway.tracing.SpanQueue;

/**
 * The whole bridge as deployed (application.yaml, every auto-configuration) on a real PostgreSQL,
 * asked over HTTP as an operator's curl or an attacker would: what is open, what needs the credential.
 */
@SpringBootTest(classes = DbBridgeApplication.class, webEnvironment = WebEnvironment.DEFINED_PORT,
        properties = { "gateway.node.id=a", "gateway.jms.user=gateway", "gateway.jms.password=broker-secret",
                "spring.security.user.password=" + ManagementSecurityTest.PASSWORD, "management.server.port=0",
                "gateway.routing.subscriptions.b=*",
                "gateway.jms.tls.plain-tcp=true" })
@Import(RecordingNode.class)
@DirtiesContext
class ManagementSecurityTest {

    static final String PASSWORD = "management-secret";

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    @LocalManagementPort
    int port;

    @Autowired
    DataSource dataSource;

    @Autowired
    RecordingTransport transport;

    @Autowired
    InboxWriter inbox;

    @Autowired
    MessageTracing tracing;

    @Autowired
    ApplicationContext context;

    /** The OpenTelemetry starter is on the class path; tracing is off unless switched on. */
    @Test
    void tracingIsOffByDefault() {
        assertThat(tracing).isSameAs(MessageTracing.off());
        assertThat(context.getBeansOfType(SdkTracerProvider.class)).isEmpty();
        assertThat(context.getBeansOfType(SpanExporter.class)).isEmpty();
        assertThat(context.getBeansOfType(SpanQueue.class)).isEmpty();
        assertThat(Path.of("data/traces")).doesNotExist();
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

    @ParameterizedTest
    @ValueSource(strings = { "/actuator/prometheus", "/actuator/metrics", "/actuator/info", "/actuator",
            "/actuator/health/db", "/actuator/health/transport", "/actuator/dashboard", "/actuator/dashboard/figures",
            "/actuator/custody/m-1", "/actuator/reports/b" })
    void anonymousCallersGet401(String path) throws Exception {
        HttpResponse<String> response = get(path, null);
        assertThat(response.statusCode()).isEqualTo(401);
        assertThat(response.headers().firstValue("WWW-Authenticate")).hasValueSatisfying(
                challenge -> assertThat(challenge).startsWith("Basic"));
        assertThat(response.body()).doesNotContain("postgres").doesNotContain("gateway_");
    }

    @Test
    void aWrongPasswordGets401() throws Exception {
        assertThat(get("/actuator/prometheus", "wrong").statusCode()).isEqualTo(401);
        assertThat(get("/actuator/health/db", "wrong").statusCode()).isEqualTo(401);
    }

    @Test
    void anonymousHealthIsTheStatusWithoutDetails() throws Exception {
        HttpResponse<String> response = get("/actuator/health", null);
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).contains("\"status\":\"UP\"").doesNotContain("components")
                .doesNotContain("details").doesNotContain("postgres");
    }

    @ParameterizedTest
    @ValueSource(strings = { "/actuator/health/liveness", "/actuator/health/readiness" })
    void probesAreOpenForOrchestrators(String path) throws Exception {
        HttpResponse<String> response = get(path, null);
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).contains("\"status\":\"UP\"");
    }

    @Test
    void theCredentialGetsTheData() throws Exception {
        HttpResponse<String> health = get("/actuator/health", PASSWORD);
        assertThat(health.statusCode()).isEqualTo(200);
        assertThat(health.body()).contains("\"db\"").contains("\"transport\"").contains("\"outbox\"")
                .contains("PostgreSQL");
        HttpResponse<String> metrics = get("/actuator/prometheus", PASSWORD);
        assertThat(metrics.statusCode()).isEqualTo(200);
        assertThat(metrics.body()).contains("gateway_outbox_polled_total{").contains("node=\"a\"");
        assertThat(get("/actuator/health/db", PASSWORD).statusCode()).isEqualTo(200);
        assertThat(get("/actuator/metrics", PASSWORD).statusCode()).isEqualTo(200);
        assertThat(get("/actuator/info", PASSWORD).statusCode()).isEqualTo(200);
        HttpResponse<String> figures = get("/actuator/dashboard/figures", PASSWORD);
        assertThat(figures.statusCode()).isEqualTo(200);
        assertThat(figures.body()).contains("\"service\":\"db-bridge\"").contains("\"title\":\"Outbox backlog\"");
    }

    @Test
    void theCustodyEndpointSaysWhereAMessageIsAndThatItHasNotSeenAnother() throws Exception {
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement("INSERT INTO outbox "
                + "(message_id, kmtf_type, body) VALUES ('m-custody/1', 'SITREP', convert_to(?, 'UTF8'))")) {
            ps.setString(1, Kmtf.message("SITREP", 1));
            ps.executeUpdate();
        }
        await().atMost(Duration.ofSeconds(20)).until(() -> transport.sent.stream()
                .anyMatch(o -> o.envelope().messageId().equals("m-custody/1")));

        HttpResponse<String> seen = get("/actuator/custody/m-custody/1", PASSWORD);

        assertThat(seen.statusCode()).isEqualTo(200);
        assertThat((String) JsonPath.read(seen.body(), "$.messageId")).isEqualTo("m-custody/1");
        assertThat((List<String>) JsonPath.read(seen.body(), "$.steps[*].event")).containsExactly("sent");
        assertThat((List<String>) JsonPath.read(seen.body(), "$.steps[0].peers")).containsExactly("b");
        assertThat((String) JsonPath.read(seen.body(), "$.steps[0].at")).matches("\\d{4}-\\d\\d-\\d\\dT.*Z");
        assertThat((String) JsonPath.read(seen.body(), "$.position")).startsWith("in node a's broker for b since ");
        HttpResponse<String> unseen = get("/actuator/custody/m-unknown", PASSWORD);
        assertThat(unseen.statusCode()).isEqualTo(200);
        assertThat((String) JsonPath.read(unseen.body(), "$.position")).isEqualTo("not seen here (asked node a)");
    }

    @Test
    void theReportsEndpointServesTheFatesOfANodesMessagesThatThisNodeTookAsNodeA() throws Exception {
        inbox.deliver(List.of(new Envelope("m-from-b", NodeId.of("b"), "SITREP", Precedence.FLASH, "UNCLASSIFIED",
                Instant.now(), Kmtf.message("SITREP", 2).getBytes(StandardCharsets.UTF_8))));

        HttpResponse<String> ofB = get("/actuator/reports/b?after=0", PASSWORD);

        assertThat(ofB.statusCode()).isEqualTo(200);
        assertThat((List<String>) JsonPath.read(ofB.body(), "$.reports[*].reporter")).containsExactly("node a");
        assertThat((List<String>) JsonPath.read(ofB.body(), "$.reports[*].event")).containsExactly("delivered");
        assertThat((List<String>) JsonPath.read(ofB.body(), "$.reports[0].messageIds")).containsExactly("m-from-b");
        Number next = JsonPath.read(ofB.body(), "$.next");
        HttpResponse<String> after = get("/actuator/reports/b?after=" + next, PASSWORD);
        assertThat((List<?>) JsonPath.read(after.body(), "$.reports")).isEmpty();
        assertThat((List<?>) JsonPath.read(get("/actuator/reports/c", PASSWORD).body(), "$.reports")).isEmpty();
        assertThat(get("/actuator/reports/B", PASSWORD).statusCode()).isEqualTo(400);
    }

    private HttpResponse<String> get(String path, String password) throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(30));
        if (password != null) {
            request.header("Authorization", "Basic " + Base64.getEncoder()
                    .encodeToString(("user:" + password).getBytes(StandardCharsets.UTF_8)));
        }
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }
}
