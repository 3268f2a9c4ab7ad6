package kr.c4i.gateway.wan.schedule;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class TokenBucketTest {

    private final FakeNanoClock clock = new FakeNanoClock();

    @Test
    void startsFullAndRefillsAtExactlyTheRate() {
        TokenBucket bucket = new TokenBucket(10, Duration.ofSeconds(1), 5, this.clock);
        assertThat(bucket.tryTake(5)).isTrue();
        assertThat(bucket.tryTake(1)).isFalse();
        assertThat(bucket.nanosUntil(1)).isEqualTo(100_000_000L);

        this.clock.advance(99_999_999L);
        assertThat(bucket.tryTake(1)).isFalse();
        this.clock.advance(1);
        assertThat(bucket.tryTake(1)).isTrue();
    }

    @Test
    void holdsNoMoreThanTheBurstAfterAnyIdleSpell() {
        TokenBucket bucket = new TokenBucket(1_000, Duration.ofSeconds(1), 3, this.clock);
        bucket.take(3);
        this.clock.advance(Duration.ofDays(365 * 100));
        assertThat(bucket.available()).isEqualTo(3);
    }

    @Test
    void aDebtIsPaidOffByWaitingBeforeTheNextToken() {
        TokenBucket bucket = new TokenBucket(1, Duration.ofSeconds(5), 1, this.clock);
        bucket.take(3);
        assertThat(bucket.available()).isZero();
        assertThat(bucket.nanosUntil(1)).isEqualTo(Duration.ofSeconds(15).toNanos());
    }

    @Test
    void refusesARateOrBurstBelowOne() {
        assertThatIllegalArgumentException().isThrownBy(() -> new TokenBucket(0, Duration.ofSeconds(1), 1, this.clock));
        assertThatIllegalArgumentException().isThrownBy(() -> new TokenBucket(1, Duration.ZERO, 1, this.clock));
        assertThatIllegalArgumentException().isThrownBy(() -> new TokenBucket(1, Duration.ofSeconds(1), 0, this.clock));
    }
}
