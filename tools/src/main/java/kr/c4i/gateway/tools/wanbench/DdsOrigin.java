package kr.c4i.gateway.tools.wanbench;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import org.springframework.boot.convert.DurationStyle;

import kr.c4i.gateway.bridge.config.OutboxProperties;
import kr.c4i.gateway.core.NodeId;
import kr.c4i.gateway.core.transport.Outbound;
import kr.c4i.gateway.core.transport.TransportException;
import kr.c4i.gateway.dds.transport.DdsTransport;

/**
 * Node a on a DDS LAN, sending as a node's outbox does over DDS: it publishes, keeps each message until its receipt
 * names the destination (the site's gateway receipts as the remote node once it stored the message), and publishes
 * again what stays unreceipted, after {@link #RESEND_AFTER} doubling up to {@link #RESEND_MAX} (db-bridge's
 * {@code gateway.outbox.resend-after} and {@code resend-max} defaults). Custody is thus the node's until the gateway
 * stored it, as in a deployment, and nothing the gateway refused is lost to the benchmark's exactly-once count.
 * Unlike an outbox it keeps at most {@link #WINDOW} messages unreceipted: it publishes from memory many times faster
 * than an outbox reads its table, and without a bound it ran seconds ahead of the gateway, past {@link #RESEND_AFTER},
 * so that it published tens of thousands again and the gateway spent its time on duplicates.
 */
final class DdsOrigin implements AutoCloseable {

    static final Duration RESEND_AFTER = DurationStyle.detectAndParse(OutboxProperties.DEFAULT_RESEND_AFTER);
    static final Duration RESEND_MAX = DurationStyle.detectAndParse(OutboxProperties.DEFAULT_RESEND_MAX);
    /**
     * The most messages sent and not yet receipted; a send waits for receipts beyond it. Half a second at 20,000/s:
     * with 40,000 the gateway's LAN queue held seconds of messages, some waited past {@link #RESEND_AFTER} and were
     * published again, and the throughput phase gave 14,200-16,400 msg/s against 17,100-17,300 with this bound.
     */
    static final int WINDOW = 10_000;

    private final DdsTransport transport;
    private final NodeId destination;
    private final Map<String, Unreceipted> unreceipted = new ConcurrentHashMap<>();
    private final AtomicLong resent = new AtomicLong();
    private final ScheduledExecutorService resender;
    // The bench's sender and the resender share the writers: one send at a time keeps each batch's flush whole.
    private final Object sending = new Object();

    private static final class Unreceipted {

        final Outbound outbound;
        long wait = RESEND_AFTER.toNanos();
        volatile long dueNanos;

        Unreceipted(Outbound outbound, long now) {
            this.outbound = outbound;
            this.dueNanos = now + wait;
        }
    }

    /** Opens {@code transport}'s receipts for messages to {@code destination} and starts the resender. */
    DdsOrigin(DdsTransport transport, NodeId destination) throws TransportException {
        this.transport = transport;
        this.destination = destination;
        transport.onReceipts((receiver, ids) -> {
            if (receiver.equals(destination)) {
                ids.forEach(unreceipted::remove);
                synchronized (unreceipted) {
                    unreceipted.notifyAll();
                }
            }
        });
        transport.open();
        this.resender = Executors.newSingleThreadScheduledExecutor(
                Thread.ofPlatform().daemon().name("wan-bench-resend").factory());
        this.resender.scheduleWithFixedDelay(this::resendDue, 200, 200, TimeUnit.MILLISECONDS);
    }

    DdsTransport transport() {
        return transport;
    }

    /**
     * Publishes the batch once fewer than {@link #WINDOW} messages wait for their receipt; returns once written (a
     * full RELIABLE writer blocks: the readers' pace).
     */
    void send(List<Outbound> batch) throws TransportException, InterruptedException {
        synchronized (unreceipted) {
            while (unreceipted.size() + batch.size() > WINDOW) {
                // Woken by receipts; the timeout only guards a receipt that came between the check and the wait.
                unreceipted.wait(100);
            }
        }
        long now = System.nanoTime();
        for (Outbound outbound : batch) {
            // Kept before the write: the receipt may come before send returns.
            if (outbound.destinations().contains(destination)) {
                unreceipted.put(outbound.envelope().messageId(), new Unreceipted(outbound, now));
            }
        }
        synchronized (sending) {
            transport.send(batch);
        }
    }

    /** Messages sent and not yet receipted by the gateway as the destination. */
    long unreceipted() {
        return unreceipted.size();
    }

    /** Messages published again for want of a receipt. */
    long resent() {
        return resent.get();
    }

    private void resendDue() {
        long now = System.nanoTime();
        List<Outbound> due = new ArrayList<>();
        for (Unreceipted u : unreceipted.values()) {
            if (u.dueNanos - now <= 0) {
                due.add(u.outbound);
                u.wait = Math.min(u.wait * 2, RESEND_MAX.toNanos());
                u.dueNanos = now + u.wait;
                if (due.size() >= 500) {
                    break;
                }
            }
        }
        if (due.isEmpty()) {
            return;
        }
        try {
            synchronized (sending) {
                transport.send(due);
            }
            resent.addAndGet(due.size());
        }
        catch (TransportException | RuntimeException ex) {
            // Due again at its next wait, as an outbox retries.
        }
    }

    @Override
    public void close() {
        resender.shutdownNow();
        try {
            resender.awaitTermination(5, TimeUnit.SECONDS);
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
        transport.close();
    }
}
