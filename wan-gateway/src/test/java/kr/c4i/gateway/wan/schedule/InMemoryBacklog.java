package kr.c4i.gateway.wan.schedule;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.LinkedList;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import kr.c4i.gateway.kmtf.catalogue.Precedence;

/** A backlog in memory for scheduler tests: per precedence, types in order of first arrival, copies by arrival. */
final class InMemoryBacklog implements Backlog {

    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

    private final Map<Precedence, LinkedHashMap<String, LinkedList<Waiting>>> waiting = new EnumMap<>(
            Precedence.class);
    private final List<Waiting> taken = new ArrayList<>();
    private final Map<Precedence, Long> typesVersions = new EnumMap<>(Precedence.class);
    private long nextId = 1;
    private int typesReads;

    Waiting add(Precedence precedence, String type, int bytes) {
        return add(precedence, type, bytes, T0);
    }

    Waiting add(Precedence precedence, String type, int bytes, Instant createdAt) {
        Waiting copy = new Waiting(this.nextId, "M-" + this.nextId++, precedence, type, bytes, createdAt, createdAt);
        queue(copy).addLast(copy);
        return copy;
    }

    void addMany(Precedence precedence, String type, int bytes, int count) {
        for (int i = 0; i < count; i++) {
            add(precedence, type, bytes);
        }
    }

    /** Every copy taken so far, in the order taken. */
    List<Waiting> taken() {
        return this.taken;
    }

    /** How many times {@link #types} was read. */
    int typesReads() {
        return this.typesReads;
    }

    @Override
    public List<String> types(Precedence precedence) {
        this.typesReads++;
        return this.waiting.getOrDefault(precedence, new LinkedHashMap<>()).entrySet().stream()
            .filter((e) -> !e.getValue().isEmpty()).map(Map.Entry::getKey).toList();
    }

    @Override
    public long typesVersion(Precedence precedence) {
        return this.typesVersions.getOrDefault(precedence, 0L);
    }

    @Override
    public @Nullable Waiting peek(Precedence precedence, String kmtfType) {
        LinkedList<Waiting> copies = this.waiting.getOrDefault(precedence, new LinkedHashMap<>()).get(kmtfType);
        return (copies == null) ? null : copies.peekFirst();
    }

    @Override
    public void take(Waiting copy) {
        if (!queue(copy).remove(copy)) {
            throw new IllegalStateException("taken twice or never waiting: " + copy);
        }
        this.taken.add(copy);
    }

    @Override
    public void putBack(Collection<Waiting> copies) {
        for (Waiting copy : copies) {
            LinkedList<Waiting> queue = queue(copy);
            queue.add(copy);
            queue.sort(Comparator.comparingLong(Waiting::id));
        }
    }

    @Override
    public long waitingCount(Precedence precedence) {
        return this.waiting.getOrDefault(precedence, new LinkedHashMap<>()).values().stream()
            .mapToLong(List::size).sum();
    }

    @Override
    public long waitingBytes(Precedence precedence) {
        return this.waiting.getOrDefault(precedence, new LinkedHashMap<>()).values().stream()
            .flatMap(List::stream).mapToLong(Waiting::bytes).sum();
    }

    private LinkedList<Waiting> queue(Waiting copy) {
        LinkedList<Waiting> queue = this.waiting.computeIfAbsent(copy.precedence(), (p) -> new LinkedHashMap<>())
            .computeIfAbsent(copy.kmtfType(), (t) -> new LinkedList<>());
        if (queue.isEmpty()) {
            // About to receive its first copy, or to lose its last (take): a new version either way is harmless.
            this.typesVersions.merge(copy.precedence(), 1L, Long::sum);
        }
        return queue;
    }
}
