package kr.c4i.gateway.wan.store;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The custody log rows that recorded the storing of the copies this gateway handed on most recently (the next hop's
 * gateway acknowledged them), by message id: the steps that gateway forwards back with the same messages name those
 * rows instead of putting the ids into the log's index once more ({@link ForwardedCustody#record}). At most
 * {@link #CAPACITY} messages, the oldest forgotten first; forgotten, or never known (a restart, the other gateway of a
 * pair), a forwarded step is found by its ids as before.
 */
final class HandedOnCopies {

    /** Some seconds of a relay at full speed, and 10 MB or so of heap; steps come back within a second or two. */
    static final int CAPACITY = 1 << 16;

    private final int capacity;
    private final Map<String, Long> storedIn;

    HandedOnCopies() {
        this(CAPACITY);
    }

    HandedOnCopies(int capacity) {
        this.capacity = capacity;
        this.storedIn = new LinkedHashMap<>(Math.min(capacity, 1024), 0.75f, false) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, Long> eldest) {
                return size() > HandedOnCopies.this.capacity;
            }
        };
    }

    /**
     * Copies of the messages were handed on; {@code storedInRows[i]} is the row of {@code messageIds[i]}'s storing, 0
     * when not known (not kept). One lock for a removal's batch: per message it was a per cent of the relay's CPU.
     */
    synchronized void handedOn(List<String> messageIds, long[] storedInRows) {
        for (int i = 0; i < messageIds.size(); i++) {
            if (storedInRows[i] > 0) {
                storedIn.put(messageIds.get(i), storedInRows[i]);
            }
        }
    }

    /** The storing rows of copies of the messages handed on lately, in their order; 0 where not known. */
    synchronized long[] storedIn(List<String> messageIds) {
        long[] rows = new long[messageIds.size()];
        for (int i = 0; i < rows.length; i++) {
            Long row = storedIn.get(messageIds.get(i));
            rows[i] = row == null ? 0 : row;
        }
        return rows;
    }
}
