package kr.c4i.gateway.wan.schedule;

import java.time.Duration;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * How much one peer's sender may hand to the WAN link, and when: a token bucket at the WAN budget (bits per
 * second) with a burst of about one frame, and an in-flight cap, the credit: bytes sent but not yet receipted by the
 * peer stay under {@code window} of link time, plus the link time of the round trip to the peer where the link
 * measures one ({@link #roundTrip}): a receipt cannot come sooner, and without it a satellite hop's half-second
 * round trip held the link to a fraction of its rate. The backlog so stays in the store, where FLASH can overtake it,
 * and never builds up in a transport window, socket or shaper.
 *
 * <p>One sender thread per peer drives it: {@link #available()}, send, {@link #sent}; when nothing may go it parks
 * in {@link #awaitAvailable} for exactly the time the bucket needs, or until a receipt frees credit. The link's
 * receiving thread calls {@link #receipted} and {@link #lost}. Thread-safe.
 */
public final class LinkPacer {

    /** {@link #nanosUntilAvailable()} when only a receipt (or a loss) can free credit: time alone will not. */
    public static final long UNTIL_RECEIPT = Long.MAX_VALUE;

    /** The longest round trip the credit grows by: a geostationary hop's is about 0.6 s, queues included a few. */
    static final Duration MAX_ROUND_TRIP = Duration.ofSeconds(5);

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition creditFreed = this.lock.newCondition();
    private final TokenBucket bits;
    private final long baseWindowBytes;
    private long windowBytes;
    private final long budgetBitsPerSecond;
    private final long burstBytes;
    private long inFlight;

    /**
     * @param budgetBitsPerSecond the WAN budget for this peer, bits per second
     * @param burstBytes how far the sender may run ahead of the rate after an idle spell: about one frame
     * @param window the in-flight cap as link time at the budget (1 s: at most one second of link time is sent and
     *        not yet receipted)
     */
    public LinkPacer(long budgetBitsPerSecond, int burstBytes, Duration window, NanoClock clock) {
        if (budgetBitsPerSecond < 8 || burstBytes < 1 || window.isNegative() || window.isZero()) {
            throw new IllegalArgumentException("A link pacer needs a budget of at least 8 bit/s, a positive burst "
                    + "and a positive window, got " + budgetBitsPerSecond + " bit/s, " + burstBytes + " bytes, "
                    + window);
        }
        this.budgetBitsPerSecond = budgetBitsPerSecond;
        this.burstBytes = burstBytes;
        this.bits = new TokenBucket(budgetBitsPerSecond, Duration.ofSeconds(1), 8L * burstBytes, clock);
        this.baseWindowBytes = Math.max(1, linkBytes(window));
        this.windowBytes = this.baseWindowBytes;
    }

    /**
     * The round trip to the peer as the link measures it now: the credit is {@code window} plus this much link time
     * (at most {@link #MAX_ROUND_TRIP}). Zero, as for a link that measures none, leaves {@code window} alone.
     */
    public void roundTrip(Duration roundTrip) {
        long extra = roundTrip.isNegative() ? 0 : linkBytes(roundTrip.compareTo(MAX_ROUND_TRIP) > 0 ? MAX_ROUND_TRIP
                : roundTrip);
        this.lock.lock();
        try {
            this.windowBytes = this.baseWindowBytes + extra;
        }
        finally {
            this.lock.unlock();
        }
    }

    private long linkBytes(Duration time) {
        return Math.multiplyExact(this.budgetBitsPerSecond, time.toNanos()) / 8_000_000_000L;
    }

    /** Bytes that may go now: within both the rate and the credit; 0 if either is used up. */
    public long available() {
        this.lock.lock();
        try {
            return Math.max(0, Math.min(this.bits.available() / 8, this.windowBytes - this.inFlight));
        }
        finally {
            this.lock.unlock();
        }
    }

    /**
     * How long until at least one byte may go: 0 if one may now, the bucket's exact wait if only the rate holds it
     * back, {@link #UNTIL_RECEIPT} if the credit is used up.
     */
    public long nanosUntilAvailable() {
        this.lock.lock();
        try {
            return (this.inFlight >= this.windowBytes) ? UNTIL_RECEIPT : this.bits.nanosUntil(8);
        }
        finally {
            this.lock.unlock();
        }
    }

    /**
     * How long until {@code bytes} (at most the burst) may go at the rate, the credit left aside: 0 if they may now.
     * A sender with more waiting than it may send now waits this long, so that it sends a whole frame rather than
     * the sliver the bucket just refilled.
     */
    public long nanosUntilRate(long bytes) {
        this.lock.lock();
        try {
            return this.bits.nanosUntil(8 * Math.min(bytes, this.burstBytes));
        }
        finally {
            this.lock.unlock();
        }
    }

    /**
     * Parks the calling sender until a byte may go, for at most {@code maxWait}: for the bucket's exact wait, or
     * until {@link #receipted}, {@link #lost} or {@link #wakeUp} frees it. Waits in real time, so it is meant for
     * the system clock; with a test clock, drive {@link #nanosUntilAvailable()} instead.
     *
     * @return whether a byte may go now
     */
    public boolean awaitAvailable(Duration maxWait) throws InterruptedException {
        long deadline = System.nanoTime() + maxWait.toNanos();
        this.lock.lock();
        try {
            while (true) {
                long wait = nanosUntilAvailable();
                if (wait == 0) {
                    return true;
                }
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return false;
                }
                this.creditFreed.awaitNanos(Math.min(wait, left));
            }
        }
        finally {
            this.lock.unlock();
        }
    }

    /** Wakes a sender parked in {@link #awaitAvailable} to look again (it is stopping, or the link came up). */
    public void wakeUp() {
        this.lock.lock();
        try {
            this.creditFreed.signalAll();
        }
        finally {
            this.lock.unlock();
        }
    }

    /** A frame of this many bytes went to the link: pays for it at the rate and counts it in flight. */
    public void sent(long bytes) {
        this.lock.lock();
        try {
            this.bits.take(Math.multiplyExact(bytes, 8));
            this.inFlight += bytes;
        }
        finally {
            this.lock.unlock();
        }
    }

    /** The peer receipted this many bytes of what was sent: they no longer count against the credit. */
    public void receipted(long bytes) {
        release(bytes);
    }

    /** This many bytes were sent and are given up (no receipt in time, link down); their copies go back. */
    public void lost(long bytes) {
        release(bytes);
    }

    /** Bytes sent and neither receipted nor lost. */
    public long inFlight() {
        this.lock.lock();
        try {
            return this.inFlight;
        }
        finally {
            this.lock.unlock();
        }
    }

    /** The in-flight cap in bytes, the round trip's share included. */
    public long windowBytes() {
        this.lock.lock();
        try {
            return this.windowBytes;
        }
        finally {
            this.lock.unlock();
        }
    }

    public long budgetBitsPerSecond() {
        return this.budgetBitsPerSecond;
    }

    private void release(long bytes) {
        this.lock.lock();
        try {
            // A receipt for frames sent before a restart may report more than this pacer counted.
            this.inFlight = Math.max(0, this.inFlight - bytes);
            this.creditFreed.signalAll();
        }
        finally {
            this.lock.unlock();
        }
    }
}
