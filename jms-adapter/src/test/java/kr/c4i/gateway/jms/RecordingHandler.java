package kr.c4i.gateway.jms;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import kr.c4i.gateway.core.Envelope;
import kr.c4i.gateway.core.transport.InboundHandler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Records what a node receives the way an inbox would: deduplicated by message id, while counting
 * every delivery so tests can tell redeliveries from losses. Can be told to fail some batches.
 */
final class RecordingHandler implements InboundHandler {

    private final Map<String, Envelope> unique = new ConcurrentHashMap<>();
    private final Map<String, AtomicInteger> deliveries = new ConcurrentHashMap<>();
    private final List<List<String>> failedBatches = new CopyOnWriteArrayList<>();
    private final AtomicInteger batches = new AtomicInteger();
    private final AtomicInteger failuresLeft;

    RecordingHandler() {
        this(0);
    }

    /** A handler that throws on its first {@code failures} batches. */
    RecordingHandler(int failures) {
        this.failuresLeft = new AtomicInteger(failures);
    }

    @Override
    public void deliver(List<Envelope> batch) {
        this.batches.incrementAndGet();
        if (this.failuresLeft.getAndDecrement() > 0) {
            this.failedBatches.add(batch.stream().map(Envelope::messageId).toList());
            throw new IllegalStateException("inbox database unavailable (test)");
        }
        for (Envelope envelope : batch) {
            this.unique.putIfAbsent(envelope.messageId(), envelope);
            this.deliveries.computeIfAbsent(envelope.messageId(), (id) -> new AtomicInteger()).incrementAndGet();
        }
    }

    Map<String, Envelope> received() {
        return this.unique;
    }

    int uniqueCount() {
        return this.unique.size();
    }

    /** Successful deliveries, counting a message each time it reached a handler call that returned. */
    int deliveryCount() {
        return this.deliveries.values().stream().mapToInt(AtomicInteger::get).sum();
    }

    /** Successful deliveries of one message. */
    int deliveries(String messageId) {
        AtomicInteger count = this.deliveries.get(messageId);
        return (count != null) ? count.get() : 0;
    }

    List<List<String>> failedBatches() {
        return this.failedBatches;
    }

    int batchCount() {
        return this.batches.get();
    }

    void awaitUnique(int expected, Duration timeout) {
        await().atMost(timeout).untilAsserted(
                () -> assertThat(uniqueCount()).as("distinct messages").isGreaterThanOrEqualTo(expected));
    }
}
