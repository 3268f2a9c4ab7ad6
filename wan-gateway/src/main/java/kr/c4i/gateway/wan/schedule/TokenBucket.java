package kr.c4i.gateway.wan.schedule;

import java.time.Duration;

/**
 * A token bucket in exact integer arithmetic: {@code units} tokens accrue per {@code period}, up to {@code burst}.
 * Tokens are kept in unit-nanoseconds (units × period in ns), so no rounding drifts over any length of run. The
 * balance may go negative ({@link #take}: a frame larger than the tokens left is paid for by waiting longer
 * afterwards), or a caller may only take what is there ({@link #tryTake}). Not thread-safe: callers lock.
 */
public final class TokenBucket {

    private final NanoClock clock;
    private final long units;
    private final long periodNanos;
    private final long capacity;
    private long balance;
    private long lastRefill;

    /**
     * A bucket that starts full.
     *
     * @param units tokens added per period, at least 1
     * @param period the period, at least 1 ns
     * @param burst the most tokens the bucket holds, at least 1
     */
    public TokenBucket(long units, Duration period, long burst, NanoClock clock) {
        if (units < 1 || burst < 1 || period.isNegative() || period.isZero()) {
            throw new IllegalArgumentException("A token bucket needs a positive rate and burst, got " + units
                    + " per " + period + ", burst " + burst);
        }
        this.clock = clock;
        this.units = units;
        this.periodNanos = period.toNanos();
        this.capacity = Math.multiplyExact(burst, this.periodNanos);
        this.balance = this.capacity;
        this.lastRefill = clock.nanoTime();
    }

    /** Whole tokens available now; 0 while the balance is negative. */
    public long available() {
        refill();
        return Math.max(0, this.balance / this.periodNanos);
    }

    /** Takes {@code count} tokens even if fewer are there; the balance goes negative and recovers at the rate. */
    public void take(long count) {
        refill();
        this.balance -= Math.multiplyExact(count, this.periodNanos);
    }

    /** Takes {@code count} tokens if they are all there; otherwise takes nothing. */
    public boolean tryTake(long count) {
        refill();
        long cost = Math.multiplyExact(count, this.periodNanos);
        if (this.balance < cost) {
            return false;
        }
        this.balance -= cost;
        return true;
    }

    /** Nanoseconds until {@code count} tokens are available; 0 if they are now. */
    public long nanosUntil(long count) {
        refill();
        long missing = Math.multiplyExact(count, this.periodNanos) - this.balance;
        return (missing <= 0) ? 0 : Math.ceilDiv(missing, this.units);
    }

    private void refill() {
        long now = this.clock.nanoTime();
        long elapsed = now - this.lastRefill;
        if (elapsed <= 0) {
            return;
        }
        this.lastRefill = now;
        long room = this.capacity - this.balance;
        // Cap the elapsed time before multiplying: after a long idle the bucket is simply full.
        this.balance = (elapsed >= Math.ceilDiv(room, this.units)) ? this.capacity : this.balance + elapsed * this.units;
    }
}
