package kr.c4i.gateway.wan.lan;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;

import kr.c4i.gateway.core.Envelope;

/**
 * The engine as a test sees it: stores what it is given (deduplicated by message id, counting each call), can be
 * told to throw or to refuse its first calls, or to hold a call until released; records custody reports. Every
 * event goes into one ordered log, so a test can tell what came before what.
 */
final class RecordingIngest implements LanIngest {

    final Map<String, Envelope> stored = new ConcurrentHashMap<>();
    final List<List<String>> calls = new CopyOnWriteArrayList<>();
    final List<String> delivered = new CopyOnWriteArrayList<>();
    final List<String> events;
    private final AtomicInteger failuresLeft = new AtomicInteger();
    private final AtomicInteger refusalsLeft = new AtomicInteger();
    private volatile CountDownLatch entered = new CountDownLatch(0);
    private volatile CountDownLatch release = new CountDownLatch(0);

    RecordingIngest(List<String> events) {
        this.events = events;
    }

    RecordingIngest() {
        this(new CopyOnWriteArrayList<>());
    }

    /** The next {@code count} calls throw. */
    RecordingIngest failing(int count) {
        this.failuresLeft.set(count);
        return this;
    }

    /** The next {@code count} calls store nothing and return no id. */
    RecordingIngest refusing(int count) {
        this.refusalsLeft.set(count);
        return this;
    }

    /** The next call waits, after storing, until {@link #release()}; {@link #awaitEntered} sees it waiting. */
    RecordingIngest holding() {
        this.entered = new CountDownLatch(1);
        this.release = new CountDownLatch(1);
        return this;
    }

    boolean awaitEntered(long seconds) throws InterruptedException {
        return this.entered.await(seconds, TimeUnit.SECONDS);
    }

    void release() {
        this.release.countDown();
    }

    @Override
    public Set<String> ingest(List<Envelope> batch) throws Exception {
        List<String> ids = batch.stream().map(Envelope::messageId).toList();
        this.calls.add(ids);
        if (this.failuresLeft.getAndDecrement() > 0) {
            this.events.add("ingest-failed " + ids);
            throw new IllegalStateException("store unavailable (test)");
        }
        if (this.refusalsLeft.getAndDecrement() > 0) {
            this.events.add("ingest-refused " + ids);
            return Set.of();
        }
        batch.forEach(e -> this.stored.putIfAbsent(e.messageId(), e));
        this.events.add("ingest-stored " + ids);
        this.entered.countDown();
        this.release.await(60, TimeUnit.SECONDS);
        return batch.stream().map(Envelope::messageId).collect(Collectors.toSet());
    }

    @Override
    public void delivered(Set<String> messageIds) {
        this.delivered.addAll(messageIds);
        messageIds.forEach(id -> this.events.add("delivered " + id));
    }

    /** How many calls carried this message id. */
    long callsWith(String messageId) {
        return this.calls.stream().filter(c -> c.contains(messageId)).count();
    }
}
