package kr.c4i.gateway.tools.wanbench;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

import org.HdrHistogram.Histogram;

import kr.c4i.gateway.core.Envelope;
import kr.c4i.gateway.core.transport.InboundHandler;
import kr.c4i.gateway.kmtf.catalogue.Precedence;

/**
 * Node c's inbox handler: takes the time each message arrives, once per message id and phase (a relay may deliver
 * again), and counts it towards the phase under way, whose message ids start with the phase's prefix.
 */
final class Inbox implements InboundHandler {

    /** What one phase received: counts and latencies (creation at node a to arrival here), in microseconds. */
    static final class Phase {

        private final String prefix;
        private final Histogram all = new Histogram(3_600_000_000L, 3);
        private final Histogram flash = new Histogram(3_600_000_000L, 3);
        private long arrived;
        private long flashArrived;
        private long lastArrivalNanos;

        Phase(String prefix) {
            this.prefix = prefix;
        }

        private synchronized void record(Envelope envelope, Instant now, long nanos) {
            long micros = Math.max(0, Duration.between(envelope.createdAt(), now).toNanos() / 1000);
            all.recordValue(Math.min(micros, all.getHighestTrackableValue()));
            arrived++;
            if (envelope.precedence() == Precedence.FLASH) {
                flash.recordValue(Math.min(micros, flash.getHighestTrackableValue()));
                flashArrived++;
            }
            lastArrivalNanos = nanos;
        }

        synchronized long arrived() {
            return arrived;
        }

        synchronized long flashArrived() {
            return flashArrived;
        }

        /** {@link System#nanoTime} of the latest arrival; 0 before the first. */
        synchronized long lastArrivalNanos() {
            return lastArrivalNanos;
        }

        synchronized Histogram latencies() {
            return all.copy();
        }

        synchronized Histogram flashLatencies() {
            return flash.copy();
        }
    }

    private final Set<String> seen = ConcurrentHashMap.newKeySet();
    private final AtomicLong arrived = new AtomicLong();
    private volatile Phase phase = new Phase("\0");

    /**
     * Starts counting the messages whose ids start with {@code prefix}; earlier phases' stragglers are ignored. The
     * ids seen so far are forgotten: a million of them kept the JVM's live set large enough to lengthen every
     * collection pause of the phases after them.
     */
    Phase begin(String prefix) {
        Phase next = new Phase(prefix);
        phase = next;
        seen.clear();
        return next;
    }

    /** Messages that arrived, every phase, once each within the phase under way when they arrived. */
    long arrived() {
        return arrived.get();
    }

    @Override
    public void deliver(List<Envelope> batch) {
        Instant now = Instant.now();
        long nanos = System.nanoTime();
        Phase current = phase;
        for (Envelope envelope : batch) {
            if (seen.add(envelope.messageId())) {
                arrived.incrementAndGet();
                if (envelope.messageId().startsWith(current.prefix)) {
                    current.record(envelope, now, nanos);
                }
            }
        }
    }
}
