package kr.c4i.gateway.bridge.metrics;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.core.annotation.Order;

import kr.c4i.gateway.core.metrics.MetricNames;
import kr.c4i.gateway.management.dashboard.DashboardChart;
import kr.c4i.gateway.management.dashboard.DashboardChart.Series;

/**
 * The bridge's charts on the built-in dashboard page ({@code /actuator/dashboard}): what an operator watches first,
 * as the Grafana bridge dashboard has them.
 */
@AutoConfiguration
public final class BridgeDashboardConfiguration {

    @Bean
    @Order(1)
    DashboardChart outboxBacklogChart() {
        return DashboardChart.of("Outbox backlog", "rows", Series.value("waiting", MetricNames.OUTBOX_BACKLOG),
                Series.value("not receipted", MetricNames.OUTBOX_UNRECEIPTED));
    }

    @Bean
    @Order(2)
    DashboardChart throughputChart() {
        return DashboardChart.of("Publish and delivery rates", "msg/s",
                Series.rate("published", MetricNames.OUTBOX_PUBLISHED),
                Series.rate("delivered here", MetricNames.INBOX_DELIVERED),
                Series.rate("inserted here", MetricNames.INBOX_INSERTED));
    }

    @Bean
    @Order(3)
    DashboardChart latencyChart() {
        return DashboardChart.of("End-to-end latency (origin outbox to inbox here)", "ms",
                Series.percentile("p50", MetricNames.DELIVERY_LATENCY, 0.5),
                Series.percentile("p99", MetricNames.DELIVERY_LATENCY, 0.99));
    }

    @Bean
    @Order(4)
    DashboardChart quarantineChart() {
        return DashboardChart.of("Quarantined outbox rows by reason", "rows",
                Series.valueBy("", MetricNames.OUTBOX_QUARANTINED, MetricNames.TAG_REASON),
                Series.valueBy("inbound", MetricNames.INBOUND_REJECTED, MetricNames.TAG_REASON));
    }
}
