package kr.c4i.gateway.bridge.health;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.springframework.boot.Banner;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.health.actuate.endpoint.SimpleHttpCodeStatusMapper;
import org.springframework.boot.health.actuate.endpoint.SimpleStatusAggregator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Configuration;

/**
 * The bridge's environment (its application.yaml over service-support's management defaults) ranks the outbox's
 * DEGRADED between DOWN and UP and answers it with 200.
 */
class HealthStatusOrderTest {

    /** No beans: only the environment a bridge starts with. */
    @Configuration(proxyBeanMethods = false)
    static class Nothing {
    }

    @Test
    void degradedRanksBetweenDownAndUpAndIsServedWith200() {
        List<String> order;
        Map<String, Integer> mapping;
        try (ConfigurableApplicationContext bridge = new SpringApplicationBuilder(Nothing.class)
                .web(WebApplicationType.NONE).bannerMode(Banner.Mode.OFF).run()) {
            Binder binder = Binder.get(bridge.getEnvironment());
            order = Arrays.stream(binder.bind("management.endpoint.health.status.order", String.class).get()
                    .split(",")).map(String::strip).toList();
            mapping = binder.bind("management.endpoint.health.status.http-mapping",
                    Bindable.mapOf(String.class, Integer.class)).orElse(Map.of());
        }

        SimpleStatusAggregator aggregator = new SimpleStatusAggregator(order);
        assertThat(aggregator.getAggregateStatus(Status.UP, OutboxHealthIndicator.DEGRADED))
                .isEqualTo(OutboxHealthIndicator.DEGRADED);
        assertThat(aggregator.getAggregateStatus(Status.DOWN, OutboxHealthIndicator.DEGRADED)).isEqualTo(Status.DOWN);
        assertThat(aggregator.getAggregateStatus(Status.OUT_OF_SERVICE, OutboxHealthIndicator.DEGRADED))
                .isEqualTo(Status.OUT_OF_SERVICE);
        SimpleHttpCodeStatusMapper http = new SimpleHttpCodeStatusMapper(mapping);
        assertThat(http.getStatusCode(OutboxHealthIndicator.DEGRADED)).isEqualTo(200);
        assertThat(http.getStatusCode(Status.DOWN)).isEqualTo(503);
    }
}
