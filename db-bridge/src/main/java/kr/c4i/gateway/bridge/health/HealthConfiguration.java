package kr.c4i.gateway.bridge.health;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import kr.c4i.gateway.bridge.outbox.OutboxPoller;
import kr.c4i.gateway.core.transport.Transport;

/** Health beside Boot's own {@code db} indicator: {@code transport} and {@code outbox}. */
@Configuration(proxyBeanMethods = false)
class HealthConfiguration {

    @Bean
    TransportHealthIndicator transportHealthIndicator(Transport transport) {
        return new TransportHealthIndicator(transport);
    }

    @Bean
    OutboxHealthIndicator outboxHealthIndicator(OutboxPoller poller) {
        return new OutboxHealthIndicator(poller);
    }
}
