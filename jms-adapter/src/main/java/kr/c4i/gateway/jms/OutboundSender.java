package kr.c4i.gateway.jms;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.locks.ReentrantLock;

import jakarta.jms.Connection;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.DeliveryMode;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageProducer;
import jakarta.jms.Queue;
import jakarta.jms.Session;
import kr.c4i.gateway.core.Envelope;
import kr.c4i.gateway.core.NodeId;
import kr.c4i.gateway.core.transport.MessageRejectedException;
import kr.c4i.gateway.core.transport.Outbound;
import kr.c4i.gateway.core.transport.TransportUnavailableException;
import org.apache.activemq.artemis.api.core.ActiveMQException;
import org.apache.activemq.artemis.api.core.ActiveMQExceptionType;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Puts outbound messages on the local broker: one persistent copy per destination on that
 * destination's queue, all in one transaction, so a returned {@link #send} means the broker has them
 * in its journal. A failed connection is dropped and rebuilt on the next call.
 */
final class OutboundSender implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(OutboundSender.class);

    private final JmsTransportSettings settings;
    private final ConnectionFactory connectionFactory;
    private final String brokerUrl;
    // JMS sessions are single-threaded; the lock also keeps one transaction per batch.
    private final ReentrantLock lock = new ReentrantLock();
    private final Map<NodeId, Queue> queues = new HashMap<>();
    private @Nullable Connection connection;
    private @Nullable Session session;
    private @Nullable MessageProducer producer;
    private volatile boolean connected;
    private volatile @Nullable String lastError;

    OutboundSender(JmsTransportSettings settings, ConnectionFactory connectionFactory, String brokerUrl) {
        this.settings = settings;
        this.connectionFactory = connectionFactory;
        this.brokerUrl = brokerUrl;
    }

    /** Connects now, so that a broker that cannot be reached is reported when the transport opens. */
    void connect() throws TransportUnavailableException {
        this.lock.lock();
        try {
            ensureSession();
        }
        catch (JMSException ex) {
            reset();
            throw new TransportUnavailableException("Unable to connect to broker at " + this.brokerUrl + ": "
                    + describe(ex), ex);
        }
        finally {
            this.lock.unlock();
        }
    }

    void send(List<Outbound> batch) throws MessageRejectedException, TransportUnavailableException {
        List<Copy> copies = copies(batch);
        if (copies.isEmpty()) {
            return;
        }
        this.lock.lock();
        try {
            @Nullable Copy current = null;
            try {
                ensureSession();
                for (Copy copy : copies) {
                    current = copy;
                    produce(copy);
                }
                current = null;
                this.session.commit();
                this.lastError = null;
            }
            catch (JMSException ex) {
                if (current == null && isDuplicate(ex)) {
                    log.info("Batch of {} messages holds some the broker already has; sending them one at a time",
                            copies.size());
                    sendOneByOne(copies);
                    return;
                }
                throw unavailable(current, copies, ex);
            }
        }
        finally {
            this.lock.unlock();
        }
    }

    // The broker rejects a whole transaction that holds one duplicate, so after a resend the copies
    // go one per transaction and each duplicate is dropped on its own.
    private void sendOneByOne(List<Copy> copies) throws TransportUnavailableException {
        for (Copy copy : copies) {
            try {
                ensureSession();
                produce(copy);
                this.session.commit();
            }
            catch (JMSException ex) {
                if (!isDuplicate(ex)) {
                    throw unavailable(copy, copies, ex);
                }
                log.debug("Dropped resend of message {} to {}: the broker already has it", copy.envelope.messageId(),
                        copy.destination);
            }
        }
        this.lastError = null;
    }

    private void produce(Copy copy) throws JMSException {
        Message message = EnvelopeCodec.toMessage(this.session, copy.envelope, copy.destination);
        this.producer.send(queue(copy.destination), message, DeliveryMode.PERSISTENT,
                JmsPriority.of(copy.envelope.precedence()), Message.DEFAULT_TIME_TO_LIVE);
    }

    /** One copy per destination, in batch order; a repeated message and destination is sent once. */
    private List<Copy> copies(List<Outbound> batch) throws MessageRejectedException {
        Map<String, Copy> copies = new LinkedHashMap<>();
        for (Outbound outbound : batch) {
            EnvelopeCodec.checkEncodable(outbound.envelope());
            for (NodeId destination : outbound.destinations()) {
                if (!settings.peers().containsKey(destination)) {
                    throw new MessageRejectedException(outbound.envelope().messageId(), "Unable to send message "
                            + outbound.envelope().messageId() + " to " + destination + ": not a configured peer of node "
                            + settings.nodeId() + " (peers: " + new TreeSet<>(settings.peers().keySet()) + ")", null);
                }
                copies.putIfAbsent(outbound.envelope().messageId() + "/" + destination,
                        new Copy(outbound.envelope(), destination));
            }
        }
        return new ArrayList<>(copies.values());
    }

    private void ensureSession() throws JMSException {
        if (this.session != null && this.connected) {
            return;
        }
        reset();
        Connection created = this.connectionFactory.createConnection();
        try {
            created.setExceptionListener((ex) -> {
                this.connected = false;
                this.lastError = describe(ex);
            });
            this.session = created.createSession(true, Session.SESSION_TRANSACTED);
            this.producer = this.session.createProducer(null);
        }
        catch (JMSException | RuntimeException ex) {
            closeQuietly(created);
            throw ex;
        }
        this.connection = created;
        this.connected = true;
    }

    private Queue queue(NodeId destination) throws JMSException {
        Queue queue = this.queues.get(destination);
        if (queue == null) {
            queue = this.session.createQueue(settings.queueName(destination));
            this.queues.put(destination, queue);
        }
        return queue;
    }

    private TransportUnavailableException unavailable(@Nullable Copy failed, List<Copy> copies, JMSException ex) {
        reset();
        String what = (failed != null)
                ? "message " + failed.envelope.messageId() + " to queue " + settings.queueName(failed.destination)
                : copies.size() + " messages to queues " + new TreeSet<>(copies.stream()
                        .map((copy) -> settings.queueName(copy.destination)).toList());
        String message = "Unable to send " + what + " at " + this.brokerUrl + ": " + describe(ex);
        this.lastError = message;
        return new TransportUnavailableException(message, ex);
    }

    private static boolean isDuplicate(Throwable ex) {
        for (Throwable cause = ex; cause != null; cause = cause.getCause()) {
            if (cause instanceof ActiveMQException amq && amq.getType() == ActiveMQExceptionType.DUPLICATE_ID_REJECTED) {
                return true;
            }
        }
        return false;
    }

    static String describe(Throwable ex) {
        return (ex.getMessage() != null) ? ex.getMessage() : ex.getClass().getSimpleName();
    }

    boolean isConnected() {
        return this.connected;
    }

    @Nullable String lastError() {
        return this.lastError;
    }

    private void reset() {
        this.connected = false;
        this.queues.clear();
        this.session = null;
        this.producer = null;
        Connection old = this.connection;
        this.connection = null;
        closeQuietly(old);
    }

    private static void closeQuietly(@Nullable Connection connection) {
        if (connection == null) {
            return;
        }
        try {
            connection.close();
        }
        catch (JMSException | RuntimeException ex) {
            log.debug("Ignored failure closing a broken connection: {}", ex.toString());
        }
    }

    @Override
    public void close() {
        this.lock.lock();
        try {
            reset();
        }
        finally {
            this.lock.unlock();
        }
    }

    private record Copy(Envelope envelope, NodeId destination) {
    }
}
