package kr.c4i.gateway.core.retry;

import java.time.Duration;

/**
 * Exponential back-off for one retry loop: the first wait is {@code initial}, each further one
 * {@code multiplier} times the last, never more than {@code max}; {@link #reset()} after a success.
 * Not thread-safe: a retry loop runs on one thread. It only computes the waits; how to wait (a
 * sleep, a latch that stopping opens) is the loop's business.
 */
public final class Backoff {

    private final Duration initial;
    private final Duration max;
    private final double multiplier;
    private Duration current;

    /** Doubling from {@code initial} up to {@code max}. */
    public Backoff(Duration initial, Duration max) {
        this(initial, max, 2);
    }

    public Backoff(Duration initial, Duration max, double multiplier) {
        if (initial.isNegative() || initial.isZero() || max.isNegative() || max.isZero()) {
            throw new IllegalArgumentException("back-off waits must be positive, were " + initial + " and " + max);
        }
        if (!(multiplier >= 1)) {
            throw new IllegalArgumentException("back-off multiplier must be at least 1, was " + multiplier);
        }
        this.initial = initial;
        this.max = max;
        this.multiplier = multiplier;
        this.current = initial;
    }

    /** The wait {@link #next()} will return. */
    public Duration current() {
        return current;
    }

    /** The wait before the next attempt; the one after is longer, up to {@code max}. */
    public Duration next() {
        Duration wait = current;
        // In double, so neither a large multiplier nor a long wait overflows before it is capped.
        double grown = current.toNanos() * multiplier;
        current = grown >= max.toNanos() ? max : Duration.ofNanos((long) grown);
        return wait;
    }

    /** Back to {@code initial}, after an attempt succeeded. */
    public void reset() {
        current = initial;
    }
}
