package kr.c4i.gateway.tools.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;

import jakarta.jms.JMSException;
import jakarta.jms.JMSSecurityException;
import org.apache.activemq.artemis.jms.client.ActiveMQConnectionFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.yaml.snakeyaml.Yaml;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import kr.c4i.gateway.core.transport.TransportKind;
import kr.c4i.gateway.kmtf.catalogue.KmtfCatalogue;

/**
 * Every metric every Grafana panel and every alert rule queries exists on a running node's
 * {@code /actuator/prometheus}, so no panel is empty and no alert silently never fires because a name changed.
 * The nodes run on the embedded defaults (JMS, then DDS), with a load that has bad rows, so the meters made at
 * the first event (quarantine reasons, latency) exist too. The WAN gateway's names ({@code gateway_wan_*}) are
 * checked against running WAN gateways by WanGatewayMetricsTest, the delivery reports' by ComposeStackIT, and the span
 * queue's by BridgeTracingTest.
 */
class DashboardMetricsTest {

    static final Path ROOT = Path.of(System.getProperty("gateway.repository.root", "..")).toAbsolutePath()
            .normalize();
    static final Path DASHBOARDS = ROOT.resolve("deploy/grafana/dashboards");
    static final Path ALERTS = ROOT.resolve("deploy/prometheus/alerts.yml");

    /**
     * A node's delivery reports' meters, which only a node that asks a WAN gateway has: ComposeStackIT's Prometheus
     * finds them on the compose stack's nodes, whose gateways answer.
     */
    static final String REPORTS_PREFIX = "gateway_reports_";

    /**
     * The span queue's meters, which only a service tracing to a collector has (off by default, as here): db-bridge's
     * BridgeTracingTest finds them on a bridge's Prometheus scrape.
     */
    static final String TRACING_PREFIX = "gateway_tracing_";

    @TempDir
    Path work;

    @Test
    void everyPanelAndAlertQueriesAMetricTheServicesExpose() throws Exception {
        Set<String> exposed = new TreeSet<>();
        for (TransportKind transport : TransportKind.values()) {
            exposed.addAll(exposedUnderLoad(transport));
        }
        // Prometheus' own series of every scrape target, not a service's.
        exposed.add("up");
        Files.createDirectories(Path.of("target"));
        Files.write(Path.of("target/exposed-metric-names.txt"), exposed);

        Map<String, Set<String>> queried = queried();
        assertThat(queried).as("metrics the dashboards and alerts query").hasSizeGreaterThan(20);

        Map<String, Set<String>> missing = new TreeMap<>(queried);
        missing.keySet().removeAll(exposed);
        missing.keySet().removeIf(name -> name.startsWith(WanGatewayMetricsTest.WAN_PREFIX)
                || name.startsWith(REPORTS_PREFIX) || name.startsWith(TRACING_PREFIX));
        assertThat(missing).as("metrics queried (and where) that no service exposes; see "
                + "target/exposed-metric-names.txt").isEmpty();
    }

    /** Metric name to the panels and rules that query it. */
    static Map<String, Set<String>> queried() throws IOException {
        Map<String, Set<String>> queried = new TreeMap<>();
        JsonMapper json = JsonMapper.builder().build();
        List<Path> dashboards;
        try (Stream<Path> files = Files.list(DASHBOARDS)) {
            dashboards = files.filter(f -> f.toString().endsWith(".json")).sorted().toList();
        }
        assertThat(dashboards).as("dashboards in " + DASHBOARDS).hasSizeGreaterThanOrEqualTo(5);
        for (Path file : dashboards) {
            JsonNode dashboard = json.readTree(file.toFile());
            int expressions = 0;
            for (JsonNode panel : panels(dashboard)) {
                for (JsonNode target : panel.path("targets")) {
                    String where = file.getFileName() + ": " + panel.path("title").asString();
                    expressions += add(queried, target.path("expr").asString(), where);
                }
            }
            for (JsonNode variable : dashboard.path("templating").path("list")) {
                JsonNode query = variable.path("query");
                String expression = query.isObject() ? query.path("query").asString() : query.asString();
                add(queried, expression, file.getFileName() + ": variable " + variable.path("name").asString());
            }
            assertThat(expressions).as(file + " panels' queries").isPositive();
        }
        Map<String, Object> rules = new Yaml().load(Files.readString(ALERTS));
        int alerts = 0;
        for (Object group : (List<?>) rules.get("groups")) {
            for (Object rule : (List<?>) ((Map<?, ?>) group).get("rules")) {
                Map<?, ?> r = (Map<?, ?>) rule;
                alerts += add(queried, String.valueOf(r.get("expr")), "alerts.yml: " + r.get("alert"));
            }
        }
        assertThat(alerts).as("alert rules").isGreaterThanOrEqualTo(4);
        return queried;
    }

    private static List<JsonNode> panels(JsonNode dashboard) {
        List<JsonNode> panels = new ArrayList<>();
        for (JsonNode panel : dashboard.path("panels")) {
            panels.add(panel);
            // A collapsed row keeps its panels inside it.
            panel.path("panels").forEach(panels::add);
        }
        return panels;
    }

    private static int add(Map<String, Set<String>> queried, String expression, String where) {
        if (expression == null || expression.isBlank()) {
            return 0;
        }
        for (String name : PromQl.metricNames(expression)) {
            queried.computeIfAbsent(name, n -> new TreeSet<>()).add(where);
        }
        return 1;
    }

    /** Two nodes on the embedded defaults, a load with bad rows through them, every node's names once it is in. */
    private Set<String> exposedUnderLoad(TransportKind transport) throws Exception {
        Path dir = work.resolve(transport.name().toLowerCase());
        Set<String> names = new TreeSet<>();
        try (EmbeddedCluster cluster = EmbeddedCluster.start(transport, 2, dir, dir.resolve("gateway.log"), true)) {
            LoadDriver load = new LoadDriver(new KmtfLoadGenerator(KmtfCatalogue.loadDefault(), "NODEA", 0, false, 7),
                    cluster.publisher().database());
            load.drive(300, 0, 30);
            EmbeddedNode receiver = cluster.receivers().getFirst();
            // Quarantine reasons, the latency histogram and GC pauses exist from their first event on: a collection
            // after the nodes bound their meters (a short run on a large heap may have had none) is asked for.
            await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(500)).untilAsserted(() -> {
                System.gc();
                assertThat(Scrape.prometheus(cluster.publisher())).contains("gateway_outbox_quarantined_total{",
                        "jvm_gc_pause_seconds_count{");
                assertThat(InboxProbe.inbox(receiver.database())).isPositive();
                assertThat(Scrape.prometheus(receiver)).contains("gateway_delivery_latency_seconds_bucket{");
            });
            // The embedded default is secured: the run's own site PKI, and a plain-TCP client gets no broker.
            for (EmbeddedNode node : cluster.nodes()) {
                assertThat(node.security())
                        .isEqualTo(transport == TransportKind.JMS ? "brokers in mutual TLS" : "DDS Security");
            }
            if (transport == TransportKind.JMS) {
                try (ActiveMQConnectionFactory plain = new ActiveMQConnectionFactory(
                        "tcp://127.0.0.1:" + cluster.publisher().brokerPort() + "?reconnectAttempts=0"
                                + "&callTimeout=5000&connectionTTL=5000")) {
                    assertThatThrownBy(() -> plain.createConnection("gateway", "wrong").close())
                            .isInstanceOf(JMSException.class).isNotInstanceOf(JMSSecurityException.class);
                }
            }
            for (EmbeddedNode node : cluster.nodes()) {
                names.addAll(Scrape.names(Scrape.prometheus(node)));
            }
        }
        // A stopped cluster leaves its databases to the command, which keeps them with --keep-data.
        assertThat(dir.resolve("a").resolve("postgres").resolve("PG_VERSION")).as("node a's database").exists();
        return names;
    }
}
