package kr.c4i.gateway.wan.store;

import java.time.Instant;
import java.util.Collection;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.jspecify.annotations.Nullable;

import kr.c4i.gateway.kmtf.catalogue.Precedence;
import kr.c4i.gateway.wan.schedule.Backlog;
import kr.c4i.gateway.wan.schedule.Waiting;

/**
 * The copies stored for one route, in memory: by precedence, then type, each type in id order (which is arrival
 * order, so a copy put back goes ahead of everything that arrived after it). Every method holds the backlog's
 * monitor for a few map operations, so the scheduler's thread and the store's adding threads can share it.
 */
final class RouteBacklog implements Backlog {

    /** One stored copy; {@code taken} while it is in flight. */
    private static final class Entry {

        final Waiting waiting;
        final @Nullable String supersedeKey;
        boolean taken;

        Entry(Waiting waiting, @Nullable String supersedeKey) {
            this.waiting = waiting;
            this.supersedeKey = supersedeKey;
        }
    }

    private static final class Level {

        // Sorted, so types() is a stable order to rotate over; a type is here only while it has copies waiting.
        final TreeMap<String, TreeMap<Long, Entry>> waitingByType = new TreeMap<>();
        long typesVersion;
        long waitingCount;
        long waitingBytes;
        long storedCount;
        long storedBytes;
        final Map<Long, Entry> taken = new HashMap<>();
    }

    private final Route route;
    private final EnumMap<Precedence, Level> levels = new EnumMap<>(Precedence.class);
    private final Map<Long, Entry> stored = new HashMap<>();
    // The newest waiting copy per supersede key: what a newer report with that key replaces.
    private final Map<String, Entry> waitingByKey = new HashMap<>();

    RouteBacklog(Route route) {
        this.route = route;
        for (Precedence precedence : Precedence.values()) {
            levels.put(precedence, new Level());
        }
    }

    Route route() {
        return route;
    }

    @Override
    public synchronized List<String> types(Precedence precedence) {
        return List.copyOf(levels.get(precedence).waitingByType.keySet());
    }

    @Override
    public synchronized long typesVersion(Precedence precedence) {
        return levels.get(precedence).typesVersion;
    }

    @Override
    public synchronized @Nullable Waiting peek(Precedence precedence, String kmtfType) {
        TreeMap<Long, Entry> queue = levels.get(precedence).waitingByType.get(kmtfType);
        return queue == null ? null : queue.firstEntry().getValue().waiting;
    }

    /**
     * A copy that is no longer stored (superseded or removed since {@link #peek}) is gone: taking it does nothing,
     * and {@link RelayStore#load} does not return it.
     *
     * @throws IllegalStateException if the copy is taken already
     */
    @Override
    public synchronized void take(Waiting copy) {
        Entry entry = stored.get(copy.id());
        if (entry == null) {
            return;
        }
        if (entry.taken) {
            throw new IllegalStateException("Copy " + copy.id() + " for route " + route + " is taken already");
        }
        dequeue(entry);
        entry.taken = true;
        levels.get(copy.precedence()).taken.put(copy.id(), entry);
    }

    /** Copies no longer stored (removed or superseded meanwhile) and copies already waiting are left as they are. */
    @Override
    public synchronized void putBack(Collection<Waiting> copies) {
        for (Waiting copy : copies) {
            Entry entry = stored.get(copy.id());
            if (entry != null && entry.taken) {
                entry.taken = false;
                levels.get(copy.precedence()).taken.remove(copy.id());
                enqueue(entry);
            }
        }
    }

    @Override
    public synchronized long waitingCount(Precedence precedence) {
        return levels.get(precedence).waitingCount;
    }

    @Override
    public synchronized long waitingBytes(Precedence precedence) {
        return levels.get(precedence).waitingBytes;
    }

    /** Adds a copy just stored, as waiting; a copy already here is left alone. */
    synchronized boolean add(Waiting copy, @Nullable String supersedeKey) {
        if (stored.containsKey(copy.id())) {
            return false;
        }
        Entry entry = new Entry(copy, supersedeKey);
        stored.put(copy.id(), entry);
        Level level = levels.get(copy.precedence());
        level.storedCount++;
        level.storedBytes += copy.bytes();
        enqueue(entry);
        return true;
    }

    /** Forgets a copy deleted from the table, waiting or taken; {@code null} if it was not here. */
    synchronized @Nullable Waiting forget(long id) {
        Entry entry = stored.remove(id);
        if (entry == null) {
            return null;
        }
        Level level = levels.get(entry.waiting.precedence());
        if (entry.taken) {
            level.taken.remove(id);
        }
        else {
            dequeue(entry);
        }
        level.storedCount--;
        level.storedBytes -= entry.waiting.bytes();
        return entry.waiting;
    }

    /** The newest waiting copy with this supersede key, or {@code null}. */
    synchronized @Nullable Waiting waitingWithKey(String supersedeKey) {
        Entry entry = waitingByKey.get(supersedeKey);
        return entry == null ? null : entry.waiting;
    }

    /** Copies, bytes and the oldest stored time per precedence, waiting and taken together. */
    synchronized Map<Precedence, StoreStats.Level> stats() {
        Map<Precedence, StoreStats.Level> stats = new EnumMap<>(Precedence.class);
        levels.forEach((precedence, level) -> {
            Instant oldest = null;
            for (TreeMap<Long, Entry> queue : level.waitingByType.values()) {
                oldest = earlier(oldest, queue.firstEntry().getValue().waiting.storedAt());
            }
            for (Entry entry : level.taken.values()) {
                oldest = earlier(oldest, entry.waiting.storedAt());
            }
            stats.put(precedence, new StoreStats.Level(level.storedCount, level.storedBytes, oldest));
        });
        return stats;
    }

    private void enqueue(Entry entry) {
        Waiting copy = entry.waiting;
        Level level = levels.get(copy.precedence());
        level.waitingByType.computeIfAbsent(copy.kmtfType(), t -> {
            level.typesVersion++;
            return new TreeMap<>();
        }).put(copy.id(), entry);
        level.waitingCount++;
        level.waitingBytes += copy.bytes();
        if (entry.supersedeKey != null) {
            waitingByKey.merge(entry.supersedeKey, entry,
                    (old, now) -> old.waiting.createdAt().isAfter(now.waiting.createdAt()) ? old : now);
        }
    }

    private void dequeue(Entry entry) {
        Waiting copy = entry.waiting;
        Level level = levels.get(copy.precedence());
        TreeMap<Long, Entry> queue = level.waitingByType.get(copy.kmtfType());
        queue.remove(copy.id());
        if (queue.isEmpty()) {
            level.waitingByType.remove(copy.kmtfType());
        }
        level.waitingCount--;
        level.waitingBytes -= copy.bytes();
        if (entry.supersedeKey != null) {
            waitingByKey.remove(entry.supersedeKey, entry);
        }
    }

    private static @Nullable Instant earlier(@Nullable Instant a, Instant b) {
        return a == null || b.isBefore(a) ? b : a;
    }
}
