package kr.c4i.gateway.jms;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import jakarta.jms.Connection;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import kr.c4i.gateway.core.retry.Backoff;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One thread that reads one queue of a broker in transactions, for a node's inbox ({@link InboxConsumer}) and a WAN
 * link's site queue alike: it connects, hands each message that arrives to {@link #handle} with the transacted
 * session (and a producer for the invalid queue), reconnects after a back-off when the connection fails, and stops by
 * letting the transaction in hand finish, or by closing the connection so the broker redelivers it.
 */
public abstract class TransactedQueueReader implements Runnable {

    private static final Logger log = LoggerFactory.getLogger(TransactedQueueReader.class);

    private final String queue;
    private final String invalidQueue;
    private final String broker;
    private final Duration receiveTimeout;
    private final Backoff backoff;
    private final Thread thread;
    private final CountDownLatch stopping = new CountDownLatch(1);
    private volatile boolean running = true;
    private volatile boolean connected;
    private volatile @Nullable Connection connection;
    private volatile @Nullable String lastError;

    /**
     * @param broker the broker's address as logs and health may show it (no password)
     * @param receiveTimeout how long a receive waits before looking whether to stop
     */
    protected TransactedQueueReader(String threadName, String queue, String invalidQueue, String broker,
            Duration receiveTimeout, Backoff backoff) {
        this.queue = queue;
        this.invalidQueue = invalidQueue;
        this.broker = broker;
        this.receiveTimeout = receiveTimeout;
        this.backoff = backoff;
        this.thread = Thread.ofPlatform().name(threadName).daemon(true).unstarted(this);
    }

    /** A new connection to the broker, not yet started. */
    protected abstract Connection connect() throws JMSException;

    /** Called once connected, before the first receive. */
    protected abstract void connected();

    /**
     * Takes {@code first} and what else it will in the session's transaction, and commits or rolls back before it
     * returns.
     */
    protected abstract void handle(Session session, MessageConsumer consumer, MessageProducer invalid, Message first)
            throws JMSException;

    /** Hands a batch taken from the queue to its handler. */
    @FunctionalInterface
    protected interface Delivery {
        void run() throws Exception;
    }

    /**
     * Offers a batch to its handler until the handler takes it, waiting the back-off between tries, while the batch's
     * messages stay in the session's transaction, in their place before the messages behind them. A rollback would
     * count a delivery of each message every time, and a broker that dead-letters or drops a message after so many
     * deliveries (Artemis's {@code max-delivery-attempts}, 10 unless set: an external broker's default) would take
     * the batch from the queue during an outage of the handler's database.
     *
     * @param what the batch, for the log
     * @return true once the handler took the batch; false if the reader was stopped meanwhile, having rolled the
     *         transaction back so that the broker delivers the batch again
     */
    protected final boolean offerUntilTaken(Session session, Delivery delivery, Supplier<String> what)
            throws JMSException {
        while (true) {
            try {
                delivery.run();
                return true;
            }
            catch (Exception ex) {
                log.warn("Handler failed on {}; offering it again in {} ms: {}", what.get(),
                        this.backoff.current().toMillis(), ex.toString(), ex);
                pause();
                if (!this.running) {
                    session.rollback();
                    return false;
                }
            }
        }
    }

    public final String queue() {
        return this.queue;
    }

    /** The broker's address as given to the constructor, fit for logs. */
    protected final String broker() {
        return this.broker;
    }

    public final void start() {
        this.thread.start();
    }

    @Override
    public final void run() {
        while (this.running) {
            try {
                consume();
            }
            catch (JMSException | RuntimeException ex) {
                this.connected = false;
                if (this.running) {
                    this.lastError = "Unable to receive from queue " + this.queue + " at " + this.broker + ": "
                            + OutboundSender.describe(ex);
                    log.warn("{}; reconnecting in {} ms", this.lastError, this.backoff.current().toMillis());
                    pause();
                }
            }
        }
    }

    private void consume() throws JMSException {
        try (Connection opened = connect()) {
            this.connection = opened;
            if (!this.running) {
                return;
            }
            Session session = opened.createSession(true, Session.SESSION_TRANSACTED);
            MessageConsumer consumer = session.createConsumer(session.createQueue(this.queue));
            MessageProducer invalid = session.createProducer(session.createQueue(this.invalidQueue));
            opened.start();
            this.connected = true;
            this.lastError = null;
            connected();
            long timeout = this.receiveTimeout.toMillis();
            while (this.running) {
                Message first = consumer.receive(timeout);
                if (first != null) {
                    handle(session, consumer, invalid, first);
                }
            }
        }
        finally {
            this.connected = false;
            this.connection = null;
        }
    }

    protected final Backoff backoff() {
        return this.backoff;
    }

    protected final boolean running() {
        return this.running;
    }

    /** Waits the next back-off, or until stopped. */
    protected final void pause() {
        try {
            this.stopping.await(this.backoff.next().toNanos(), TimeUnit.NANOSECONDS);
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            this.running = false;
        }
    }

    public final boolean isConnected() {
        return this.connected;
    }

    public final @Nullable String lastError() {
        return this.lastError;
    }

    /**
     * Lets the transaction in hand finish, then stops; if the thread does not stop within {@code grace}, closes its
     * connection so what it had not committed is redelivered later.
     */
    public void stop(Duration grace) {
        this.running = false;
        this.stopping.countDown();
        try {
            this.thread.join(this.receiveTimeout.plus(grace));
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
            log.debug("Ignored failure closing the connection reading queue {}: {}", this.queue, ex.toString());
        }
        if (this.thread.isAlive()) {
            log.warn("The reader of queue {} at {} did not stop within {}", this.queue, this.broker, grace);
        }
    }
}
