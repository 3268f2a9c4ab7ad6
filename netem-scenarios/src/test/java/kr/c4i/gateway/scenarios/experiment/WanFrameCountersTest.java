package kr.c4i.gateway.scenarios.experiment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.junit.jupiter.api.Test;

import kr.c4i.gateway.core.link.SiteId;
import kr.c4i.gateway.wan.metrics.RelayMetrics;

class WanFrameCountersTest {

    /** Read from what the gateway's own meters look like on /actuator/prometheus, names and tags as it writes them. */
    @Test
    void sumsTheDataFramesSentAndTheirMessagesOverThePeerSites() {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        registry.config().commonTags("application", "wan-gateway", "gateway", "s1");
        RelayMetrics metrics = new RelayMetrics(registry);
        SiteId s2 = SiteId.of("s2");
        SiteId s3 = SiteId.of("s3");
        metrics.frame(s2, true, true, 300);
        metrics.payloadSent(s2, 1200);
        metrics.frame(s3, true, true, 100);
        metrics.payloadSent(s3, 800);
        // Receipts sent and frames received are no part of it.
        metrics.frame(s2, true, false, 40);
        metrics.frame(s2, false, true, 999);
        metrics.frame(s3, false, false, 25);

        WanFrameCounters counted = WanFrameCounters.parse(registry.scrape());

        assertThat(counted).isEqualTo(new WanFrameCounters(2000, 400));
        assertThat(counted.ratio()).hasValue(0.2);
    }

    @Test
    void aGatewayThatSentNothingYetCountsZero() {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        new RelayMetrics(registry).frame(SiteId.of("s1"), false, true, 500);

        assertThat(WanFrameCounters.parse(registry.scrape())).isEqualTo(WanFrameCounters.ZERO);
        assertThat(WanFrameCounters.parse("")).isEqualTo(WanFrameCounters.ZERO);
        assertThat(WanFrameCounters.ZERO.ratio()).isEmpty();
    }

    @Test
    void readsTheTextFormatsDetails() {
        String exposition = """
                # HELP gateway_wan_bytes_total Bytes of WAN frames
                # TYPE gateway_wan_bytes_total counter
                gateway_wan_bytes_total{direction="sent",kind="data",note="a \\"quoted\\", comma",site="s2",} 1.5E3 1732600000000
                gateway_wan_bytes_total{direction="sent",kind="receipt",site="s2",} 77.0
                gateway_wan_bytes_total_other{direction="sent",kind="data",site="s2",} 5.0
                gateway_wan_payload_bytes_total{direction="sent",site="s2",} 6000.0
                gateway_wan_payload_bytes_total{direction="received",site="s2",} 9.0
                """;

        assertThat(WanFrameCounters.parse(exposition)).isEqualTo(new WanFrameCounters(6000, 1500));
        assertThatIllegalArgumentException().isThrownBy(
                () -> WanFrameCounters.parse("gateway_wan_payload_bytes_total{direction=\"sent\"} many"))
                .withMessageContaining("many");
    }

    @Test
    void aCellIsTheDifferenceOfTwoReadingsOverBothGateways() {
        WanFrameCounters before = new WanFrameCounters(1000, 300).plus(new WanFrameCounters(0, 0));
        WanFrameCounters after = new WanFrameCounters(41000, 12300).plus(new WanFrameCounters(0, 0));

        assertThat(after.minus(before)).isEqualTo(new WanFrameCounters(40000, 12000));
        assertThat(after.minus(before).ratio()).hasValue(0.3);
        // Nothing sent meanwhile, or a gateway restarted between the readings: no ratio.
        assertThat(before.minus(before).ratio()).isEmpty();
        assertThat(new WanFrameCounters(500, 20).minus(before).ratio()).isEmpty();
    }

    @Test
    void theNamesAreMicrometersForCountersInBytes() {
        assertThat(WanFrameCounters.PAYLOAD).isEqualTo("gateway_wan_payload_bytes_total");
        assertThat(WanFrameCounters.FRAMES).isEqualTo("gateway_wan_bytes_total");
    }
}
