package kr.c4i.gateway.bridge.health;

import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

import kr.c4i.gateway.core.transport.Transport;
import kr.c4i.gateway.core.transport.TransportHealth;

/** Reports the transport's own view (broker connection, bridges, participant) under {@code transport}. */
public final class TransportHealthIndicator implements HealthIndicator {

    private final Transport transport;

    public TransportHealthIndicator(Transport transport) {
        this.transport = transport;
    }

    @Override
    public Health health() {
        TransportHealth health = transport.health();
        return (health.up() ? Health.up() : Health.down()).withDetail("kind", transport.kind().label())
                .withDetails(health.details()).build();
    }
}
