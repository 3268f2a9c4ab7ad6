package kr.c4i.gateway.core.retry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;

import org.junit.jupiter.api.Test;

/** A loop's pause: cut short by a wake from another thread, or one that came before; ended by an interrupt. */
class PauseTest {

    private static final Duration LONG = Duration.ofMinutes(10);
    private static final Duration BOUND = Duration.ofSeconds(30);

    @Test
    void aWakeFromAnotherThreadEndsTheWaitAndOneBeforeItIsNotLost() {
        Pause pause = new Pause();
        assertTimeoutPreemptively(BOUND, () -> {
            pause.wake();
            assertThat(pause.await(LONG)).isTrue();

            CountDownLatch waiting = new CountDownLatch(1);
            CompletableFuture<Boolean> waited = CompletableFuture.supplyAsync(() -> {
                waiting.countDown();
                return pause.await(LONG);
            });
            waiting.await();
            // Woken whether the wait has begun or not: either way it ends.
            pause.wake();
            assertThat(waited.get()).isTrue();
        });
    }

    @Test
    void aWaitOfNothingOrOfAnInterruptedThreadReturnsAtOnceAndSaysWhichItWas() {
        Pause pause = new Pause();
        assertTimeoutPreemptively(BOUND, () -> {
            assertThat(pause.await(Duration.ZERO)).isTrue();
            Thread.currentThread().interrupt();
            assertThat(pause.await(LONG)).isFalse();
            assertThat(Thread.interrupted()).isTrue();
        });
    }
}
