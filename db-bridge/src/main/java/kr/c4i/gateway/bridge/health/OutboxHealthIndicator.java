package kr.c4i.gateway.bridge.health;

import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

import kr.c4i.gateway.bridge.outbox.OutboxPoller;

/**
 * DOWN when publishing is stopped by a bad row (policy {@code fail}); otherwise UP, with the current
 * problem, if any, as a detail: a database or transport outage is retried, not a reason to restart.
 */
public final class OutboxHealthIndicator implements HealthIndicator {

    private final OutboxPoller poller;

    public OutboxHealthIndicator(OutboxPoller poller) {
        this.poller = poller;
    }

    @Override
    public Health health() {
        String problem = poller.problem();
        Health.Builder builder = poller.stoppedByBadRow() ? Health.down() : Health.up();
        return problem == null ? builder.build() : builder.withDetail("problem", problem).build();
    }
}
