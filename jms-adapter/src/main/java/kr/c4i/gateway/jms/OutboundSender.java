package kr.c4i.gateway.jms;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
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
 * destination's queue, bundled by precedence (see {@link EnvelopeCodec}), all in one transaction, so a returned
 * {@link #send} means the broker has them in its journal. A failed connection is dropped and rebuilt on the next call.
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
        List<Parcel> parcels = parcels(batch);
        if (parcels.isEmpty()) {
            return;
        }
        this.lock.lock();
        try {
            @Nullable Parcel current = null;
            try {
                ensureSession();
                for (Parcel parcel : parcels) {
                    current = parcel;
                    produce(parcel);
                }
                current = null;
                this.session.commit();
                this.lastError = null;
            }
            catch (JMSException ex) {
                if (current == null && isDuplicate(ex)) {
                    log.info("Batch of {} JMS messages holds some the broker already has; sending them one at a time",
                            parcels.size());
                    sendOneByOne(parcels);
                    return;
                }
                throw unavailable(current, parcels, ex);
            }
        }
        finally {
            this.lock.unlock();
        }
    }

    // The broker rejects a whole transaction that holds one duplicate, so after a resend the JMS messages
    // go one per transaction and each duplicate is dropped on its own.
    private void sendOneByOne(List<Parcel> parcels) throws TransportUnavailableException {
        for (Parcel parcel : parcels) {
            try {
                ensureSession();
                produce(parcel);
                this.session.commit();
            }
            catch (JMSException ex) {
                if (!isDuplicate(ex)) {
                    throw unavailable(parcel, parcels, ex);
                }
                log.debug("Dropped resend of {} to {}: the broker already has it", parcel, parcel.destination);
            }
        }
        this.lastError = null;
    }

    private void produce(Parcel parcel) throws JMSException {
        Envelope first = parcel.envelopes.getFirst();
        Message message = (parcel.envelopes.size() == 1)
                ? EnvelopeCodec.toMessage(this.session, first, parcel.destination)
                : EnvelopeCodec.toBundle(this.session, parcel.envelopes, parcel.destination);
        this.producer.send(queue(parcel.destination), message, DeliveryMode.PERSISTENT,
                JmsPriority.of(first.precedence()), Message.DEFAULT_TIME_TO_LIVE);
    }

    /**
     * The JMS messages of a batch: its envelopes per destination and precedence, in batch order, in bundles of up to
     * {@code send.bundleMaxEnvelopes} envelopes and {@link EnvelopeCodec#BUNDLE_MAX_BYTES} bytes (a bundle of one is
     * a lone message); an envelope too big for a bundle goes alone. A repeated message and destination is sent once.
     */
    private List<Parcel> parcels(List<Outbound> batch) throws MessageRejectedException {
        int maxEnvelopes = settings.send().bundleMaxEnvelopes();
        Set<String> seen = new HashSet<>();
        Map<String, Bundling> open = new LinkedHashMap<>();
        List<Parcel> parcels = new ArrayList<>();
        for (Outbound outbound : batch) {
            Envelope envelope = outbound.envelope();
            EnvelopeCodec.checkEncodable(envelope);
            int size = EnvelopeCodec.bundledSize(envelope);
            for (NodeId destination : outbound.destinations()) {
                if (!settings.peers().containsKey(destination)) {
                    throw new MessageRejectedException(envelope.messageId(), "Unable to send message "
                            + envelope.messageId() + " to " + destination + ": not a configured peer of node "
                            + settings.nodeId() + " (peers: " + new TreeSet<>(settings.peers().keySet()) + ")", null);
                }
                if (!seen.add(envelope.messageId() + "/" + destination)) {
                    continue;
                }
                if (size < 0 || size > EnvelopeCodec.BUNDLE_MAX_BYTES) {
                    parcels.add(new Parcel(destination, List.of(envelope)));
                    continue;
                }
                String key = destination.value() + "/" + envelope.precedence();
                Bundling bundling = open.get(key);
                if (bundling != null && !bundling.fits(size)) {
                    parcels.add(bundling.parcel());
                    bundling = null;
                }
                if (bundling == null) {
                    bundling = new Bundling(destination, maxEnvelopes);
                    open.put(key, bundling);
                }
                bundling.add(envelope, size);
            }
        }
        open.values().forEach((bundling) -> parcels.add(bundling.parcel()));
        return parcels;
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

    private TransportUnavailableException unavailable(@Nullable Parcel failed, List<Parcel> parcels,
            JMSException ex) {
        reset();
        String what = (failed != null)
                ? failed + " to queue " + settings.queueName(failed.destination)
                : parcels.size() + " JMS messages to queues " + new TreeSet<>(parcels.stream()
                        .map((parcel) -> settings.queueName(parcel.destination)).toList());
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

    /** What one JMS message carries to one destination: one envelope, or a bundle of one precedence. */
    private record Parcel(NodeId destination, List<Envelope> envelopes) {

        @Override
        public String toString() {
            String first = envelopes.getFirst().messageId();
            return (envelopes.size() == 1) ? "message " + first
                    : "bundle of " + envelopes.size() + " messages from " + first;
        }
    }

    /** A bundle being filled. */
    private static final class Bundling {

        private final NodeId destination;
        private final int maxEnvelopes;
        private final List<Envelope> envelopes = new ArrayList<>();
        private int bytes;

        Bundling(NodeId destination, int maxEnvelopes) {
            this.destination = destination;
            this.maxEnvelopes = maxEnvelopes;
        }

        boolean fits(int size) {
            return this.envelopes.size() < this.maxEnvelopes
                    && this.bytes + size <= EnvelopeCodec.BUNDLE_MAX_BYTES;
        }

        void add(Envelope envelope, int size) {
            this.envelopes.add(envelope);
            this.bytes += size;
        }

        Parcel parcel() {
            return new Parcel(this.destination, List.copyOf(this.envelopes));
        }
    }
}
