package kr.c4i.gateway.dds.internal;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Maps that hold at most a given number of entries and, once a put would exceed it, forget one: what remote peers
 * name (GUIDs, participants) is kept this way, so a flood of new names cannot grow memory. Not thread-safe, as
 * {@link LinkedHashMap}: their owners guard them.
 */
public final class BoundedMaps {

    private BoundedMaps() {
    }

    /**
     * Forgets the entry read or written least recently: {@code get}, {@code getOrDefault}, {@code put},
     * {@code merge} and the like renew an entry ({@link LinkedHashMap}'s access order).
     *
     * @param maxEntries the most entries kept, at least 1
     */
    public static <K, V> Map<K, V> leastRecentlyUsed(int maxEntries) {
        return new Bounded<>(maxEntries, true);
    }

    /**
     * Forgets the entry put first: reading or replacing an entry does not renew it, only removing and putting it
     * again does ({@link LinkedHashMap}'s insertion order).
     *
     * @param maxEntries the most entries kept, at least 1
     */
    public static <K, V> Map<K, V> oldestFirst(int maxEntries) {
        return new Bounded<>(maxEntries, false);
    }

    @SuppressWarnings("serial")
    private static final class Bounded<K, V> extends LinkedHashMap<K, V> {

        private final int maxEntries;

        Bounded(int maxEntries, boolean accessOrder) {
            super(16, 0.75f, accessOrder);
            if (maxEntries < 1) {
                throw new IllegalArgumentException("maxEntries must be at least 1, was " + maxEntries);
            }
            this.maxEntries = maxEntries;
        }

        @Override
        protected boolean removeEldestEntry(Map.Entry<K, V> eldest) {
            return size() > this.maxEntries;
        }
    }
}
