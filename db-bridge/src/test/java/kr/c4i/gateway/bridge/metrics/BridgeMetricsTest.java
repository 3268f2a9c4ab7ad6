package kr.c4i.gateway.bridge.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.junit.jupiter.api.Test;

import kr.c4i.gateway.core.transport.TransportKind;

/** What /actuator/prometheus shows of the bridge's meters is what docs/configuration.md says it shows. */
class BridgeMetricsTest {

    @Test
    void deliveryLatencyIsScrapedAsAHistogramForHistogramQuantile() {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        BridgeMetrics metrics = new BridgeMetrics(registry, TransportKind.JMS);
        for (int ms = 1; ms <= 100; ms++) {
            metrics.latency(Duration.ofMillis(ms));
        }

        String scrape = registry.scrape();
        assertThat(scrape).contains("# TYPE gateway_delivery_latency_seconds histogram")
                .contains("gateway_delivery_latency_seconds_bucket{transport=\"jms\",le=\"0.050331646\"} 50")
                .contains("gateway_delivery_latency_seconds_bucket{transport=\"jms\",le=\"+Inf\"} 100")
                .contains("gateway_delivery_latency_seconds_count{transport=\"jms\"} 100");
        // Prometheus histograms carry no client-side quantiles; docs/configuration.md says to use histogram_quantile.
        assertThat(scrape).doesNotContain("quantile=");
    }
}
