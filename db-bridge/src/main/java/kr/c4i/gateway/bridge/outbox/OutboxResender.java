package kr.c4i.gateway.bridge.outbox;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import javax.sql.DataSource;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import kr.c4i.gateway.bridge.metrics.BridgeMetrics;
import kr.c4i.gateway.bridge.quarantine.QuarantineRepository;
import kr.c4i.gateway.bridge.quarantine.QuarantineRepository.Refusal;
import kr.c4i.gateway.core.NodeId;
import kr.c4i.gateway.core.transport.Outbound;
import kr.c4i.gateway.core.transport.Transport;
import kr.c4i.gateway.core.transport.TransportException;
import kr.c4i.gateway.custody.CustodyEvent;
import kr.c4i.gateway.custody.CustodyLog;
import kr.c4i.gateway.kmtf.KmtfRejection;
import kr.c4i.gateway.tracing.MessageTracing;

/**
 * Sends again, for transports that receipt instead of storing durably (DDS), the RELIABLE messages
 * the {@link DeliveryLedger} says a destination has not got; applies the receipts the transport
 * queued. The poller decides when, between its own transactions. The custody log records what was sent again and
 * refused in the resend's transaction. A resend is a send: its messages have their spans ({@link MessageTracing}).
 */
public final class OutboxResender {

    private static final Logger log = LoggerFactory.getLogger(OutboxResender.class);

    private final DataSource dataSource;
    private final DeliveryLedger ledger;
    private final RowEnvelopes envelopes;
    private final Transport transport;
    private final BridgeMetrics metrics;
    private final QuarantineRepository quarantine;
    private final NodeId node;
    private final CustodyLog custody;
    private final MessageTracing tracing;

    OutboxResender(DataSource dataSource, DeliveryLedger ledger, RowEnvelopes envelopes, Transport transport,
            BridgeMetrics metrics, QuarantineRepository quarantine, NodeId node, CustodyLog custody) {
        this(dataSource, ledger, envelopes, transport, metrics, quarantine, node, custody, MessageTracing.off());
    }

    OutboxResender(DataSource dataSource, DeliveryLedger ledger, RowEnvelopes envelopes, Transport transport,
            BridgeMetrics metrics, QuarantineRepository quarantine, NodeId node, CustodyLog custody,
            MessageTracing tracing) {
        this.dataSource = dataSource;
        this.ledger = ledger;
        this.envelopes = envelopes;
        this.transport = transport;
        this.metrics = metrics;
        this.quarantine = quarantine;
        this.node = node;
        this.custody = custody;
        this.tracing = tracing;
    }

    /** Whether receipts wait to be applied: an idle poller wakes for them. */
    boolean hasQueuedReceipts() {
        return ledger.hasQueuedReceipts();
    }

    /** Writes the receipts the transport queued; returns how many. */
    int applyReceipts() throws SQLException {
        return ledger.applyReceipts();
    }

    /**
     * The ledger's upkeep ({@link DeliveryLedger#upkeep}): what waited long for receipts into the ledger, this bridge
     * heard of, and what bridges no longer heard of awaited taken over, owed to the destinations the message would be
     * sent to now.
     */
    void upkeep() throws SQLException {
        ledger.upkeep(this::owed);
    }

    private Optional<Outbound> owed(OutboxRow row) {
        try {
            return Optional.of(envelopes.cleared(envelopes.outbound(row)));
        }
        catch (KmtfRejection | RowEnvelopes.InvalidRowException | RuntimeException ex) {
            // Only possible if the catalogue changed since it was sent.
            log.warn("Not taking over message {}: {}", row.messageId(), ex.toString());
            return Optional.empty();
        }
    }

    /**
     * Sends again, in one transaction, up to {@code limit} deliveries that are due.
     *
     * @return how many deliveries were due; {@code limit} means there may be more
     */
    int resendDue(int limit) throws SQLException, TransportException, BadRowException {
        return OutboxTransaction.inTransaction(dataSource, tx -> resend(tx, limit));
    }

    /**
     * A destination whose clearance was lowered below the message's since it was first sent: not sent it again, and
     * no longer awaited; quarantined and counted as the publisher does.
     */
    private void refuseUncleared(Connection tx, CustodyLog.Entries steps, OutboxRow row, Outbound owed)
            throws SQLException {
        for (NodeId destination : envelopes.uncleared(owed)) {
            String reason = envelopes.refusal(owed, destination);
            quarantine.copy(tx, new Refusal(row.id(), row.messageId(), row.kmtfType(),
                    OutboxPublisher.CLEARANCE_EXCEEDED, reason), node.value());
            ledger.drop(tx, row.messageId(), destination);
            steps.add(CustodyEvent.REFUSED, row.messageId(), List.of(destination), owed.envelope().precedence(),
                    OutboxPublisher.CLEARANCE_EXCEEDED + ": " + reason);
            metrics.clearanceRefused(destination.value());
            metrics.quarantined(OutboxPublisher.CLEARANCE_EXCEEDED);
            log.warn("Outbox row {} (message '{}', type {}) not resent to {}: {}", row.id(), row.messageId(),
                    row.kmtfType(), destination, reason);
        }
    }

    private int resend(Connection tx, int limit) throws SQLException, TransportException {
        List<DeliveryLedger.Due> due = ledger.claimDue(tx, limit);
        if (due.isEmpty()) {
            return 0;
        }
        // One publication per message, whichever destinations still lack it: a topic reaches them all.
        Map<String, List<NodeId>> destinations = new LinkedHashMap<>();
        Map<String, OutboxRow> rows = new LinkedHashMap<>();
        for (DeliveryLedger.Due d : due) {
            destinations.computeIfAbsent(d.messageId(), k -> new ArrayList<>()).add(d.destination());
            rows.putIfAbsent(d.messageId(), d.row());
        }
        List<Outbound> again = new ArrayList<>();
        CustodyLog.Entries steps = custody.entries();
        for (OutboxRow row : rows.values()) {
            try {
                Outbound outbound = envelopes.outbound(row);
                Outbound owed = new Outbound(outbound.envelope(), outbound.type(), destinations.get(row.messageId()));
                refuseUncleared(tx, steps, row, owed);
                Outbound cleared = envelopes.cleared(owed);
                if (!cleared.destinations().isEmpty()) {
                    again.add(cleared);
                }
            }
            catch (KmtfRejection | RowEnvelopes.InvalidRowException | RuntimeException ex) {
                // Only possible if the catalogue changed since it was sent; keep trying with the rest.
                log.warn("Not resending message {}: {}", row.messageId(), ex.toString());
            }
        }
        List<Outbound> resent = again;
        try {
            send(again);
        }
        catch (RuntimeException ex) {
            // Resend what the transport takes; the rest is rescheduled like the others, with a longer wait each time.
            log.warn("Resending {} messages failed ({}); resending them one at a time", again.size(), ex.toString());
            resent = new ArrayList<>();
            for (Outbound outbound : again) {
                try {
                    send(List.of(outbound));
                    resent.add(outbound);
                }
                catch (RuntimeException one) {
                    log.warn("Not resending message {}: {}", outbound.envelope().messageId(), one.toString());
                }
            }
        }
        for (Outbound outbound : resent) {
            steps.add(CustodyEvent.RESENT, outbound.envelope().messageId(), outbound.destinations(),
                    outbound.envelope().precedence(), null);
        }
        steps.write(tx);
        ledger.reschedule(tx, due);
        metrics.resent(again.size());
        return due.size();
    }

    private void send(List<Outbound> batch) throws TransportException {
        tracing.send(metrics.transport().label(), batch, transport::send);
    }
}
