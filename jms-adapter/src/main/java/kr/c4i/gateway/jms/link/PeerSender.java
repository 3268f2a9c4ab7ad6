package kr.c4i.gateway.jms.link;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiConsumer;

import jakarta.jms.CompletionListener;
import jakarta.jms.Connection;
import jakarta.jms.DeliveryMode;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import kr.c4i.gateway.core.link.LinkState;
import kr.c4i.gateway.core.link.SiteId;
import kr.c4i.gateway.core.retry.Backoff;
import kr.c4i.gateway.core.transport.TransportUnavailableException;
import kr.c4i.gateway.jms.BrokerTls;
import org.apache.activemq.artemis.core.remoting.impl.netty.TransportConstants;
import org.apache.activemq.artemis.jms.client.ActiveMQConnectionFactory;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends one peer's frames straight to the queue of that site on the peer's broker, asynchronously: a frame counts as
 * unacknowledged from {@link #send} until the peer broker confirms it has it (persisted). A lost connection drops
 * the count to zero (the gateway resends from its store) and is rebuilt with back-off on the connector thread.
 */
final class PeerSender {

    private static final Logger log = LoggerFactory.getLogger(PeerSender.class);

    // A peer that was cut off must be noticed, and found again, in seconds (Artemis's defaults are 30 s and 60 s).
    private static final long FAILURE_CHECK_MILLIS = 1_000;
    private static final long CONNECTION_TTL_MILLIS = 5_000;
    private static final long CALL_TIMEOUT_MILLIS = 5_000;
    private static final int CONNECT_TIMEOUT_MILLIS = 2_000;

    private final SiteId self;
    private final SiteId peer;
    private final String url;
    private final String queueName;
    private final ActiveMQConnectionFactory factory;
    private final ScheduledExecutorService connector;
    private final BiConsumer<SiteId, LinkState> stateListener;
    // Used on the connector thread only.
    private final Backoff backoff;
    private final Object sendLock = new Object();

    // Guarded by this: the live connection, its generation (callbacks of an older one are ignored), the byte count.
    private @Nullable Wire wire;
    private long generation;
    private long unacknowledged;
    private LinkState state = LinkState.CONNECTING;
    private boolean closed;

    private long seq;
    private final AtomicLong framesSent = new AtomicLong();
    private final AtomicLong bytesSent = new AtomicLong();
    private final AtomicLong framesConfirmed = new AtomicLong();
    private volatile @Nullable String lastError;

    PeerSender(JmsLinkSettings settings, SiteId peer, ScheduledExecutorService connector,
            BiConsumer<SiteId, LinkState> stateListener) {
        JmsLinkSettings.Peer config = settings.peers().get(peer);
        this.self = settings.site();
        this.peer = peer;
        this.url = config.url();
        this.queueName = settings.queueName(peer);
        this.connector = connector;
        this.stateListener = stateListener;
        this.backoff = new Backoff(settings.reconnectBackoff(), settings.maxReconnectBackoff());
        JmsLinkSettings.Windows windows = settings.windows();
        this.factory = BrokerTls.secure(new ActiveMQConnectionFactory(withConnectTimeout(config.url()),
                settings.userFor(config), settings.passwordFor(config)), settings.tls());
        this.factory.setProducerWindowSize(windows.producerWindowBytes());
        // Also what makes the broker answer each asynchronous send, which completes it.
        this.factory.setConfirmationWindowSize(windows.confirmationWindowBytes());
        this.factory.setBlockOnDurableSend(false);
        this.factory.setClientFailureCheckPeriod(FAILURE_CHECK_MILLIS);
        this.factory.setConnectionTTL(CONNECTION_TTL_MILLIS);
        this.factory.setCallTimeout(CALL_TIMEOUT_MILLIS);
        // This class reconnects, with the gateway's back-off; Artemis's own reconnect would hide the outage.
        this.factory.setReconnectAttempts(0);
    }

    /**
     * Netty's default connect timeout lets each attempt during an outage hang in TCP SYN back-off. The URL parameter
     * is the transport's own key: a camel-case {@code connectTimeoutMillis} is taken as a client option and ignored.
     */
    static String withConnectTimeout(String url) {
        if (url.contains(TransportConstants.NETTY_CONNECT_TIMEOUT)) {
            return url;
        }
        return url + (url.contains("?") ? "&" : "?") + TransportConstants.NETTY_CONNECT_TIMEOUT + "="
                + CONNECT_TIMEOUT_MILLIS;
    }

    /** Schedules the first connection attempt. */
    void start() {
        schedule(Duration.ZERO);
    }

    /**
     * Hands a frame to the peer's broker without waiting for its confirmation.
     *
     * @throws TransportUnavailableException if there is no connection to the peer now, or it failed in this send
     */
    void send(byte[] frame) throws TransportUnavailableException {
        synchronized (this.sendLock) {
            Wire current;
            synchronized (this) {
                current = this.wire;
                if (current == null) {
                    throw new TransportUnavailableException("Unable to send a frame to site " + this.peer
                            + ": its broker at " + Frames.masked(this.url) + " is " + this.state.label()
                            + lastErrorSuffix(), null);
                }
            }
            try {
                Message message = Frames.toMessage(current.session, frame, this.self.value(), this.seq + 1);
                synchronized (this) {
                    if (this.generation != current.generation) {
                        throw new JMSException("the connection was lost");
                    }
                    this.unacknowledged += frame.length;
                }
                current.producer.send(message, DeliveryMode.PERSISTENT, Message.DEFAULT_PRIORITY,
                        Message.DEFAULT_TIME_TO_LIVE, new Confirmation(current.generation, frame.length));
                this.seq++;
                this.framesSent.incrementAndGet();
                this.bytesSent.addAndGet(frame.length);
            }
            catch (JMSException | RuntimeException ex) {
                lost(current.generation, ex);
                throw new TransportUnavailableException("Unable to send a frame to site " + this.peer + " at "
                        + Frames.masked(this.url) + ": " + Frames.describe(ex), ex);
            }
        }
    }

    synchronized long unacknowledgedBytes() {
        return this.unacknowledged;
    }

    synchronized LinkState state() {
        return this.state;
    }

    Map<String, Object> details() {
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("url", Frames.masked(this.url));
        details.put("queue", this.queueName);
        synchronized (this) {
            details.put("state", this.state.label());
            details.put("unacknowledgedBytes", this.unacknowledged);
        }
        details.put("framesSent", this.framesSent.get());
        details.put("bytesSent", this.bytesSent.get());
        details.put("framesConfirmed", this.framesConfirmed.get());
        String error = this.lastError;
        if (error != null) {
            details.put("lastError", error);
        }
        return details;
    }

    /** Stops reconnecting and closes the connection; frames not yet confirmed count as lost. */
    void close() {
        Wire old;
        synchronized (this) {
            this.closed = true;
            this.generation++;
            old = this.wire;
            this.wire = null;
            this.unacknowledged = 0;
        }
        if (old != null) {
            closeQuietly(old.connection);
        }
        this.factory.close();
    }

    // On the connector thread.
    private void connect() {
        long attempt;
        synchronized (this) {
            if (this.closed) {
                return;
            }
            attempt = ++this.generation;
        }
        Connection connection = null;
        try {
            connection = this.factory.createConnection();
            connection.setExceptionListener((ex) -> lost(attempt, ex));
            Session session = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
            MessageProducer producer = session.createProducer(session.createQueue(this.queueName));
            synchronized (this) {
                if (this.generation != attempt) {
                    throw new JMSException("connection lost or link closed while connecting");
                }
                this.wire = new Wire(connection, session, producer, attempt);
                this.unacknowledged = 0;
                changeState(LinkState.UP);
            }
            this.backoff.reset();
            this.lastError = null;
            log.info("Connected to site {} at {} (queue {})", this.peer, Frames.masked(this.url), this.queueName);
        }
        catch (JMSException | RuntimeException ex) {
            closeQuietly(connection);
            this.lastError = "Unable to connect to site " + this.peer + " at " + Frames.masked(this.url) + ": "
                    + Frames.describe(ex);
            Duration wait = this.backoff.next();
            log.warn("{}; retrying in {} ms", this.lastError, wait.toMillis());
            schedule(wait);
        }
    }

    // On any thread: an Artemis thread (exception listener, send confirmation) or the sending one.
    private void lost(long lostGeneration, Exception cause) {
        Wire old;
        synchronized (this) {
            if (this.closed || this.wire == null || this.wire.generation != lostGeneration) {
                return;
            }
            old = this.wire;
            this.wire = null;
            this.generation++;
            this.unacknowledged = 0;
            changeState(LinkState.DOWN);
        }
        this.lastError = "Lost the connection to site " + this.peer + " at " + Frames.masked(this.url) + ": "
                + Frames.describe(cause);
        log.warn("{}; frames not yet confirmed count as lost", this.lastError);
        try {
            this.connector.execute(() -> {
                closeQuietly(old.connection);
                schedule(this.backoff.next());
            });
        }
        catch (RejectedExecutionException ex) {
            closeQuietly(old.connection);
        }
    }

    // Holding this lock, so the listener sees the changes in the order they were made.
    private void changeState(LinkState next) {
        if (this.state != next) {
            this.state = next;
            this.stateListener.accept(this.peer, next);
        }
    }

    private void schedule(Duration wait) {
        try {
            this.connector.schedule(this::connect, wait.toNanos(), TimeUnit.NANOSECONDS);
        }
        catch (RejectedExecutionException ex) {
            log.debug("Not reconnecting to site {}: the link is closing", this.peer);
        }
    }

    private String lastErrorSuffix() {
        String error = this.lastError;
        return (error != null) ? " (" + error + ")" : "";
    }

    private static void closeQuietly(@Nullable Connection connection) {
        if (connection == null) {
            return;
        }
        try {
            connection.close();
        }
        catch (JMSException | RuntimeException ex) {
            log.debug("Ignored failure closing a connection to a peer: {}", ex.toString());
        }
    }

    private record Wire(Connection connection, Session session, MessageProducer producer, long generation) {
    }

    /** The peer broker's answer to one asynchronous send. */
    private final class Confirmation implements CompletionListener {

        private final long sentGeneration;
        private final int bytes;

        Confirmation(long sentGeneration, int bytes) {
            this.sentGeneration = sentGeneration;
            this.bytes = bytes;
        }

        @Override
        public void onCompletion(Message message) {
            synchronized (PeerSender.this) {
                if (PeerSender.this.generation == this.sentGeneration) {
                    PeerSender.this.unacknowledged -= this.bytes;
                }
            }
            PeerSender.this.framesConfirmed.incrementAndGet();
        }

        @Override
        public void onException(Message message, Exception exception) {
            lost(this.sentGeneration, exception);
        }
    }
}
