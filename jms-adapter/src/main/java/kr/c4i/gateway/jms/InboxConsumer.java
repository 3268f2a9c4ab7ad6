package kr.c4i.gateway.jms;

import java.util.ArrayList;
import java.util.List;

import jakarta.jms.Connection;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import kr.c4i.gateway.core.Envelope;
import kr.c4i.gateway.core.NodeId;
import kr.c4i.gateway.core.retry.Backoff;
import kr.c4i.gateway.core.transport.InboundHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads one node's queue on this node's broker (its own inbox, or, on a site's WAN gateway, the queue of a remote node
 * that the site's nodes send to through it), in transacted batches of up to {@code receive.batchSize} envelopes (a
 * bundle is not split, so a batch may hold a bundle's worth more): the batch is committed only after the handler
 * returns. Messages that are not envelopes are moved to the invalid queue in the same transaction, so they never
 * block the queue.
 *
 * <p>If the handler throws, a batch of the node's own inbox is offered to it again in place after a back-off (its
 * handler throws only when its database fails, and a rollback would count deliveries that a broker may dead-letter
 * after: {@link TransactedQueueReader#offerUntilTaken}). A relayed batch is rolled back instead, so the broker
 * redelivers it after its redelivery delay while the queue's other messages go on: the gateway's store refuses what
 * would overfill a precedence's share, and a more urgent message behind it must not wait for room. The gateway's own
 * broker never dead-letters.
 */
final class InboxConsumer extends TransactedQueueReader {

    private static final Logger log = LoggerFactory.getLogger(InboxConsumer.class);

    private final JmsTransportSettings settings;
    private final ConnectionFactory connectionFactory;
    private final InboundHandler handler;
    private final boolean ownInbox;

    InboxConsumer(JmsTransportSettings settings, ConnectionFactory connectionFactory, String brokerUrl,
            InboundHandler handler) {
        this(settings, connectionFactory, brokerUrl, handler, settings.nodeId());
    }

    /** Consumes the queue of {@code queueOf}, which is this node's inbox when it is this node. */
    InboxConsumer(JmsTransportSettings settings, ConnectionFactory connectionFactory, String brokerUrl,
            InboundHandler handler, NodeId queueOf) {
        super((queueOf.equals(settings.nodeId()) ? "jms-inbox-" : "jms-relay-") + queueOf,
                settings.queueName(queueOf), settings.invalidQueue(), brokerUrl, settings.receive().timeout(),
                new Backoff(settings.receive().retryBackoff(), settings.receive().maxRetryBackoff()));
        this.settings = settings;
        this.connectionFactory = connectionFactory;
        this.handler = handler;
        this.ownInbox = queueOf.equals(settings.nodeId());
    }

    @Override
    protected Connection connect() throws JMSException {
        return this.connectionFactory.createConnection();
    }

    @Override
    protected void connected() {
        log.info("Receiving from queue {} at {}", queue(), broker());
    }

    @Override
    protected void handle(Session session, MessageConsumer consumer, MessageProducer invalid, Message first)
            throws JMSException {
        int batchSize = this.settings.receive().batchSize();
        List<Envelope> batch = new ArrayList<>();
        for (Message message = first; message != null; message = (batch.size() < batchSize)
                ? consumer.receiveNoWait() : null) {
            try {
                if (EnvelopeCodec.isBundle(message)) {
                    batch.addAll(EnvelopeCodec.fromBundle(message));
                }
                else {
                    batch.add(EnvelopeCodec.fromMessage(message));
                }
            }
            catch (EnvelopeCodec.InvalidMessageException ex) {
                log.error("Moving message {} from queue {} to {}: {}", message.getJMSMessageID(), queue(),
                        this.settings.invalidQueue(), ex.getMessage());
                invalid.send(EnvelopeCodec.toInvalid(session, message, ex.getMessage(), queue()));
            }
        }
        if (!batch.isEmpty() && this.ownInbox) {
            if (!offerUntilTaken(session, () -> this.handler.deliver(List.copyOf(batch)),
                    () -> "a batch of " + batch.size() + " messages from queue " + queue())) {
                return;
            }
        }
        else if (!batch.isEmpty()) {
            try {
                this.handler.deliver(List.copyOf(batch));
            }
            catch (Exception ex) {
                session.rollback();
                log.warn("Handler failed on a batch of {} messages from queue {}; they will be redelivered after {} ms: {}",
                        batch.size(), queue(), backoff().current().toMillis(), ex.toString(), ex);
                pause();
                return;
            }
        }
        session.commit();
        backoff().reset();
    }
}
