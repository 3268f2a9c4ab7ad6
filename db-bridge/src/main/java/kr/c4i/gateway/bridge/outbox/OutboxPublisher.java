package kr.c4i.gateway.bridge.outbox;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import javax.sql.DataSource;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import kr.c4i.gateway.bridge.config.OutboxProperties.BadRowPolicy;
import kr.c4i.gateway.bridge.metrics.BridgeMetrics;
import kr.c4i.gateway.bridge.quarantine.QuarantineRepository;
import kr.c4i.gateway.bridge.quarantine.QuarantineRepository.Refusal;
import kr.c4i.gateway.core.Envelope;
import kr.c4i.gateway.core.NodeId;
import kr.c4i.gateway.core.routing.RoutingTable;
import kr.c4i.gateway.core.transport.MessageRejectedException;
import kr.c4i.gateway.core.transport.Outbound;
import kr.c4i.gateway.core.transport.Transport;
import kr.c4i.gateway.core.transport.TransportException;
import kr.c4i.gateway.kmtf.KmtfRejection;
import kr.c4i.gateway.kmtf.KmtfValidator;
import kr.c4i.gateway.kmtf.ValidatedMessage;
import kr.c4i.gateway.kmtf.catalogue.Precedence;

/**
 * One outbox transaction: claim a batch, refuse what is not valid KMTF, hand the rest to the
 * transport, and mark rows sent only after the transport has taken responsibility. Anything that
 * fails before the commit rolls back, so the rows stay in the outbox and are sent again; the
 * receivers' inbox absorbs the duplicates.
 */
final class OutboxPublisher {

    private static final Logger log = LoggerFactory.getLogger(OutboxPublisher.class);

    private final DataSource dataSource;
    private final OutboxRepository outbox;
    private final QuarantineRepository quarantine;
    private final KmtfValidator validator;
    private final RoutingTable routing;
    private final NodeId node;
    private final Transport transport;
    private final BridgeMetrics metrics;
    private final BadRowPolicy badRowPolicy;
    private final @Nullable DeliveryLedger ledger;

    OutboxPublisher(DataSource dataSource, OutboxRepository outbox, QuarantineRepository quarantine,
            KmtfValidator validator, RoutingTable routing, NodeId node, Transport transport, BridgeMetrics metrics,
            BadRowPolicy badRowPolicy, @Nullable DeliveryLedger ledger) {
        this.dataSource = dataSource;
        this.outbox = outbox;
        this.quarantine = quarantine;
        this.validator = validator;
        this.routing = routing;
        this.node = node;
        this.transport = transport;
        this.metrics = metrics;
        this.badRowPolicy = badRowPolicy;
        this.ledger = ledger;
    }

    /** @return how many rows were claimed; fewer than {@code limit} means the outbox is drained */
    int publishBatch(int limit) throws SQLException, TransportException, BadRowException {
        return inTransaction(tx -> publish(tx, limit));
    }

    /**
     * Sends again the RELIABLE messages whose destinations have not receipted them in time.
     *
     * @return how many deliveries were due
     */
    int resendDue(int limit) throws SQLException, TransportException, BadRowException {
        if (ledger == null) {
            return 0;
        }
        return inTransaction(tx -> resend(tx, ledger, limit));
    }

    private interface Work {
        int run(Connection tx) throws SQLException, TransportException, BadRowException;
    }

    private int inTransaction(Work work) throws SQLException, TransportException, BadRowException {
        try (Connection tx = dataSource.getConnection()) {
            tx.setAutoCommit(false);
            try {
                int result = work.run(tx);
                tx.commit();
                return result;
            }
            catch (SQLException | TransportException | BadRowException | RuntimeException ex) {
                rollbackQuietly(tx, ex);
                throw ex;
            }
        }
    }

    private int resend(Connection tx, DeliveryLedger ledger, int limit) throws SQLException, TransportException {
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
        for (OutboxRow row : rows.values()) {
            try {
                Outbound outbound = outbound(row);
                again.add(new Outbound(outbound.envelope(), outbound.type(), destinations.get(row.messageId())));
            }
            catch (KmtfRejection | InvalidPrecedenceException ex) {
                // Only possible if the catalogue changed since it was sent; keep trying with the rest.
                log.warn("Not resending message {}: {}", row.messageId(), ex.getMessage());
            }
        }
        transport.send(again);
        ledger.reschedule(tx, due);
        metrics.resent(again.size());
        return due.size();
    }

    private int publish(Connection tx, int limit) throws SQLException, TransportException, BadRowException {
        List<OutboxRow> rows = outbox.claim(tx, limit);
        if (rows.isEmpty()) {
            return 0;
        }
        metrics.polled(rows.size());
        Map<String, Outbound> toSend = new LinkedHashMap<>();
        Map<String, OutboxRow> rowsById = new LinkedHashMap<>();
        List<Refusal> refusals = new ArrayList<>();
        for (OutboxRow row : rows) {
            try {
                toSend.put(row.messageId(), outbound(row));
                rowsById.put(row.messageId(), row);
            }
            catch (KmtfRejection rejection) {
                refusals.add(refusal(row, rejection.kind(), rejection.getMessage()));
            }
            catch (InvalidPrecedenceException invalid) {
                refusals.add(refusal(row, "invalid-precedence", invalid.getMessage()));
            }
        }
        for (Refusal refusal : refusals) {
            refuse(tx, refusal);
        }
        while (!toSend.isEmpty()) {
            try {
                transport.send(List.copyOf(toSend.values()));
                break;
            }
            catch (MessageRejectedException rejected) {
                // The transport will never take this one: quarantine it and send the rest.
                OutboxRow row = rowsById.remove(rejected.messageId());
                if (row == null || toSend.remove(rejected.messageId()) == null) {
                    throw rejected;
                }
                refuse(tx, refusal(row, "transport-rejected", rejected.getMessage()));
            }
        }
        List<OutboxRow> sent = List.copyOf(rowsById.values());
        outbox.markSent(tx, sent, node.value());
        if (ledger != null) {
            ledger.record(tx, List.copyOf(toSend.values()));
        }
        metrics.published(sent.size());
        return rows.size();
    }

    private Outbound outbound(OutboxRow row) throws KmtfRejection, InvalidPrecedenceException {
        ValidatedMessage valid = validator.validate(row.body(), row.kmtfType());
        Precedence precedence;
        try {
            precedence = row.precedence() == null ? valid.type().defaultPrecedence() : Precedence.parse(row.precedence());
        }
        catch (IllegalArgumentException ex) {
            throw new InvalidPrecedenceException(ex.getMessage());
        }
        Envelope envelope = new Envelope(row.messageId(), node, row.kmtfType(), precedence,
                valid.message().classification().orElse("UNCLASSIFIED"), row.createdAt(), row.body());
        return new Outbound(envelope, valid.type(), routing.destinations(row.kmtfType(), node));
    }

    private static final class InvalidPrecedenceException extends Exception {

        InvalidPrecedenceException(String message) {
            super(message);
        }
    }

    private static Refusal refusal(OutboxRow row, String kind, String reason) {
        return new Refusal(row.id(), row.messageId(), row.kmtfType(), row.body(), row.createdAt(), kind, reason);
    }

    private void refuse(Connection tx, Refusal refusal) throws SQLException, BadRowException {
        if (badRowPolicy == BadRowPolicy.FAIL) {
            throw new BadRowException(refusal.outboxId(), refusal.kind(), refusal.reason());
        }
        quarantine.quarantine(tx, refusal, node.value());
        metrics.quarantined(refusal.kind());
        log.warn("Quarantined outbox row {} (message {}, type {}): {}: {}", refusal.outboxId(), refusal.messageId(),
                refusal.kmtfType(), refusal.kind(), refusal.reason());
    }

    private static void rollbackQuietly(Connection tx, Exception cause) {
        try {
            tx.rollback();
        }
        catch (SQLException ex) {
            cause.addSuppressed(ex);
        }
    }
}
