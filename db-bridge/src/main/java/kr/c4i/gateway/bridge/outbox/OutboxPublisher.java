package kr.c4i.gateway.bridge.outbox;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import java.util.function.ToLongFunction;
import java.util.stream.Collectors;

import javax.sql.DataSource;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import kr.c4i.gateway.bridge.config.OutboxProperties.BadRowPolicy;
import kr.c4i.gateway.bridge.metrics.BridgeMetrics;
import kr.c4i.gateway.bridge.quarantine.QuarantineRepository;
import kr.c4i.gateway.bridge.quarantine.QuarantineRepository.Refusal;
import kr.c4i.gateway.core.NodeId;
import kr.c4i.gateway.core.transport.MessageRejectedException;
import kr.c4i.gateway.core.transport.Outbound;
import kr.c4i.gateway.core.transport.Transport;
import kr.c4i.gateway.core.transport.TransportBusyException;
import kr.c4i.gateway.core.transport.TransportException;
import kr.c4i.gateway.custody.CustodyEvent;
import kr.c4i.gateway.custody.CustodyLog;
import kr.c4i.gateway.kmtf.KmtfRejection;
import kr.c4i.gateway.tracing.MessageTracing;

/**
 * One outbox transaction: claim a batch, refuse what is not valid KMTF, hand the rest to the
 * transport, and mark rows sent only after the transport has taken responsibility. An outage
 * (database or transport) rolls the batch back, so the rows stay in the outbox and are sent again;
 * the receivers' inbox absorbs the duplicates. Anything else is a matter of one row: a row that can
 * never be an envelope is refused at once, one that fails unexpectedly is retried alone until
 * {@link RowFailures} says it has used up its attempts; the others of the batch go on. The custody log records what
 * was sent, quarantined and refused in the same transaction, in one statement. Each send has its messages' spans
 * ({@link MessageTracing}).
 */
public final class OutboxPublisher {

    private static final Logger log = LoggerFactory.getLogger(OutboxPublisher.class);

    static final String REPEATED_FAILURE = "repeated-failure";

    /** The quarantine's reason kind for a message refused to a destination whose clearance it exceeds. */
    public static final String CLEARANCE_EXCEEDED = "clearance-exceeded";

    private final DataSource dataSource;
    private final OutboxRepository outbox;
    private final QuarantineRepository quarantine;
    private final RowEnvelopes envelopes;
    private final NodeId node;
    private final Transport transport;
    private final BridgeMetrics metrics;
    private final BadRowPolicy badRowPolicy;
    private final @Nullable DeliveryLedger ledger;
    private final RowFailures failures;
    private final CustodyLog custody;
    private final MessageTracing tracing;

    /**
     * @param ledger where RELIABLE deliveries await receipts, for transports that receipt instead of storing
     *        durably; {@code null} for the others
     */
    OutboxPublisher(DataSource dataSource, OutboxRepository outbox, QuarantineRepository quarantine,
            RowEnvelopes envelopes, NodeId node, Transport transport, BridgeMetrics metrics, BadRowPolicy badRowPolicy,
            @Nullable DeliveryLedger ledger, RowFailures failures, CustodyLog custody) {
        this(dataSource, outbox, quarantine, envelopes, node, transport, metrics, badRowPolicy, ledger, failures,
                custody, MessageTracing.off());
    }

    OutboxPublisher(DataSource dataSource, OutboxRepository outbox, QuarantineRepository quarantine,
            RowEnvelopes envelopes, NodeId node, Transport transport, BridgeMetrics metrics, BadRowPolicy badRowPolicy,
            @Nullable DeliveryLedger ledger, RowFailures failures, CustodyLog custody, MessageTracing tracing) {
        this.dataSource = dataSource;
        this.outbox = outbox;
        this.quarantine = quarantine;
        this.envelopes = envelopes;
        this.node = node;
        this.transport = transport;
        this.metrics = metrics;
        this.badRowPolicy = badRowPolicy;
        this.ledger = ledger;
        this.failures = failures;
        this.custody = custody;
        this.tracing = tracing;
    }

    /** @return how many rows were claimed; fewer than {@code limit} means the outbox is drained */
    int publishBatch(int limit) throws SQLException, TransportException, BadRowException {
        return publishBatch(limit, false);
    }

    /**
     * @param isolating whether the poller claims row by row to isolate a failure: then rows go in id order only
     * @return how many rows were claimed, or {@code limit} when the transport was busy before it took them all;
     *         fewer than {@code limit} means the outbox is drained
     */
    int publishBatch(int limit, boolean isolating) throws SQLException, TransportException, BadRowException {
        Published published = OutboxTransaction.inTransaction(dataSource, tx -> publish(tx, limit, isolating));
        outbox.claimedUpTo(published.resumeAt());
        if (ledger != null) {
            ledger.await(published.awaiting());
        }
        return published.cutShort() ? limit : published.claimed();
    }

    /**
     * Whether there are rows to claim behind the last claims (committed late, or given back by another bridge's
     * rollback), so the poller should not wait for a notification ({@link OutboxCursor#check}).
     */
    boolean checkBehind(Instant now) throws SQLException {
        return outbox.checkBehind(now);
    }

    /**
     * What one transaction claimed, where the next claim resumes (at the first row it left unsent, to be tried again,
     * or after its last; {@link OutboxCursor#NONE} if it claimed none), the receipts its sends await once it has
     * committed, and whether the transport was busy before it took every row sent.
     */
    private record Published(int claimed, long resumeAt, DeliveryLedger.Sent awaiting, boolean cutShort) {
    }

    /** What one transaction's send left awaiting receipts, and whether the transport took less than it was given. */
    private record Sent(DeliveryLedger.Sent awaiting, boolean cutShort) {
    }

    private Published publish(Connection tx, int limit, boolean isolating)
            throws SQLException, TransportException, BadRowException {
        OutboxRepository.Claim claim = outbox.claim(tx, limit, isolating);
        List<OutboxRow> rows = claim.rows();
        if (rows.isEmpty()) {
            return new Published(0, OutboxCursor.NONE, DeliveryLedger.Sent.NONE, false);
        }
        metrics.polled(rows.size());
        Sent outcome;
        Map<String, OutboxRow> sent = new LinkedHashMap<>();
        try {
            outcome = publish(tx, rows, claim.ahead(), sent);
        }
        catch (RuntimeException ex) {
            // Failures of one row are handled below; this one is of the batch. Alone in it, the row is the suspect:
            // count it, and once it has used up its attempts the next claim quarantines it.
            if (rows.size() == 1) {
                failures.record(rows.getFirst().id(), ex);
            }
            throw ex;
        }
        // A row quarantined is out of the outbox; one that failed alone stays unsent, and is the next claim's first.
        // Rows claimed ahead of the rows in order do not move the cursor: the rows between are still to be claimed.
        if (claim.inOrder().isEmpty()) {
            return new Published(rows.size(), OutboxCursor.NONE, outcome.awaiting(), outcome.cutShort());
        }
        long end = claim.inOrder().getLast().id() + 1;
        long resumeAt = rows.stream().filter(row -> !sent.containsKey(row.messageId())).mapToLong(OutboxRow::id)
                .filter(id -> id < end).min().orElse(end);
        return new Published(rows.size(), resumeAt, outcome.awaiting(), outcome.cutShort());
    }

    /**
     * @param ahead the rows among {@code rows} claimed ahead of the rest
     * @param rowsById filled with the rows sent, by message id
     */
    private Sent publish(Connection tx, List<OutboxRow> rows, List<OutboxRow> ahead,
            Map<String, OutboxRow> rowsById) throws SQLException, TransportException, BadRowException {
        Map<String, Outbound> toSend = new LinkedHashMap<>();
        CustodyLog.Entries steps = custody.entries();
        for (OutboxRow row : rows) {
            RowFailures.Failure exhausted = failures.exhausted(row.id());
            if (exhausted != null) {
                refuse(tx, steps, row, REPEATED_FAILURE, repeatedFailure(exhausted.attempts(), exhausted.reason()));
                continue;
            }
            try {
                Outbound outbound = envelopes.outbound(row);
                List<NodeId> refused = envelopes.uncleared(outbound);
                if (!refused.isEmpty()) {
                    refuseDestinations(tx, steps, row, outbound, refused);
                    if (refused.size() == outbound.destinations().size()) {
                        continue;
                    }
                    outbound = envelopes.cleared(outbound);
                }
                toSend.put(row.messageId(), outbound);
                rowsById.put(row.messageId(), row);
            }
            catch (KmtfRejection rejection) {
                refuse(tx, steps, row, rejection.kind(), rejection.getMessage());
            }
            catch (RowEnvelopes.InvalidRowException invalid) {
                refuse(tx, steps, row, invalid.kind(), invalid.getMessage());
            }
            catch (RuntimeException ex) {
                failed(tx, steps, row, "while its envelope was built", ex);
            }
        }
        boolean cutShort = send(tx, steps, toSend, rowsById);
        // The send's step is found through the outbox rows it marks: logged first, so that they can name its row.
        Map<String, Integer> sentEntries = new HashMap<>();
        for (Outbound outbound : toSend.values()) {
            sentEntries.put(outbound.envelope().messageId(), steps.size());
            steps.addFoundThrough(OutboxRepository.TABLE, CustodyEvent.SENT, outbound.envelope().messageId(),
                    outbound.destinations(), outbound.envelope().precedence(), null);
        }
        CustodyLog.Written logged = steps.write(tx);
        ToLongFunction<String> sentIn = id -> logged.row(sentEntries.getOrDefault(id, -1));
        List<OutboxRow> sent = List.copyOf(rowsById.values());
        outbox.markSent(tx, sent, node.value(), sentIn);
        sent.forEach(row -> failures.clear(row.id()));
        metrics.published(sent.size());
        return new Sent(ledger == null ? DeliveryLedger.Sent.NONE
                : ledger.sent(tx, List.copyOf(toSend.values()), id -> rowsById.get(id).id(), sentIn,
                        aheadOf(ahead)), cutShort);
    }

    private static Predicate<String> aheadOf(List<OutboxRow> ahead) {
        if (ahead.isEmpty()) {
            return id -> false;
        }
        Set<String> ids = ahead.stream().map(OutboxRow::messageId).collect(Collectors.toSet());
        return ids::contains;
    }

    /**
     * Sends what is left in {@code toSend}; removes from both maps what was refused, failed alone, or was not taken
     * by a transport that became busy.
     *
     * @return whether the transport was busy before it took all of it
     */
    private boolean send(Connection tx, CustodyLog.Entries steps, Map<String, Outbound> toSend,
            Map<String, OutboxRow> rowsById) throws SQLException, TransportException, BadRowException {
        while (!toSend.isEmpty()) {
            try {
                send(List.copyOf(toSend.values()));
                return false;
            }
            catch (MessageRejectedException rejected) {
                // The transport will never take this one: quarantine it and send the rest.
                OutboxRow row = rowsById.remove(rejected.messageId());
                if (row == null || toSend.remove(rejected.messageId()) == null) {
                    throw rejected;
                }
                refuse(tx, steps, row, "transport-rejected", rejected.getMessage());
            }
            catch (TransportBusyException busy) {
                if (busy.taken().isEmpty()) {
                    throw busy;
                }
                // What it took is on its way: marked sent in this transaction. The rest stays unsent, and the next
                // claim resumes at it; sent again with it, the taken messages would cross the slow link twice.
                Set<String> taken = Set.copyOf(busy.taken());
                toSend.keySet().retainAll(taken);
                rowsById.keySet().retainAll(taken);
                log.debug("The transport took {} messages of the batch before it was busy; the rest stays unsent: {}",
                        taken.size(), busy.getMessage());
                return true;
            }
            catch (RuntimeException ex) {
                // Not an outage (that is a TransportException): find the message it is about by sending one at a
                // time. Receivers absorb what the failed call may already have sent.
                sendOneByOne(tx, steps, toSend, rowsById, ex);
                return false;
            }
        }
        return false;
    }

    private void sendOneByOne(Connection tx, CustodyLog.Entries steps, Map<String, Outbound> toSend,
            Map<String, OutboxRow> rowsById, RuntimeException batchFailure)
            throws SQLException, TransportException, BadRowException {
        if (toSend.size() > 1) {
            log.warn("The transport failed on a batch of {} messages ({}); sending them one at a time to find the "
                    + "one it fails on", toSend.size(), batchFailure.toString());
        }
        for (String messageId : List.copyOf(toSend.keySet())) {
            OutboxRow row = rowsById.get(messageId);
            try {
                send(List.of(toSend.get(messageId)));
            }
            catch (MessageRejectedException rejected) {
                toSend.remove(messageId);
                rowsById.remove(messageId);
                refuse(tx, steps, row, "transport-rejected", rejected.getMessage());
            }
            catch (RuntimeException ex) {
                toSend.remove(messageId);
                rowsById.remove(messageId);
                failed(tx, steps, row, "in the transport", ex);
            }
        }
    }

    private void send(List<Outbound> batch) throws TransportException {
        tracing.send(metrics.transport().label(), batch, transport::send);
    }

    /** Counts a failure against one row, which stays in the outbox, until it has used up its attempts. */
    private void failed(Connection tx, CustodyLog.Entries steps, OutboxRow row, String where, RuntimeException ex)
            throws SQLException, BadRowException {
        boolean exhausted = failures.record(row.id(), ex);
        if (failures.isFirst(row.id())) {
            // The stack trace once; the retries say only that it failed again.
            log.error("Outbox row {} (message '{}') failed {}; it stays in the outbox and is tried again, at most {} "
                    + "times in a row", row.id(), row.messageId(), where, failures.maxAttempts(), ex);
        }
        else {
            log.warn("Outbox row {} (message '{}') failed {} again: {}", row.id(), row.messageId(), where,
                    ex.toString());
        }
        if (exhausted) {
            refuse(tx, steps, row, REPEATED_FAILURE, repeatedFailure(failures.maxAttempts(), ex.toString()));
        }
    }

    /**
     * Keeps the message in quarantine once per destination its classification exceeds the clearance of, whatever
     * the bad-row policy (the row is not bad, only not for them). Refused to all its destinations, the row leaves
     * the outbox with the last of them, so it is not left pending; otherwise it stays and goes to the others.
     */
    private void refuseDestinations(Connection tx, CustodyLog.Entries steps, OutboxRow row, Outbound outbound,
            List<NodeId> refused) throws SQLException {
        boolean all = refused.size() == outbound.destinations().size();
        for (int i = 0; i < refused.size(); i++) {
            NodeId destination = refused.get(i);
            String reason = envelopes.refusal(outbound, destination);
            Refusal refusal = new Refusal(row.id(), row.messageId(), row.kmtfType(), CLEARANCE_EXCEEDED, reason);
            if (all && i == refused.size() - 1) {
                quarantine.quarantine(tx, refusal, node.value());
                failures.clear(row.id());
            }
            else {
                quarantine.copy(tx, refusal, node.value());
            }
            steps.add(CustodyEvent.REFUSED, row.messageId(), List.of(destination), outbound.envelope().precedence(),
                    CLEARANCE_EXCEEDED + ": " + reason);
            metrics.clearanceRefused(destination.value());
            metrics.quarantined(CLEARANCE_EXCEEDED);
            log.warn("Outbox row {} (message '{}', type {}) refused to {}: {}", row.id(), row.messageId(),
                    row.kmtfType(), destination, reason);
        }
    }

    private static String repeatedFailure(int attempts, String last) {
        return "failed " + attempts + " times in a row (gateway.outbox.max-row-attempts); last: " + last;
    }

    private void refuse(Connection tx, CustodyLog.Entries steps, OutboxRow row, String kind, String reason)
            throws SQLException, BadRowException {
        if (badRowPolicy == BadRowPolicy.FAIL) {
            throw new BadRowException(row.id(), kind, reason);
        }
        // PostgreSQL text cannot hold NUL, and a reason quoting the bad bytes must not fail the quarantine.
        Refusal refusal = new Refusal(row.id(), row.messageId(), row.kmtfType(), kind, reason.replace('\0', '\uFFFD'));
        quarantine.quarantine(tx, refusal, node.value());
        steps.add(CustodyEvent.QUARANTINED, row.messageId(), List.of(), null, kind + ": " + refusal.reason());
        failures.clear(row.id());
        metrics.quarantined(kind);
        log.warn("Quarantined outbox row {} (message '{}', type {}): {}: {}", row.id(), row.messageId(),
                row.kmtfType(), kind, refusal.reason());
    }
}
