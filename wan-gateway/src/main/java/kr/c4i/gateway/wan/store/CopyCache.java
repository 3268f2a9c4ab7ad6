package kr.c4i.gateway.wan.store;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

import org.jspecify.annotations.Nullable;

import kr.c4i.gateway.core.Envelope;
import kr.c4i.gateway.core.HopTrace;
import kr.c4i.gateway.wan.relay.RelayedEnvelope;

/**
 * The stored copies' envelopes in memory beside the table, so that sending and delivering them reads no rows: a
 * copy is kept from its insert's commit until it is deleted. Bounded by the copies' bytes (as the store counts
 * them): a copy that would pass the bound is not kept and is read from the table when it is needed, as are the
 * copies a restarted gateway finds in the table.
 */
final class CopyCache {

    private record Entry(RelayedEnvelope relayed, int bytes) {
    }

    private final long maxBytes;
    private final ConcurrentHashMap<Long, Entry> entries = new ConcurrentHashMap<>();
    private final AtomicLong bytes = new AtomicLong();

    CopyCache(long maxBytes) {
        if (maxBytes < 0) {
            throw new IllegalArgumentException("The copy cache's bound must not be negative, was " + maxBytes);
        }
        this.maxBytes = maxBytes;
    }

    /** Keeps a committed copy, unless the bound is reached; as the table would give it back (microseconds). */
    void put(long id, RelayedEnvelope relayed, int size) {
        if (bytes.addAndGet(size) > maxBytes) {
            bytes.addAndGet(-size);
            return;
        }
        Entry replaced = entries.put(id, new Entry(asStored(relayed), size));
        if (replaced != null) {
            bytes.addAndGet(-replaced.bytes());
        }
    }

    @Nullable RelayedEnvelope get(long id) {
        Entry entry = entries.get(id);
        return entry == null ? null : entry.relayed();
    }

    void remove(long id) {
        Entry entry = entries.remove(id);
        if (entry != null) {
            bytes.addAndGet(-entry.bytes());
        }
    }

    /** Copies kept now. */
    int size() {
        return entries.size();
    }

    /**
     * The table keeps times to the microsecond; what comes from the cache must not be more exact than a read. A
     * trace's hop times are kept as milliseconds after the creation time: against the cut creation time, as the
     * table gives them (with the creation time whole, the same milliseconds are all any frame or LAN sample carries).
     */
    private static RelayedEnvelope asStored(RelayedEnvelope relayed) {
        Envelope e = relayed.envelope();
        if (e.createdAt().getNano() % 1_000 == 0) {
            return relayed;
        }
        Instant createdAt = e.createdAt().truncatedTo(ChronoUnit.MICROS);
        return new RelayedEnvelope(new Envelope(e.messageId(), e.origin(), e.kmtfType(), e.precedence(),
                e.classification(), createdAt, e.body(), HopTrace.parse(e.traceText(), createdAt), e.traceParent()),
                relayed.crossed(), relayed.boundFor());
    }
}
