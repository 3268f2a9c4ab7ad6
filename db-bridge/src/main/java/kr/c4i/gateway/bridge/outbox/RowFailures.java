package kr.c4i.gateway.bridge.outbox;

import java.util.Collection;
import java.util.Map;
import java.util.concurrent.ConcurrentSkipListMap;

import org.jspecify.annotations.Nullable;

/**
 * How many times in a row each outbox row has failed in a way that is not an outage: an exception from
 * the transport for that message alone, or an unexpected one while building its envelope. Kept in memory:
 * a restart gives every row its attempts again, which costs at most {@code maxAttempts} more tries.
 */
final class RowFailures {

    /** A row that failed and is being retried, as health shows it. */
    record Failure(long outboxId, int attempts, String reason) {
    }

    private final int maxAttempts;
    private final Map<Long, Failure> failures = new ConcurrentSkipListMap<>();

    RowFailures(int maxAttempts) {
        this.maxAttempts = maxAttempts;
    }

    /** Counts a failure; returns whether the row has now used up its attempts. */
    boolean record(long outboxId, Throwable cause) {
        Failure failure = failures.merge(outboxId, new Failure(outboxId, 1, cause.toString()),
                (old, now) -> new Failure(outboxId, old.attempts() + 1, now.reason()));
        return failure.attempts() >= maxAttempts;
    }

    /** The failure of a row that has used up its attempts, or null. */
    @Nullable Failure exhausted(long outboxId) {
        Failure failure = failures.get(outboxId);
        return failure != null && failure.attempts() >= maxAttempts ? failure : null;
    }

    boolean isFirst(long outboxId) {
        Failure failure = failures.get(outboxId);
        return failure != null && failure.attempts() == 1;
    }

    /** The row went (sent or quarantined): it starts from nothing if it ever comes back. */
    void clear(long outboxId) {
        failures.remove(outboxId);
    }

    /** Forgets rows that are no longer waiting, e.g. sent or removed by another bridge or an operator. */
    void retainOnly(Collection<Long> waiting) {
        failures.keySet().retainAll(waiting);
    }

    Collection<Long> ids() {
        return failures.keySet();
    }

    /** The oldest row being retried, or null when none is. */
    @Nullable Failure oldest() {
        return failures.values().stream().findFirst().orElse(null);
    }

    int maxAttempts() {
        return maxAttempts;
    }
}
