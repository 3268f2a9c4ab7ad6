package kr.c4i.gateway.wan.schedule;

import java.util.List;

/**
 * What the scheduler took from a backlog in one call: copies to send, in order, and copies it found expired on the
 * way (taken too, for the engine to delete from the store and count as {@code expired}).
 *
 * @param copies the copies to send, in the order chosen; empty if nothing may go
 * @param expired the copies dropped because they expired while waiting
 */
public record Batch(List<Waiting> copies, List<Waiting> expired) {

    public static final Batch EMPTY = new Batch(List.of(), List.of());

    public Batch {
        copies = List.copyOf(copies);
        expired = List.copyOf(expired);
    }

    /** The bytes of the copies to send. */
    public long bytes() {
        return this.copies.stream().mapToLong(Waiting::bytes).sum();
    }

    public boolean isEmpty() {
        return this.copies.isEmpty() && this.expired.isEmpty();
    }
}
