package kr.c4i.gateway.core.transport;

import java.util.List;

/**
 * What the bridge needs of a message transport, JMS or DDS: a few verbs, no vendor types.
 *
 * <p>Delivery contract: {@link #send} returns only once the transport has taken responsibility
 * for every message of the batch (for reliable types: stored durably at its first hop), so the
 * caller may then mark the rows sent. A failure of the whole call means none, some or all may have
 * gone: callers resend, and receivers deduplicate on the envelope's message id.
 */
public interface Transport extends AutoCloseable {

    /** Which transport this is; its {@link TransportKind#label() label} names it in metrics and logs. */
    TransportKind kind();

    /** Connects, creating whatever the transport needs (broker, participant, queues, topics). */
    void open() throws TransportException;

    /** Starts delivering inbound messages for this node to the handler; at most one handler. */
    void subscribe(InboundHandler handler) throws TransportException;

    void send(List<Outbound> batch) throws TransportException;

    TransportHealth health();

    /** Stops delivery and releases everything; never throws, may be called twice. */
    @Override
    void close();
}
