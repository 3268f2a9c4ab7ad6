package kr.c4i.gateway.jms.link;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

import jakarta.jms.BytesMessage;
import jakarta.jms.Connection;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import kr.c4i.gateway.core.link.ReceivedFrame;
import kr.c4i.gateway.core.link.SiteId;
import kr.c4i.gateway.core.retry.Backoff;
import kr.c4i.gateway.jms.BrokerTls;
import org.apache.activemq.artemis.jms.client.ActiveMQConnectionFactory;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads this site's queue on its own broker on one thread, the frames waiting there in one transaction: they are
 * acknowledged (committed) only after the handler returns. If the handler throws, the frames are offered to it again
 * after a back-off, holding back the frames behind them; stopping meanwhile rolls them back, so the broker redelivers
 * them. A message that is not a frame from a configured peer is moved to the invalid queue in the same transaction,
 * so it never blocks the queue.
 */
final class FrameReceiver implements Runnable {

    private static final Logger log = LoggerFactory.getLogger(FrameReceiver.class);

    /** How long a receive waits before checking whether to stop. */
    private static final long RECEIVE_TIMEOUT_MILLIS = 500;

    /** The most frames taken in one transaction: a burst costs one commit here and one store transaction. */
    static final int MAX_BATCH_FRAMES = 64;

    /** ... and the most bytes of frames, so a batch of large frames stays a few MiB of memory. */
    static final long MAX_BATCH_BYTES = 4L * 1024 * 1024;

    private final JmsLinkSettings settings;
    private final String brokerUrl;
    private final String queueName;
    private final ActiveMQConnectionFactory factory;
    private final Consumer<List<ReceivedFrame>> handler;
    private final Backoff backoff;
    private final Thread thread;
    private final CountDownLatch stopping = new CountDownLatch(1);
    private final Map<SiteId, Counters> received = new ConcurrentHashMap<>();
    private final AtomicLong invalidMessages = new AtomicLong();
    private volatile boolean running = true;
    private volatile boolean connected;
    private volatile @Nullable Connection connection;
    private volatile @Nullable String lastError;

    /**
     * @param handler given the frames of each transaction; returning acknowledges them, throwing has them offered
     *        again
     */
    FrameReceiver(JmsLinkSettings settings, String brokerUrl, Consumer<List<ReceivedFrame>> handler) {
        this.settings = settings;
        this.brokerUrl = brokerUrl;
        this.queueName = settings.queueName(settings.site());
        this.handler = handler;
        this.backoff = new Backoff(settings.reconnectBackoff(), settings.maxReconnectBackoff());
        this.factory = BrokerTls.secure(new ActiveMQConnectionFactory(PeerSender.withConnectTimeout(brokerUrl),
                settings.user(), settings.password()), settings.tls());
        this.factory.setConsumerWindowSize(settings.windows().consumerWindowBytes());
        settings.peers().keySet().forEach((peer) -> this.received.put(peer, new Counters()));
        this.thread = Thread.ofPlatform().name("jms-link-receive-" + settings.site()).daemon(true).unstarted(this);
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
                    this.lastError = "Unable to receive from queue " + this.queueName + " at "
                            + Frames.masked(this.brokerUrl) + ": " + Frames.describe(ex);
                    log.warn("{}; reconnecting in {} ms", this.lastError, this.backoff.current().toMillis());
                    pause();
                }
            }
        }
    }

    private void consume() throws JMSException {
        try (Connection opened = this.factory.createConnection()) {
            this.connection = opened;
            if (!this.running) {
                return;
            }
            Session session = opened.createSession(true, Session.SESSION_TRANSACTED);
            MessageConsumer consumer = session.createConsumer(session.createQueue(this.queueName));
            MessageProducer invalid = session.createProducer(session.createQueue(this.settings.invalidQueue()));
            opened.start();
            this.connected = true;
            this.lastError = null;
            this.backoff.reset();
            log.info("Receiving frames of site {} from queue {} at {}", this.settings.site(), this.queueName,
                    Frames.masked(this.brokerUrl));
            while (this.running) {
                Message message = consumer.receive(RECEIVE_TIMEOUT_MILLIS);
                if (message != null) {
                    handle(session, consumer, invalid, message);
                }
            }
        }
        finally {
            this.connected = false;
            this.connection = null;
        }
    }

    /**
     * Takes what the queue holds now, up to {@link #MAX_BATCH_FRAMES} frames or {@link #MAX_BATCH_BYTES}, in one
     * transaction: messages that are not frames move to the invalid queue, the frames go to the handler together,
     * and one commit acknowledges all of it once the handler returns.
     */
    private void handle(Session session, MessageConsumer consumer, MessageProducer invalid, Message first)
            throws JMSException {
        List<ReceivedFrame> frames = new ArrayList<>();
        List<Long> seqs = new ArrayList<>();
        long bytes = 0;
        int moved = 0;
        Message message = first;
        while (message != null) {
            String problem = problem(message);
            if (problem == null) {
                ReceivedFrame frame = new ReceivedFrame(SiteId.of(message.getStringProperty(Frames.FROM)),
                        Frames.body((BytesMessage) message));
                frames.add(frame);
                seqs.add(message.getLongProperty(Frames.SEQ));
                bytes += frame.bytes().length;
            }
            else {
                log.error("Moving message {} from queue {} to {}: {}", message.getJMSMessageID(), this.queueName,
                        this.settings.invalidQueue(), problem);
                invalid.send(Frames.toInvalid(session, message, problem, this.queueName));
                moved++;
            }
            message = frames.size() < MAX_BATCH_FRAMES && bytes < MAX_BATCH_BYTES ? consumer.receiveNoWait() : null;
        }
        // A refused batch is offered again in place, so the frames behind it keep their order.
        while (!frames.isEmpty()) {
            try {
                this.handler.accept(List.copyOf(frames));
                break;
            }
            catch (RuntimeException ex) {
                log.warn("Handler failed on {} frames from {}; offering them again in {} ms: {}", frames.size(),
                        frames.stream().map(ReceivedFrame::from).distinct().toList(),
                        this.backoff.current().toMillis(), ex.toString(), ex);
                pause();
                if (!this.running) {
                    session.rollback();
                    return;
                }
            }
        }
        session.commit();
        this.backoff.reset();
        this.invalidMessages.addAndGet(moved);
        for (int i = 0; i < frames.size(); i++) {
            Counters counters = this.received.get(frames.get(i).from());
            counters.frames.incrementAndGet();
            counters.bytes.addAndGet(frames.get(i).bytes().length);
            counters.lastSeq = seqs.get(i);
        }
    }

    /** Why the message is not a frame of a configured peer; {@code null} if it is one. */
    private @Nullable String problem(Message message) throws JMSException {
        if (!(message instanceof BytesMessage)) {
            return "not a BytesMessage but " + message.getClass().getSimpleName();
        }
        String from = message.getStringProperty(Frames.FROM);
        if (from == null) {
            return "no sender site in property " + Frames.FROM;
        }
        SiteId site;
        try {
            site = SiteId.of(from);
        }
        catch (IllegalArgumentException ex) {
            return "property " + Frames.FROM + ": " + ex.getMessage();
        }
        if (!this.settings.peers().containsKey(site)) {
            return "site '" + from + "' in property " + Frames.FROM + " is not a configured peer of site "
                    + this.settings.site() + " (peers: " + this.settings.peers().keySet() + ")";
        }
        if (!message.propertyExists(Frames.SEQ)) {
            return "no frame counter in property " + Frames.SEQ;
        }
        try {
            message.getLongProperty(Frames.SEQ);
        }
        catch (JMSException | NumberFormatException ex) {
            return "property " + Frames.SEQ + " is not a number: " + Frames.describe(ex);
        }
        return null;
    }

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

    long invalidMessages() {
        return this.invalidMessages.get();
    }

    Map<String, Object> received(SiteId peer) {
        Counters counters = this.received.get(peer);
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("framesReceived", counters.frames.get());
        details.put("bytesReceived", counters.bytes.get());
        details.put("lastFrameSeq", counters.lastSeq);
        return details;
    }

    /**
     * Lets a frame in the handler finish and commit, then stops; if the thread does not stop within {@code grace},
     * closes its connection so the uncommitted frame is redelivered later.
     */
    void stop(Duration grace) {
        this.running = false;
        this.stopping.countDown();
        try {
            this.thread.join(Duration.ofMillis(RECEIVE_TIMEOUT_MILLIS).plus(grace));
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
            log.debug("Ignored failure closing the receiving connection: {}", ex.toString());
        }
        if (this.thread.isAlive()) {
            log.warn("Frame receiver of site {} did not stop within {}", this.settings.site(), grace);
        }
        this.factory.close();
    }

    private static final class Counters {
        final AtomicLong frames = new AtomicLong();
        final AtomicLong bytes = new AtomicLong();
        volatile long lastSeq;
    }
}
