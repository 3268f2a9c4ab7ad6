package kr.c4i.gateway.bridge.outbox;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.TimeUnit;

import javax.sql.DataSource;

import org.jspecify.annotations.Nullable;
import org.postgresql.PGConnection;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import kr.c4i.gateway.bridge.config.OutboxProperties;
import kr.c4i.gateway.bridge.metrics.BridgeMetrics;
import kr.c4i.gateway.bridge.quarantine.QuarantineRepository;
import kr.c4i.gateway.core.NodeId;
import kr.c4i.gateway.core.routing.RoutingTable;
import kr.c4i.gateway.core.transport.Transport;
import kr.c4i.gateway.core.transport.TransportException;
import kr.c4i.gateway.kmtf.KmtfValidator;

/**
 * Drains the outbox on one thread. It sleeps on the database's {@code LISTEN kmtf_outbox} rather
 * than a fixed interval, so a message is claimed as soon as its insert commits; {@code idlePoll}
 * bounds the wait if a notification is missed. Database and transport failures back off
 * exponentially and keep every row: nothing is marked sent that the transport did not take.
 */
public final class OutboxPoller implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(OutboxPoller.class);
    private static final Duration BACKLOG_REFRESH = Duration.ofSeconds(2);
    private static final Duration RESEND_CHECK = Duration.ofMillis(500);
    /** How soon after receipts arrive an idle poller applies them and resends the gaps they reveal. */
    private static final Duration RECEIPT_CHECK = Duration.ofMillis(20);
    private static final Duration RECEIPT_RETENTION = Duration.ofHours(1);

    private final DataSource dataSource;
    private final OutboxProperties properties;
    private final OutboxPublisher publisher;
    private final OutboxRepository outbox;
    private final BridgeMetrics metrics;
    private final @Nullable DeliveryLedger ledger;
    private final Thread thread;
    private volatile boolean running;
    private volatile @Nullable String problem;
    private volatile boolean stoppedByBadRow;
    private volatile long badRow;
    private volatile boolean failingUnexpectedly;
    private final RowFailures failures;
    /** Rows left to claim one at a time after a batch failed unexpectedly, so the culprit fails alone. */
    private int isolating;
    private @Nullable String lastLogged;
    private @Nullable Connection listener;
    private Instant nextBacklogRefresh = Instant.MIN;
    private Instant nextResendCheck = Instant.MIN;
    private Instant lastResendCheck = Instant.MIN;
    private Instant nextForget = Instant.MIN;

    /**
     * @param ledger where deliveries await receipts, for transports that receipt instead of storing
     *        durably; {@code null} for the others
     */
    public OutboxPoller(DataSource dataSource, OutboxProperties properties, KmtfValidator validator,
            RoutingTable routing, NodeId node, Transport transport, BridgeMetrics metrics,
            @Nullable DeliveryLedger ledger) {
        this.dataSource = dataSource;
        this.properties = properties;
        this.outbox = new OutboxRepository(dataSource);
        this.metrics = metrics;
        this.ledger = ledger;
        this.failures = new RowFailures(properties.maxRowAttempts());
        this.publisher = new OutboxPublisher(dataSource, outbox, new QuarantineRepository(), validator, routing, node,
                transport, metrics, properties.badRowPolicy(), ledger, failures);
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

    private void run() {
        Duration backoff = properties.backoffInitial();
        while (running) {
            try {
                ensureListening();
                int limit = isolating > 0 ? 1 : properties.batchSize();
                int claimed = publisher.publishBatch(limit);
                isolating = Math.max(0, isolating - claimed);
                resendUnreceipted(claimed < limit);
                refreshBacklog();
                problem = null;
                stoppedByBadRow = false;
                failingUnexpectedly = false;
                lastLogged = null;
                backoff = properties.backoffInitial();
                if (claimed < limit) {
                    awaitNotification(properties.idlePoll());
                }
            }
            catch (SQLException ex) {
                problem = "database unavailable: " + ex.getMessage();
                log.warn("Outbox poll failed, rows kept, retrying in {}: {}", backoff, ex.toString());
                closeListener();
                backoff = pause(backoff);
            }
            catch (TransportException ex) {
                problem = "transport unavailable: " + ex.getMessage();
                metrics.sendFailed();
                log.warn("Transport did not take the batch, rows kept, retrying in {}: {}", backoff, ex.getMessage());
                backoff = pause(backoff);
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
                backoff = pause(backoff);
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
        if (ledger == null) {
            connection.getNotifications((int) Math.max(1, timeout.toMillis()));
            return;
        }
        // Receipts cannot wake a thread blocked on the socket, so it waits in slices and looks for them between:
        // a receiver that just caught up from the writer's history gets the rest without waiting for idlePoll.
        long deadline = System.nanoTime() + timeout.toNanos();
        while (running && !ledger.hasQueuedReceipts()) {
            long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
            if (left <= 0 || connection.getNotifications((int) Math.min(left, RECEIPT_CHECK.toMillis())).length > 0) {
                return;
            }
        }
    }

    /** @param idle whether the outbox had less than a batch waiting, so checking for gaps now delays nothing */
    private void resendUnreceipted(boolean idle) throws SQLException, TransportException, BadRowException {
        if (ledger == null) {
            return;
        }
        int applied = ledger.applyReceipts();
        Instant now = Instant.now();
        boolean gapsMayShow = idle && applied > 0 && !now.isBefore(lastResendCheck.plus(RECEIPT_CHECK));
        if (now.isBefore(nextResendCheck) && !gapsMayShow) {
            return;
        }
        int due;
        do {
            due = publisher.resendDue(properties.batchSize());
        }
        while (running && due == properties.batchSize());
        lastResendCheck = now;
        nextResendCheck = now.plus(RESEND_CHECK);
        if (now.isAfter(nextForget)) {
            ledger.forgetReceipted(RECEIPT_RETENTION);
            nextForget = now.plus(RECEIPT_RETENTION.dividedBy(12));
        }
    }

    private void refreshBacklog() throws SQLException {
        Instant now = Instant.now();
        if (now.isAfter(nextBacklogRefresh)) {
            metrics.backlog(outbox.backlog());
            if (!failures.ids().isEmpty()) {
                failures.retainOnly(outbox.waiting(failures.ids()));
            }
            if (ledger != null) {
                metrics.unreceipted(ledger.unreceipted());
            }
            nextBacklogRefresh = now.plus(BACKLOG_REFRESH);
        }
    }

    private Duration pause(Duration backoff) {
        try {
            Thread.sleep(backoff);
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            running = false;
        }
        Duration doubled = backoff.multipliedBy(2);
        return doubled.compareTo(properties.backoffMax()) > 0 ? properties.backoffMax() : doubled;
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
