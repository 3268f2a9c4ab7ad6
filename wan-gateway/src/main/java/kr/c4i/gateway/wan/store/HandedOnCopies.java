package kr.c4i.gateway.wan.store;

import java.util.LinkedHashMap;
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

    /** A copy of the message was handed on; {@code storedInRow} is its storing's row, 0 when not known (not kept). */
    synchronized void handedOn(String messageId, long storedInRow) {
        if (storedInRow > 0) {
            storedIn.put(messageId, storedInRow);
        }
    }

    /** The storing row of a copy of the message handed on lately; 0 when not known. */
    synchronized long storedIn(String messageId) {
        Long row = storedIn.get(messageId);
        return row == null ? 0 : row;
    }
}
