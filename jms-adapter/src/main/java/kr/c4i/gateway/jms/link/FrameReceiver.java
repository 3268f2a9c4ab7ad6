package kr.c4i.gateway.jms.link;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
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
import kr.c4i.gateway.jms.TransactedQueueReader;
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
final class FrameReceiver extends TransactedQueueReader {

    private static final Logger log = LoggerFactory.getLogger(FrameReceiver.class);

    /** How long a receive waits before checking whether to stop. */
    private static final Duration RECEIVE_TIMEOUT = Duration.ofMillis(500);

    /** The most frames taken in one transaction: a burst costs one commit here and one store transaction. */
    static final int MAX_BATCH_FRAMES = 64;

    /** ... and the most bytes of frames, so a batch of large frames stays a few MiB of memory. */
    static final long MAX_BATCH_BYTES = 4L * 1024 * 1024;

    private final JmsLinkSettings settings;
    private final ActiveMQConnectionFactory factory;
    private final Consumer<List<ReceivedFrame>> handler;
    private final Map<SiteId, Counters> received = new ConcurrentHashMap<>();
    private final AtomicLong invalidMessages = new AtomicLong();

    /**
     * @param handler given the frames of each transaction; returning acknowledges them, throwing has them offered
     *        again
     */
    FrameReceiver(JmsLinkSettings settings, String brokerUrl, Consumer<List<ReceivedFrame>> handler) {
        super("jms-link-receive-" + settings.site(), settings.queueName(settings.site()), settings.invalidQueue(),
                Frames.masked(brokerUrl), RECEIVE_TIMEOUT,
                new Backoff(settings.reconnectBackoff(), settings.maxReconnectBackoff()));
        this.settings = settings;
        this.handler = handler;
        this.factory = BrokerTls.secure(new ActiveMQConnectionFactory(PeerSender.withConnectTimeout(brokerUrl),
                settings.user(), settings.password()), settings.tls());
        this.factory.setConsumerWindowSize(settings.windows().consumerWindowBytes());
        settings.peers().keySet().forEach((peer) -> this.received.put(peer, new Counters()));
    }

    @Override
    protected Connection connect() throws JMSException {
        return this.factory.createConnection();
    }

    @Override
    protected void connected() {
        backoff().reset();
        log.info("Receiving frames of site {} from queue {} at {}", this.settings.site(), queue(), broker());
    }

    /**
     * Takes what the queue holds now, up to {@link #MAX_BATCH_FRAMES} frames or {@link #MAX_BATCH_BYTES}, in one
     * transaction: messages that are not frames move to the invalid queue, the frames go to the handler together,
     * and one commit acknowledges all of it once the handler returns.
     */
    @Override
    protected void handle(Session session, MessageConsumer consumer, MessageProducer invalid, Message first)
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
                log.error("Moving message {} from queue {} to {}: {}", message.getJMSMessageID(), queue(),
                        this.settings.invalidQueue(), problem);
                invalid.send(Frames.toInvalid(session, message, problem, queue()));
                moved++;
            }
            message = frames.size() < MAX_BATCH_FRAMES && bytes < MAX_BATCH_BYTES ? consumer.receiveNoWait() : null;
        }
        // A refused batch is offered again in place, so the frames behind it keep their order.
        if (!frames.isEmpty() && !offerUntilTaken(session, () -> this.handler.accept(List.copyOf(frames)),
                () -> frames.size() + " frames from " + frames.stream().map(ReceivedFrame::from).distinct().toList())) {
            return;
        }
        session.commit();
        backoff().reset();
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

    /** Stops as {@link TransactedQueueReader#stop} does, then closes the connection factory. */
    @Override
    public void stop(Duration grace) {
        super.stop(grace);
        this.factory.close();
    }

    private static final class Counters {
        final AtomicLong frames = new AtomicLong();
        final AtomicLong bytes = new AtomicLong();
        volatile long lastSeq;
    }
}
