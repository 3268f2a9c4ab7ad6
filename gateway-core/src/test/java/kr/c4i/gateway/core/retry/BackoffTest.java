package kr.c4i.gateway.core.retry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

class BackoffTest {

    private static List<Long> waits(Backoff backoff, int count) {
        List<Long> waits = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            waits.add(backoff.next().toMillis());
        }
        return waits;
    }

    @Test
    void doublesFromTheInitialWaitUpToTheMaximum() {
        Backoff backoff = new Backoff(Duration.ofMillis(100), Duration.ofSeconds(1));

        assertThat(waits(backoff, 7)).containsExactly(100L, 200L, 400L, 800L, 1000L, 1000L, 1000L);
    }

    @Test
    void currentIsTheWaitNextReturns() {
        Backoff backoff = new Backoff(Duration.ofMillis(100), Duration.ofSeconds(1));
        backoff.next();

        assertThat(backoff.current()).isEqualTo(Duration.ofMillis(200));
        assertThat(backoff.next()).isEqualTo(Duration.ofMillis(200));
    }

    @Test
    void resetStartsAgainFromTheInitialWait() {
        Backoff backoff = new Backoff(Duration.ofMillis(100), Duration.ofSeconds(1));
        waits(backoff, 5);
        backoff.reset();

        assertThat(waits(backoff, 2)).containsExactly(100L, 200L);
    }

    @Test
    void growsByTheGivenMultiplier() {
        Backoff backoff = new Backoff(Duration.ofMillis(100), Duration.ofSeconds(1), 1.5);

        assertThat(waits(backoff, 7)).containsExactly(100L, 150L, 225L, 337L, 506L, 759L, 1000L);
    }

    @Test
    void anInitialWaitAboveTheMaximumIsWaitedOnceThenTheMaximum() {
        Backoff backoff = new Backoff(Duration.ofSeconds(20), Duration.ofSeconds(10));

        assertThat(waits(backoff, 3)).containsExactly(20_000L, 10_000L, 10_000L);
    }

    @Test
    void aLongMaximumDoesNotOverflow() {
        Backoff backoff = new Backoff(Duration.ofDays(1), Duration.ofDays(365 * 200), 1_000_000);

        assertThat(waits(backoff, 3)).containsExactly(Duration.ofDays(1).toMillis(),
                Duration.ofDays(365 * 200).toMillis(), Duration.ofDays(365 * 200).toMillis());
    }

    @Test
    void refusesWaitsThatAreNotPositiveAndMultipliersBelowOne() {
        assertThatIllegalArgumentException().isThrownBy(() -> new Backoff(Duration.ZERO, Duration.ofSeconds(1)));
        assertThatIllegalArgumentException().isThrownBy(() -> new Backoff(Duration.ofSeconds(1), Duration.ZERO));
        assertThatIllegalArgumentException()
                .isThrownBy(() -> new Backoff(Duration.ofSeconds(1), Duration.ofSeconds(2), 0.5));
        assertThatIllegalArgumentException()
                .isThrownBy(() -> new Backoff(Duration.ofSeconds(1), Duration.ofSeconds(2), Double.NaN));
    }
}
