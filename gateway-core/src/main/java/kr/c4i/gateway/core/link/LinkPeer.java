package kr.c4i.gateway.core.link;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

import org.jspecify.annotations.Nullable;

import kr.c4i.gateway.core.transport.TransportUnavailableException;

/**
 * One peer site as a {@link WanLink} keeps it: its state, the frames handed over to it that it has not acknowledged
 * yet ("acknowledged up to" a counter), and its counters. What tells a link that the peer is up or gone differs per
 * link; the bookkeeping does not. Thread-safe: a link that needs several steps at once holds this object's monitor.
 */
public final class LinkPeer {

    private final SiteId site;
    private final LongAdder framesSent = new LongAdder();
    private final LongAdder bytesSent = new LongAdder();
    private final LongAdder framesReceived = new LongAdder();
    private final LongAdder bytesReceived = new LongAdder();
    private final LongAdder framesLost = new LongAdder();
    private final LongAdder sendRefusals = new LongAdder();
    private final LongAdder handlerFailures = new LongAdder();
    private volatile LinkState state = LinkState.CONNECTING;
    private volatile long unacknowledged;
    // Guarded by this.
    private long counter;
    private long acknowledgedUpTo;
    /** Counter and size of each frame handed over and not acknowledged, oldest first. */
    private final ArrayDeque<long[]> pending = new ArrayDeque<>();
    private long lastProgressNanos = System.nanoTime();
    /** Set when a timeout put the peer DOWN: the link decides what brings it back. */
    private boolean stalled;

    public LinkPeer(SiteId site) {
        this.site = site;
    }

    public SiteId site() {
        return this.site;
    }

    public LinkState state() {
        return this.state;
    }

    public long unacknowledgedBytes() {
        return this.unacknowledged;
    }

    /** The counter the next frame handed over gets. */
    public synchronized long nextCounter() {
        return this.counter + 1;
    }

    /** Counts a send refused, and returns the exception saying why. */
    public TransportUnavailableException refused(String why, @Nullable Throwable cause) {
        this.sendRefusals.increment();
        return new TransportUnavailableException(why, cause);
    }

    /**
     * Throws, counting the refusal, unless the peer is UP: frames wait above the link while it is not.
     *
     * @param kind the link's name, for the message
     */
    public void requireUp(String kind) throws TransportUnavailableException {
        if (this.state != LinkState.UP) {
            throw refused("Peer site " + this.site + " of the " + kind + " WAN link is " + this.state.label(), null);
        }
    }

    /** Notes a frame of {@code bytes} handed over as {@link #nextCounter()}; returns that counter. */
    public synchronized long sent(int bytes) {
        long sent = ++this.counter;
        if (this.pending.isEmpty()) {
            this.lastProgressNanos = System.nanoTime();
        }
        this.pending.addLast(new long[] {sent, bytes});
        this.unacknowledged += bytes;
        this.framesSent.increment();
        this.bytesSent.add(bytes);
        return sent;
    }

    /**
     * The peer has every frame up to counter {@code upTo}: they are released. Returns whether that is progress (more
     * than acknowledged before); progress ends a stall.
     */
    public synchronized boolean acknowledged(long upTo) {
        while (!this.pending.isEmpty() && this.pending.peekFirst()[0] <= upTo) {
            this.unacknowledged -= this.pending.removeFirst()[1];
        }
        if (upTo <= this.acknowledgedUpTo) {
            return false;
        }
        this.acknowledgedUpTo = upTo;
        this.lastProgressNanos = System.nanoTime();
        this.stalled = false;
        return true;
    }

    /** Whether the peer is UP with frames that stayed unacknowledged longer than {@code timeout} at {@code now}. */
    public synchronized boolean overdue(long nowNanos, Duration timeout) {
        return this.state == LinkState.UP && !this.pending.isEmpty()
                && nowNanos - this.lastProgressNanos > timeout.toNanos();
    }

    /**
     * The peer is lost: the frames not acknowledged count as lost and its unacknowledged bytes drop to zero, so the
     * gateway resends their messages. Returns how many frames, for the link's log.
     *
     * @param stalled whether a timeout put it down (see {@link #stalled()})
     */
    public synchronized int down(boolean stalled) {
        int lost = this.pending.size();
        this.framesLost.add(lost);
        this.pending.clear();
        this.unacknowledged = 0;
        this.stalled = stalled;
        this.state = LinkState.DOWN;
        return lost;
    }

    /** The peer is reachable again (or for the first time). */
    public synchronized void up() {
        this.stalled = false;
        this.lastProgressNanos = System.nanoTime();
        this.state = LinkState.UP;
    }

    public synchronized boolean stalled() {
        return this.stalled;
    }

    public synchronized void clearStall() {
        this.stalled = false;
    }

    public synchronized int unacknowledgedFrames() {
        return this.pending.size();
    }

    /** Notes a frame received from the peer. */
    public void received(int bytes) {
        this.framesReceived.increment();
        this.bytesReceived.add(bytes);
    }

    /** Notes a frame from the peer that the link's handler threw on. */
    public void handlerFailed() {
        this.handlerFailures.increment();
    }

    /** The state and counters, as a link's {@link WanLink#details()} shows them per peer. */
    public synchronized Map<String, Object> details() {
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("state", this.state.label());
        details.put("framesSent", this.framesSent.sum());
        details.put("bytesSent", this.bytesSent.sum());
        details.put("framesReceived", this.framesReceived.sum());
        details.put("bytesReceived", this.bytesReceived.sum());
        details.put("unacknowledgedBytes", this.unacknowledged);
        details.put("unacknowledgedFrames", this.pending.size());
        details.put("framesLost", this.framesLost.sum());
        details.put("sendRefusals", this.sendRefusals.sum());
        details.put("handlerFailures", this.handlerFailures.sum());
        return details;
    }
}
