package kr.c4i.gateway.tools.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class PromQlTest {

    @Test
    void takesMetricsNotFunctionsLabelsOrKeywords() {
        assertThat(PromQl.metricNames("histogram_quantile(0.99, sum by (le, node) (rate("
                + "gateway_delivery_latency_seconds_bucket{node=~\"$node\", transport!=\"x\"}[$__rate_interval])))"))
                .containsExactly("gateway_delivery_latency_seconds_bucket");
        assertThat(PromQl.metricNames("sum without (reason) (increase(gateway_outbox_quarantined_total[15m])) > 0 "
                + "and on (node) gateway_outbox_backlog offset 5m > bool 1e3"))
                .containsExactly("gateway_outbox_quarantined_total", "gateway_outbox_backlog");
        assertThat(PromQl.metricNames("a / ignoring (route) group_left (site) b_total"))
                .containsExactly("a", "b_total");
        assertThat(PromQl.metricNames("label_values(gateway_outbox_backlog, node)"))
                .containsExactly("gateway_outbox_backlog");
    }
}
