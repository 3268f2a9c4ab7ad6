package kr.c4i.gateway.jms;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

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
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads one node's queue on this node's broker on one thread (its own inbox, or, on a site's WAN gateway, the queue
 * of a remote node that the site's nodes send to through it), in transacted batches of up to {@code receive.batchSize}
 * envelopes (a bundle is not split, so a batch may hold a bundle's worth more): the batch is committed only
 * after the handler returns, and rolled back (so redelivered) if it throws. Messages that are not
 * envelopes are moved to the invalid queue in the same transaction, so they never block the queue.
 */
final class InboxConsumer implements Runnable {

    private static final Logger log = LoggerFactory.getLogger(InboxConsumer.class);

    private final JmsTransportSettings settings;
    private final ConnectionFactory connectionFactory;
    private final String brokerUrl;
    private final InboundHandler handler;
    private final String inboxQueue;
    private final Thread thread;
    private final CountDownLatch stopping = new CountDownLatch(1);
    private volatile boolean running = true;
    private volatile boolean connected;
    private volatile @Nullable Connection connection;
    private volatile @Nullable String lastError;
    private final Backoff backoff;

    InboxConsumer(JmsTransportSettings settings, ConnectionFactory connectionFactory, String brokerUrl,
            InboundHandler handler) {
        this(settings, connectionFactory, brokerUrl, handler, settings.nodeId());
    }

    /** Consumes the queue of {@code queueOf}, which is this node's inbox when it is this node. */
    InboxConsumer(JmsTransportSettings settings, ConnectionFactory connectionFactory, String brokerUrl,
            InboundHandler handler, NodeId queueOf) {
        this.settings = settings;
        this.connectionFactory = connectionFactory;
        this.brokerUrl = brokerUrl;
        this.handler = handler;
        this.inboxQueue = settings.queueName(queueOf);
        this.backoff = new Backoff(settings.receive().retryBackoff(), settings.receive().maxRetryBackoff());
        String name = queueOf.equals(settings.nodeId()) ? "jms-inbox-" + queueOf : "jms-relay-" + queueOf;
        this.thread = Thread.ofPlatform().name(name).daemon(true).unstarted(this);
    }

    String queue() {
        return this.inboxQueue;
    }

    void start() {
        this.thread.start();
    }

    @Override
    public void run() {
        while (this.running) {
            try {
                consume();
            }
            catch (JMSException | RuntimeException ex) {
                this.connected = false;
                if (this.running) {
                    this.lastError = "Unable to receive from queue " + this.inboxQueue + " at " + this.brokerUrl + ": "
                            + OutboundSender.describe(ex);
                    log.warn("{}; reconnecting in {} ms", this.lastError, this.backoff.current().toMillis());
                    pause();
                }
            }
        }
    }

    private void consume() throws JMSException {
        try (Connection opened = this.connectionFactory.createConnection()) {
            this.connection = opened;
            if (!this.running) {
                return;
            }
            Session session = opened.createSession(true, Session.SESSION_TRANSACTED);
            MessageConsumer consumer = session.createConsumer(session.createQueue(this.inboxQueue));
            MessageProducer invalid = session.createProducer(session.createQueue(this.settings.invalidQueue()));
            opened.start();
            this.connected = true;
            this.lastError = null;
            log.info("Receiving from queue {} at {}", this.inboxQueue, this.brokerUrl);
            long timeout = this.settings.receive().timeout().toMillis();
            while (this.running) {
                Message first = consumer.receive(timeout);
                if (first != null) {
                    handleBatch(session, consumer, invalid, first);
                }
            }
        }
        finally {
            this.connected = false;
            this.connection = null;
        }
    }

    private void handleBatch(Session session, MessageConsumer consumer, MessageProducer invalid, Message first)
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
                log.error("Moving message {} from queue {} to {}: {}", message.getJMSMessageID(), this.inboxQueue,
                        this.settings.invalidQueue(), ex.getMessage());
                invalid.send(EnvelopeCodec.toInvalid(session, message, ex.getMessage(), this.inboxQueue));
            }
        }
        if (!batch.isEmpty()) {
            try {
                this.handler.deliver(List.copyOf(batch));
            }
            catch (Exception ex) {
                session.rollback();
                log.warn("Handler failed on a batch of {} messages from queue {}; they will be redelivered after {} ms: {}",
                        batch.size(), this.inboxQueue, this.backoff.current().toMillis(), ex.toString(), ex);
                pause();
                return;
            }
        }
        session.commit();
        this.backoff.reset();
    }

    /** Waits the next backoff, or until stopped. */
    private void pause() {
        try {
            this.stopping.await(this.backoff.next().toNanos(), TimeUnit.NANOSECONDS);
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            this.running = false;
        }
    }

    boolean isConnected() {
        return this.connected;
    }

    @Nullable String lastError() {
        return this.lastError;
    }

    /**
     * Lets a batch in the handler finish and commit, then stops; if the thread does not stop within
     * {@code grace}, closes its connection so the uncommitted batch is redelivered later.
     */
    void stop(Duration grace) {
        this.running = false;
        this.stopping.countDown();
        try {
            this.thread.join(this.settings.receive().timeout().plus(grace));
            if (this.thread.isAlive()) {
                Connection current = this.connection;
                if (current != null) {
                    current.close();
                }
                this.thread.join(grace);
            }
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
        catch (JMSException | RuntimeException ex) {
            log.debug("Ignored failure closing the inbox connection: {}", ex.toString());
        }
        if (this.thread.isAlive()) {
            log.warn("Consumer of queue {} of node {} did not stop within {}", this.inboxQueue, this.settings.nodeId(),
                    grace);
        }
    }
}
