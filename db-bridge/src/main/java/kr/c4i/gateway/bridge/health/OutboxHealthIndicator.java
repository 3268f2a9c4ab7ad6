package kr.c4i.gateway.bridge.health;

import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;

import kr.c4i.gateway.bridge.outbox.OutboxPoller;
import kr.c4i.gateway.bridge.outbox.OutboxPoller.RetriedRow;

/**
 * DOWN when publishing is stopped by a bad row (policy {@code fail}); {@link #DEGRADED} while a row
 * is stuck, failing and retried until it goes or is quarantined (the other rows flow meanwhile);
 * otherwise UP, with the current problem, if any, as a detail: a database or transport outage is
 * retried, not a reason to restart. The row's outbox id is the {@code row} detail.
 */
public final class OutboxHealthIndicator implements HealthIndicator {

    /**
     * Working, but not everything: HTTP 200 like UP, ranked between DOWN and UP by
     * {@code management.endpoint.health.status.order} in service-support's management defaults.
     */
    public static final Status DEGRADED = new Status("DEGRADED", "a row is failing and being retried");

    private final OutboxPoller poller;

    public OutboxHealthIndicator(OutboxPoller poller) {
        this.poller = poller;
    }

    @Override
    public Health health() {
        String problem = poller.problem();
        Health.Builder builder;
        RetriedRow retried = poller.retriedRow();
        if (poller.stoppedByBadRow()) {
            builder = Health.down().withDetail("row", poller.badRow());
        }
        else if (retried != null) {
            builder = Health.status(DEGRADED).withDetail("row", retried.outboxId())
                    .withDetail("attempts", retried.attempts() + " of " + retried.maxAttempts())
                    .withDetail("lastFailure", retried.lastFailure());
        }
        else if (poller.failingUnexpectedly()) {
            builder = Health.status(DEGRADED);
        }
        else {
            builder = Health.up();
        }
        return problem == null ? builder.build() : builder.withDetail("problem", problem).build();
    }
}
