package kr.c4i.gateway.dds;

import java.util.concurrent.locks.Lock;
import java.util.function.Supplier;

/**
 * Lifecycle shared by the participant's children: calls run under the participant's read lock and fail once the
 * entity is closed; closing takes the write lock, so it waits for calls in flight (a write blocked on a full
 * history, a take holding lent memory) and no native call can reach a deleted entity.
 */
abstract sealed class Entity implements AutoCloseable permits Topic, DataWriter, DataReader, WaitSet {

    final DomainParticipant participant;
    private final String description;
    private volatile boolean closed;

    Entity(DomainParticipant participant, String description) {
        this.participant = participant;
        this.description = description;
    }

    public boolean isClosed() {
        return this.closed;
    }

    /** Deletes the entity; safe to call more than once and after the participant was closed. */
    @Override
    public void close() {
        this.participant.closeChild(this);
    }

    /** Called by the participant with its write lock held, once. */
    abstract void closeDriver();

    /** Marks the entity closed without a native call, when the participant deletes the whole tree. */
    void markClosed() {
        this.closed = true;
    }

    <R> R call(Supplier<R> action) {
        Lock lock = this.participant.lifecycle.readLock();
        lock.lock();
        try {
            if (this.closed) {
                throw new IllegalStateException("The " + this.description + " is closed");
            }
            return action.get();
        }
        finally {
            lock.unlock();
        }
    }

    void run(Runnable action) {
        call(() -> {
            action.run();
            return null;
        });
    }

    @Override
    public String toString() {
        return this.description + (this.closed ? " (closed)" : "");
    }
}
