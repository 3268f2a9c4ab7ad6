package kr.c4i.gateway.wan.store;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import org.jspecify.annotations.Nullable;

/**
 * The store's duplicate check: which copies, by route and message, the table holds, and which an {@code accept} call
 * under way is storing. It answers as a unique index on {@code (route, message_id)} would, without the second B-tree
 * insert and delete that such an index cost every copy (the relay's PostgreSQL CPU per message fell from 43-55 us to
 * 32-36 us without it; docs/benchmarks.md). A copy is held from its claim until its row is deleted, removed copies that wait for their
 * delete included, so a copy offered again at any moment in between is absorbed. Only one gateway process writes a
 * store, so memory is the whole truth once the table's rows are loaded at start.
 * <p>
 * Not thread-safe: the store calls it under its capacity monitor, so that a look and the claim that follows are one
 * step.
 */
final class HeldCopies {

    /**
     * An {@code accept} call storing copies. Another call offering one of them waits until the claim is settled (its
     * transaction committed or failed), then looks again: absorbed if it was stored, stored itself if not.
     */
    static final class Claim {

        private final CompletableFuture<Void> settled = new CompletableFuture<>();

        void settle() {
            settled.complete(null);
        }

        /** Returns once settled; an interrupt does not end the wait (a transaction is as short as its database). */
        void await() {
            settled.join();
        }
    }

    private final Map<RouteMessage, Long> stored = new HashMap<>();
    private final Map<RouteMessage, Claim> claimed = new HashMap<>();

    /** Whether the table holds this copy (stored, or removed and not yet deleted). */
    boolean holds(RouteMessage copy) {
        return stored.containsKey(copy);
    }

    /** The claim of the call storing this copy now, or {@code null}. */
    @Nullable Claim claimOf(RouteMessage copy) {
        return claimed.get(copy);
    }

    /** The copy is being stored by {@code claim}'s call: others offering it wait (it is neither held nor claimed). */
    void claim(RouteMessage copy, Claim claim) {
        claimed.put(copy, claim);
    }

    /** The claimed copy's row is committed with this id. */
    void stored(RouteMessage copy, long id) {
        stored.put(copy, id);
        claimed.remove(copy);
    }

    /** The claimed copy was not stored (its transaction failed). */
    void unclaim(RouteMessage copy, Claim claim) {
        claimed.remove(copy, claim);
    }

    /** A row read from the table at start; a second row for the same copy (there should be none) is not held. */
    void loaded(RouteMessage copy, long id) {
        stored.putIfAbsent(copy, id);
    }

    /** The copy's row with this id is deleted from the table. */
    void deleted(RouteMessage copy, long id) {
        stored.remove(copy, id);
    }

    /** Copies held: rows in the table. */
    int size() {
        return stored.size();
    }
}
