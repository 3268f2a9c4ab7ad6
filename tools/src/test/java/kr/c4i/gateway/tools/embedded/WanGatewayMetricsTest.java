package kr.c4i.gateway.tools.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.context.ConfigurableApplicationContext;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import kr.c4i.gateway.kmtf.catalogue.Precedence;

/**
 * Every WAN metric ({@code gateway_wan_*}) a Grafana panel, a dashboard variable or an alert rule queries exists on
 * the {@code /actuator/prometheus} of real WAN gateways after traffic (relayed both ways of the link, FLASH and
 * ROUTINE, a type the policy denies) and after the faults whose meters exist only once they happen (a frame never
 * receipted and resent, an unreadable frame rejected). DashboardMetricsTest checks the other names against nodes.
 * The gateways' built-in dashboard page shows their WAN charts with live values.
 */
class WanGatewayMetricsTest {

    static final String WAN_PREFIX = "gateway_wan_";

    /**
     * The norm link's own gauges: these gateways run the jms link (NORM needs libnorm1), so they have none.
     * RelayGaugesTest checks the norm link registers them.
     */
    static final Set<String> NORM_LINK_ONLY = Set.of("gateway_wan_link_loss", "gateway_wan_link_parity");

    /**
     * The gauges of a gateway that is one of a pair: these are lone gateways. wan-gateway's WanGatewayApplicationTest
     * checks a pair's, and deploy-tests' ComposeStackIT finds them on the compose stack's Prometheus.
     */
    static final Set<String> PAIR_ONLY = Set.of("gateway_wan_pair_leader", "gateway_wan_pair_ready",
            "gateway_wan_pair_takeovers_total");

    private static final List<String> CHARTS = List.of("WAN link up per peer site",
            "Relayed over the WAN per precedence (receipted by the peer)", "Relayed by direction",
            "Store depth per precedence", "Store bytes and bound", "Oldest stored copy per route",
            "Dropped by reason, refused by the store", "WAN bytes",
            "WAN compression (DATA frame bytes sent over their messages' bytes)",
            "FLASH delivery latency (origin to this site's nodes)");

    @TempDir
    Path work;

    @Test
    @Timeout(180)
    void everyWanPanelAndAlertQueriesAMetricTheGatewaysExpose() throws Exception {
        Map<String, Set<String>> queried = new TreeMap<>(DashboardMetricsTest.queried());
        queried.keySet().removeIf(name -> !name.startsWith(WAN_PREFIX) || NORM_LINK_ONLY.contains(name)
                || PAIR_ONLY.contains(name));
        assertThat(queried).as("WAN metrics the dashboards and alerts query").hasSizeGreaterThanOrEqualTo(10);

        try (WanSites sites = WanSites.start(work)) {
            sites.send("routine", 40, Precedence.ROUTINE);
            sites.send("flash", 2, Precedence.FLASH);
            sites.send("denied", 1, "LOGSITREP", Precedence.ROUTINE);
            await().atMost(Duration.ofSeconds(30)).until(() -> sites.framesAtS3() > 0);
            sites.sendUnreadableFrame();
            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(500)).untilAsserted(() -> {
                assertThat(WanSites.prometheus(sites.gateway1)).contains("gateway_wan_frames_resent_total{",
                        "gateway_wan_frames_rejected_total{", "gateway_wan_dropped_total{", "reason=\"denied\"",
                        "direction=\"wan-out\"");
                assertThat(WanSites.prometheus(sites.gateway2)).contains("direction=\"lan-out\"",
                        "gateway_wan_delivery_latency_seconds_bucket{");
            });
            Set<String> exposed = new TreeSet<>();
            exposed.addAll(Scrape.names(WanSites.prometheus(sites.gateway1)));
            exposed.addAll(Scrape.names(WanSites.prometheus(sites.gateway2)));
            Files.createDirectories(Path.of("target"));
            Files.write(Path.of("target/exposed-wan-metric-names.txt"), exposed);

            Map<String, Set<String>> missing = new TreeMap<>(queried);
            missing.keySet().removeAll(exposed);
            assertThat(missing).as("WAN metrics queried (and where) that the gateways do not expose; see "
                    + "target/exposed-wan-metric-names.txt").isEmpty();

            // The page's charts, each with at least one line read from a meter that exists.
            for (var gateway : List.of(sites.gateway1, sites.gateway2)) {
                JsonNode figures = figures(gateway);
                List<String> titles = new ArrayList<>();
                figures.path("charts").forEach(chart -> titles.add(chart.path("title").asString()));
                assertThat(figures.path("service").asString()).isEqualTo("wan-gateway");
                assertThat(titles).startsWith(CHARTS.toArray(String[]::new));
            }
            // Only wan-out is counted (lan-in counts the same messages again): 40 ROUTINE receipted by s2, none by s3.
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(lines(figures(sites.gateway1),
                    "Relayed over the WAN per precedence (receipted by the peer)")).containsEntry("routine", 40.0));
            JsonNode gateway1 = figures(sites.gateway1);
            assertThat(lines(gateway1, "WAN link up per peer site")).containsEntry("s2", 1.0).containsEntry("s3", 1.0);
            // The denied LOGSITREP came twice: a's bridges forward one copy per remote destination (c, d).
            assertThat(lines(gateway1, "Dropped by reason, refused by the store")).containsEntry("denied", 2.0);
            assertThat(lines(gateway1, "WAN compression (DATA frame bytes sent over their messages' bytes)"))
                    .containsKey("after over before");
            JsonNode gateway2 = figures(sites.gateway2);
            assertThat(lines(gateway2, "FLASH delivery latency (origin to this site's nodes)")).containsKeys("p50", "p99");
        }
    }

    static JsonNode figures(ConfigurableApplicationContext gateway) throws Exception {
        return JsonMapper.builder().build().readTree(WanSites.get(gateway, "/actuator/dashboard/figures").body());
    }

    /** A chart's lines, label to value (lines without a value yet are left out). */
    static Map<String, Double> lines(JsonNode figures, String title) {
        Map<String, Double> lines = new TreeMap<>();
        for (JsonNode chart : figures.path("charts")) {
            if (chart.path("title").asString().equals(title)) {
                chart.path("series").forEach(series -> {
                    if (series.path("value").isNumber()) {
                        lines.put(series.path("label").asString(), series.path("value").asDouble());
                    }
                });
            }
        }
        return lines;
    }
}
