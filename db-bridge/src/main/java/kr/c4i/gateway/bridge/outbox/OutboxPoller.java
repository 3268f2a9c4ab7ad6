package kr.c4i.gateway.bridge.outbox;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import javax.sql.DataSource;

import org.jspecify.annotations.Nullable;
import org.postgresql.PGConnection;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import kr.c4i.gateway.bridge.config.OutboxProperties;
import kr.c4i.gateway.bridge.metrics.BridgeMetrics;
import kr.c4i.gateway.core.NodeId;
import kr.c4i.gateway.core.retry.Backoff;
import kr.c4i.gateway.core.transport.TransportBusyException;
import kr.c4i.gateway.core.transport.TransportException;

/**
 * Drains the outbox on one thread. It only waits and dispatches: the {@link OutboxPublisher} claims
 * and sends batches, the {@link OutboxResender} applies receipts and sends again what was missed,
 * the {@link OutboxGauges} read the backlog; the poller decides when, on timers read from its
 * {@link Clock}. It sleeps on the database's {@code LISTEN kmtf_outbox} rather than a fixed interval,
 * so a message is claimed as soon as its insert commits; {@code idlePoll} bounds the wait if a
 * notification is missed. Database and transport failures back off exponentially ({@link Backoff})
 * and keep every row: nothing is marked sent that the transport did not take.
 */
public final class OutboxPoller implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(OutboxPoller.class);
    private static final Duration BACKLOG_REFRESH = Duration.ofSeconds(2);
    private static final Duration RESEND_CHECK = Duration.ofMillis(500);
    /** How soon after receipts arrive an idle poller applies them and resends the gaps they reveal. */
    private static final Duration RECEIPT_CHECK = Duration.ofMillis(20);

    private final DataSource dataSource;
    private final OutboxProperties properties;
    private final OutboxPublisher publisher;
    private final @Nullable OutboxResender resender;
    private final OutboxGauges gauges;
    private final RowFailures failures;
    private final BridgeMetrics metrics;
    private final Clock clock;
    private final Thread thread;
    private volatile boolean running;
    private volatile boolean waiting;
    private volatile @Nullable String problem;
    private volatile boolean stoppedByBadRow;
    private volatile long badRow;
    private volatile boolean failingUnexpectedly;
    /** Sends the transport found busy, logged sparsely: on a slow link it happens again and again. */
    private final AtomicLong busy = new AtomicLong();
    /** Rows left to claim one at a time after a batch failed unexpectedly, so the culprit fails alone. */
    private int isolating;
    private @Nullable String lastLogged;
    private @Nullable Connection listener;
    private Instant nextBacklogRefresh = Instant.MIN;
    private Instant nextResendCheck = Instant.MIN;
    private Instant nextUpkeep = Instant.MIN;
    private Instant lastResendCheck = Instant.MIN;
    /** Receipts were applied since the last look for gaps: an idle poller looks once {@link #RECEIPT_CHECK} allows. */
    private boolean gapCheckOwed;

    /**
     * @param dataSource where it listens for {@code kmtf_outbox} notifications
     * @param resender for transports that receipt instead of storing durably; {@code null} for the others
     * @param failures the rows being retried, which the publisher counts and health reports
     */
    public OutboxPoller(DataSource dataSource, OutboxProperties properties, OutboxPublisher publisher,
            @Nullable OutboxResender resender, OutboxGauges gauges, RowFailures failures, BridgeMetrics metrics,
            Clock clock, NodeId node) {
        this.dataSource = dataSource;
        this.properties = properties;
        this.publisher = publisher;
        this.resender = resender;
        this.gauges = gauges;
        this.failures = failures;
        this.metrics = metrics;
        this.clock = clock;
        this.thread = Thread.ofPlatform().name("outbox-poller-" + node).daemon().unstarted(this::run);
    }

    public void start() {
        running = true;
        thread.start();
    }

    /** Why publishing is not progressing right now, or null when it is. */
    public @Nullable String problem() {
        return problem;
    }

    public boolean stoppedByBadRow() {
        return stoppedByBadRow;
    }

    /** The outbox id of the row that stopped publishing, when {@link #stoppedByBadRow()}. */
    public long badRow() {
        return badRow;
    }

    /** A row that failed and is being retried, until it goes or has used up its attempts. */
    public record RetriedRow(long outboxId, int attempts, int maxAttempts, String lastFailure) {
    }

    /** The oldest row being retried after failures of its own, or null when none is. */
    public @Nullable RetriedRow retriedRow() {
        RowFailures.Failure oldest = failures.oldest();
        return oldest == null ? null
                : new RetriedRow(oldest.outboxId(), oldest.attempts(), failures.maxAttempts(), oldest.reason());
    }

    /** Whether batches fail in a way no row has been blamed for yet (the poller is narrowing it down). */
    public boolean failingUnexpectedly() {
        return failingUnexpectedly;
    }

    /**
     * Whether the poller has drained the outbox and waits, listening: a row whose insert commits from now on
     * wakes it, as does a receipt.
     */
    public boolean waiting() {
        return waiting;
    }

    private void run() {
        Backoff backoff = new Backoff(properties.backoffInitial(), properties.backoffMax());
        while (running) {
            try {
                ensureListening();
                int limit = isolating > 0 ? 1 : properties.batchSize();
                int claimed = publisher.publishBatch(limit, isolating > 0);
                isolating = Math.max(0, isolating - claimed);
                boolean behind = publisher.checkBehind(clock.instant());
                resendUnreceipted(claimed < limit);
                refreshGauges();
                problem = null;
                stoppedByBadRow = false;
                failingUnexpectedly = false;
                lastLogged = null;
                backoff.reset();
                if (claimed < limit && !behind) {
                    awaitNotification(properties.idlePoll());
                }
            }
            catch (SQLException ex) {
                problem = "database unavailable: " + ex.getMessage();
                log.warn("Outbox poll failed, rows kept, retrying in {}: {}", backoff.current(), ex.toString());
                closeListener();
                pause(backoff.next());
            }
            catch (TransportBusyException ex) {
                // The send already waited for room: go on at once (a pause of the first backoff, never longer), or
                // the link idles while the receivers have caught up.
                problem = "transport busy: " + ex.getMessage();
                if (Long.bitCount(busy.incrementAndGet()) == 1) {
                    log.warn("Transport busy, rows kept, sending on (#{}): {}", busy.get(), ex.getMessage());
                }
                pause(properties.backoffInitial());
            }
            catch (TransportException ex) {
                problem = "transport unavailable: " + ex.getMessage();
                metrics.sendFailed();
                log.warn("Transport did not take the batch, rows kept, retrying in {}: {}", backoff.current(),
                        ex.getMessage());
                pause(backoff.next());
            }
            catch (BadRowException ex) {
                problem = ex.getMessage();
                badRow = ex.outboxId();
                stoppedByBadRow = true;
                logOnce(ex.getMessage(), null);
                pause(properties.backoffMax());
            }
            catch (RuntimeException ex) {
                problem = "unexpected failure: " + ex;
                failingUnexpectedly = true;
                // Row by row from here on, so the row it comes from fails alone and is counted (RowFailures).
                isolating = properties.batchSize();
                logOnce("Unexpected outbox failure, rows kept, trying them one at a time: " + ex, ex);
                pause(backoff.next());
            }
        }
        closeListener();
    }

    /** At ERROR (with the stack trace) when it is new, at DEBUG while it repeats. */
    private void logOnce(String message, @Nullable Throwable ex) {
        if (message.equals(lastLogged)) {
            log.debug(message);
            return;
        }
        lastLogged = message;
        log.error(message, ex);
    }

    private void ensureListening() throws SQLException {
        if (listener != null) {
            return;
        }
        Connection connection = dataSource.getConnection();
        try (Statement st = connection.createStatement()) {
            connection.setAutoCommit(true);
            st.execute("LISTEN kmtf_outbox");
        }
        catch (SQLException ex) {
            connection.close();
            throw ex;
        }
        listener = connection;
    }

    private void awaitNotification(Duration timeout) throws SQLException {
        if (listener == null || !running) {
            return;
        }
        // Waits on the socket; returns early when an INSERT commits (or a notification is already queued).
        PGConnection connection = listener.unwrap(PGConnection.class);
        waiting = true;
        try {
            if (resender == null) {
                connection.getNotifications((int) Math.max(1, timeout.toMillis()));
                return;
            }
            // Receipts cannot wake a thread blocked on the socket, so it waits in slices and looks for them, and for
            // the look for gaps they owe, between: a receiver that just caught up from the writer's history gets the
            // rest without waiting for idlePoll. The socket's wait is real time, whatever the clock says.
            long deadline = System.nanoTime() + timeout.toNanos();
            while (running && !resender.hasQueuedReceipts() && !gapCheckDue(clock.instant())) {
                long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
                if (left <= 0
                        || connection.getNotifications((int) Math.min(left, RECEIPT_CHECK.toMillis())).length > 0) {
                    return;
                }
            }
        }
        finally {
            waiting = false;
        }
    }

    /** @param idle whether the outbox had less than a batch waiting, so checking for gaps now delays nothing */
    private void resendUnreceipted(boolean idle) throws SQLException, TransportException, BadRowException {
        if (resender == null) {
            return;
        }
        int applied = resender.applyReceipts();
        Instant now = clock.instant();
        if (!now.isBefore(nextUpkeep)) {
            resender.upkeep();
            nextUpkeep = now.plus(RESEND_CHECK);
        }
        // Receipts that come too soon after the last look are looked at once RECEIPT_CHECK has passed, not at the next
        // RESEND_CHECK: the receiver that came back may send no more until it has the rest.
        gapCheckOwed |= applied > 0;
        boolean gapsMayShow = idle && gapCheckDue(now);
        if (now.isBefore(nextResendCheck) && !gapsMayShow) {
            return;
        }
        int due;
        do {
            due = resender.resendDue(properties.batchSize());
        }
        while (running && due == properties.batchSize());
        gapCheckOwed = false;
        lastResendCheck = now;
        nextResendCheck = now.plus(RESEND_CHECK);
    }

    /** Whether a look for gaps is owed to receipts and may be taken at {@code now}. */
    private boolean gapCheckDue(Instant now) {
        return gapCheckOwed && !now.isBefore(lastResendCheck.plus(RECEIPT_CHECK));
    }

    private void refreshGauges() throws SQLException {
        Instant now = clock.instant();
        if (now.isAfter(nextBacklogRefresh)) {
            gauges.refresh();
            nextBacklogRefresh = now.plus(BACKLOG_REFRESH);
        }
    }

    private void pause(Duration wait) {
        try {
            Thread.sleep(wait);
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            running = false;
        }
    }

    private void closeListener() {
        if (listener != null) {
            try {
                listener.close();
            }
            catch (SQLException ex) {
                log.debug("Closing the LISTEN connection failed", ex);
            }
            listener = null;
        }
    }

    @Override
    public void close() {
        running = false;
        if (!thread.isAlive()) {
            return;
        }
        thread.interrupt();
        try {
            thread.join(Duration.ofSeconds(10));
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
    }
}
