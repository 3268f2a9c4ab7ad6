package kr.c4i.gateway.wan.health;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

import org.junit.jupiter.api.Test;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;

import kr.c4i.gateway.core.transport.TransportHealth;

class WanHealthTest {

    private static final HealthIndicator RELAYING = () -> Health.up().withDetail("kind", "jms").build();

    @Test
    void aLeaderShowsItsSideAsItRelays() {
        HealthIndicator indicator = WanHealth.whileLeading(RELAYING, () -> true,
                () -> TransportHealth.down(Map.of("pairSynchronized", false)));

        assertThat(indicator.health()).isEqualTo(RELAYING.health());
    }

    @Test
    void aStandbyWhoseBackupHoldsTheLeadersJournalIsUpAndSaysSo() {
        HealthIndicator indicator = WanHealth.whileLeading(RELAYING, () -> false,
                () -> TransportHealth.up(Map.of("pairRole", "backup", "pairSynchronized", true)));

        Health health = indicator.health();

        assertThat(health.getStatus()).isEqualTo(Status.UP);
        assertThat(health.getDetails()).containsEntry("role", "standby").containsEntry("pairRole", "backup")
                .containsEntry("pairSynchronized", true).doesNotContainKey("kind");
    }

    @Test
    void aStandbyWhoseBackupIsNotYetSynchronizedIsDegradedUntilItIs() {
        AtomicBoolean synchronizedNow = new AtomicBoolean();
        HealthIndicator indicator = WanHealth.whileLeading(RELAYING, () -> false,
                () -> new TransportHealth(synchronizedNow.get(), Map.of("pairSynchronized", synchronizedNow.get())));

        assertThat(indicator.health().getStatus()).isEqualTo(WanHealth.DEGRADED);
        assertThat(indicator.health().getDetails()).containsEntry("pairSynchronized", false);
        synchronizedNow.set(true);
        assertThat(indicator.health().getStatus()).isEqualTo(Status.UP);
    }

    @Test
    void aStandbyWithNothingToHoldIsUp() {
        HealthIndicator indicator = WanHealth.whileLeading(RELAYING, () -> false, () -> TransportHealth.up(Map.of()));

        assertThat(indicator.health()).isEqualTo(Health.up().withDetail("role", "standby").build());
    }
}
