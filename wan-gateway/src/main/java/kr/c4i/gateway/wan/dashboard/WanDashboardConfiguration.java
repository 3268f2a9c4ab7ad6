package kr.c4i.gateway.wan.dashboard;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.annotation.Order;

import kr.c4i.gateway.core.metrics.MetricNames;
import kr.c4i.gateway.kmtf.catalogue.Precedence;
import kr.c4i.gateway.management.dashboard.DashboardChart;
import kr.c4i.gateway.management.dashboard.DashboardChart.Series;
import kr.c4i.gateway.wan.metrics.RelayMetrics.Direction;

/**
 * The WAN gateway's charts on the built-in dashboard page ({@code /actuator/dashboard}): the figures of the Grafana
 * WAN gateway dashboard an operator watches first. A plain configuration found by the application's component scan,
 * not an auto-configuration, so a node that shares a class path with the gateway (the tools' jar) never shows them.
 */
@Configuration(proxyBeanMethods = false)
public class WanDashboardConfiguration {

    @Bean
    @Order(1)
    DashboardChart wanLinkChart() {
        return DashboardChart.of("WAN link up per peer site", "up",
                Series.valueBy("", MetricNames.WAN_LINK_UP, MetricNames.TAG_SITE));
    }

    @Bean
    @Order(2)
    DashboardChart relayedByPrecedenceChart() {
        return DashboardChart.of("Relayed over the WAN per precedence (receipted by the peer)", "msg/s",
                Series.rateBy("", MetricNames.WAN_RELAYED, MetricNames.TAG_PRECEDENCE)
                        .where(MetricNames.TAG_DIRECTION, Direction.WAN_OUT.label()));
    }

    @Bean
    @Order(3)
    DashboardChart relayedByDirectionChart() {
        return DashboardChart.of("Relayed by direction", "msg/s",
                Series.rateBy("", MetricNames.WAN_RELAYED, MetricNames.TAG_DIRECTION));
    }

    @Bean
    @Order(4)
    DashboardChart storeDepthChart() {
        return DashboardChart.of("Store depth per precedence", "copies",
                Series.valueBy("", MetricNames.WAN_STORE_COPIES, MetricNames.TAG_PRECEDENCE));
    }

    @Bean
    @Order(5)
    DashboardChart storeBytesChart() {
        return DashboardChart.of("Store bytes and bound", "bytes",
                Series.valueBy("", MetricNames.WAN_STORE_BYTES, MetricNames.TAG_ROUTE),
                Series.value("bound", MetricNames.WAN_STORE_BOUND));
    }

    /** One gauge per route and precedence, so each line is one copy's age, never a sum of ages. */
    @Bean
    @Order(6)
    DashboardChart storeOldestChart() {
        return DashboardChart.of("Oldest stored copy per route", "s",
                Series.valueBy(Precedence.FLASH.label(), MetricNames.WAN_STORE_OLDEST_AGE, MetricNames.TAG_ROUTE)
                        .where(MetricNames.TAG_PRECEDENCE, Precedence.FLASH.label()),
                Series.valueBy(Precedence.ROUTINE.label(), MetricNames.WAN_STORE_OLDEST_AGE, MetricNames.TAG_ROUTE)
                        .where(MetricNames.TAG_PRECEDENCE, Precedence.ROUTINE.label()));
    }

    @Bean
    @Order(7)
    DashboardChart dropsChart() {
        return DashboardChart.of("Dropped by reason, refused by the store", "messages",
                Series.valueBy("", MetricNames.WAN_DROPPED, MetricNames.TAG_REASON),
                Series.valueBy("refused", MetricNames.WAN_STORE_REFUSED, MetricNames.TAG_PRECEDENCE));
    }

    @Bean
    @Order(8)
    DashboardChart wanBytesChart() {
        return DashboardChart.of("WAN bytes", "bytes/s",
                Series.rateBy("", MetricNames.WAN_BYTES, MetricNames.TAG_DIRECTION),
                Series.valueBy("in flight", MetricNames.WAN_LINK_INFLIGHT_BYTES, MetricNames.TAG_SITE));
    }

    /**
     * Bytes of the DATA frames sent over the encoded envelopes they carried, between two reads of the page: what the
     * link's compression makes of this traffic, frame headers included (just above 1 with compression off).
     */
    @Bean
    @Order(9)
    DashboardChart compressionChart() {
        return DashboardChart.of("WAN compression (DATA frame bytes sent over their messages' bytes)", "after/before",
                Series.ratio("after over before", MetricNames.WAN_BYTES,
                        Series.rate("", MetricNames.WAN_PAYLOAD_BYTES).where(MetricNames.TAG_DIRECTION, "sent"))
                        .where(MetricNames.TAG_DIRECTION, "sent").where(MetricNames.TAG_KIND, "data"));
    }

    @Bean
    @Order(10)
    DashboardChart flashLatencyChart() {
        return DashboardChart.of("FLASH delivery latency (origin to this site's nodes)", "ms",
                Series.percentile("p50", MetricNames.WAN_DELIVERY_LATENCY, 0.5)
                        .where(MetricNames.TAG_PRECEDENCE, Precedence.FLASH.label()),
                Series.percentile("p99", MetricNames.WAN_DELIVERY_LATENCY, 0.99)
                        .where(MetricNames.TAG_PRECEDENCE, Precedence.FLASH.label()));
    }
}
