package kr.c4i.gateway.bridge.support;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;

import kr.c4i.gateway.core.transport.InboundHandler;
import kr.c4i.gateway.core.transport.MessageRejectedException;
import kr.c4i.gateway.core.transport.Outbound;
import kr.c4i.gateway.core.transport.Transport;
import kr.c4i.gateway.core.transport.TransportBusyException;
import kr.c4i.gateway.core.transport.TransportHealth;
import kr.c4i.gateway.core.transport.TransportKind;
import kr.c4i.gateway.core.transport.TransportUnavailableException;

/**
 * A transport that records what the outbox hands it, for testing the outbox's own contract
 * (claiming, quarantine, retries) apart from any broker. End-to-end tests use the real transports.
 */
public final class RecordingTransport implements Transport {

    public final ConcurrentLinkedQueue<Outbound> sent = new ConcurrentLinkedQueue<>();
    private final AtomicInteger failuresLeft = new AtomicInteger();
    private final AtomicInteger busyLeft = new AtomicInteger();
    private final AtomicInteger busyAfter = new AtomicInteger(-1);
    private volatile String rejectedMessageTypes = "";
    private volatile String explodingMessageTypes = "";
    /** How many send calls threw for {@link #explode}. */
    public final AtomicInteger explosions = new AtomicInteger();

    /** The next {@code count} sends fail as if the broker were down. */
    public void failNext(int count) {
        failuresLeft.set(count);
    }

    /** The next {@code count} sends find the transport busy, as a DDS writer full for its write timeout. */
    public void busyNext(int count) {
        busyLeft.set(count);
    }

    /**
     * The next send of more than {@code taken} messages takes its first {@code taken} and then finds the transport
     * busy, as a DDS writer that fills in the middle of a batch.
     */
    public void busyAfter(int taken) {
        busyAfter.set(taken);
    }

    /** Messages of this type are refused as if too large for the wire. */
    public void reject(String type) {
        rejectedMessageTypes = type;
    }

    /** Any send holding a message of this type throws an unexpected exception, as a transport's bug would. */
    public void explode(String type) {
        explodingMessageTypes = type;
    }

    @Override
    public TransportKind kind() {
        return TransportKind.JMS;
    }

    @Override
    public void open() {
    }

    @Override
    public void subscribe(InboundHandler handler) {
    }

    @Override
    public void send(List<Outbound> batch)
            throws TransportUnavailableException, TransportBusyException, MessageRejectedException {
        if (failuresLeft.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
            throw new TransportUnavailableException("broker down (test)", null);
        }
        if (busyLeft.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
            throw new TransportBusyException("writer full (test)", null);
        }
        int taken = busyAfter.get();
        if (taken >= 0 && batch.size() > taken && busyAfter.compareAndSet(taken, -1)) {
            sent.addAll(batch.subList(0, taken));
            throw new TransportBusyException("writer full after " + taken + " messages (test)", null,
                    batch.subList(0, taken).stream().map(outbound -> outbound.envelope().messageId()).toList());
        }
        for (Outbound outbound : batch) {
            if (outbound.type().id().equals(rejectedMessageTypes)) {
                throw new MessageRejectedException(outbound.envelope().messageId(), "refused by the wire (test)", null);
            }
            if (outbound.type().id().equals(explodingMessageTypes)) {
                explosions.incrementAndGet();
                throw new IllegalStateException("transport bug (test) on message " + outbound.envelope().messageId());
            }
        }
        sent.addAll(batch);
    }

    @Override
    public TransportHealth health() {
        return TransportHealth.up(Map.of());
    }

    @Override
    public void close() {
    }
}
