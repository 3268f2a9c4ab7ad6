package kr.c4i.gateway.bridge.outbox;

import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import kr.c4i.gateway.bridge.metrics.BridgeMetrics;
import kr.c4i.gateway.core.Envelope;
import kr.c4i.gateway.core.HopTrace;
import kr.c4i.gateway.core.NodeId;
import kr.c4i.gateway.core.TraceParent;
import kr.c4i.gateway.core.routing.Clearances;
import kr.c4i.gateway.core.routing.RoutingTable;
import kr.c4i.gateway.core.transport.Outbound;
import kr.c4i.gateway.kmtf.KmtfRejection;
import kr.c4i.gateway.kmtf.KmtfValidator;
import kr.c4i.gateway.kmtf.ValidatedMessage;
import kr.c4i.gateway.kmtf.catalogue.Precedence;
import kr.c4i.gateway.kmtf.text.Classification;

/**
 * Turns an outbox row into what the transport takes: a valid KMTF message in an envelope from this
 * node, addressed to the type's subscribers. Shared by the publisher and the resender, so a message
 * sent again is built exactly as it was the first time (but for the time of the send on its trace); both leave out the destinations whose clearance the
 * message's classification exceeds ({@link #uncleared}). The row's traceparent, the application's creation context,
 * goes with the message; one that is not a traceparent is left behind, and the message goes without.
 */
public final class RowEnvelopes {

    private static final Logger log = LoggerFactory.getLogger(RowEnvelopes.class);

    // Rows whose traceparent was reported: a row built again (its batch retried after an outage, a resend) is not
    // logged or counted again. Bounded: a row reported long ago may be reported once more.
    private static final int REPORTED_ROWS = 4096;

    private final KmtfValidator validator;
    private final RoutingTable routing;
    private final NodeId node;
    private final Clearances clearances;
    private final BridgeMetrics metrics;
    private final Set<Long> reported = Collections.synchronizedSet(Collections.newSetFromMap(
            new LinkedHashMap<Long, Boolean>() {
                @Override
                protected boolean removeEldestEntry(Map.Entry<Long, Boolean> eldest) {
                    return size() > REPORTED_ROWS;
                }
            }));

    RowEnvelopes(KmtfValidator validator, RoutingTable routing, NodeId node, Clearances clearances,
            BridgeMetrics metrics) {
        this.validator = validator;
        this.routing = routing;
        this.node = node;
        this.clearances = clearances;
        this.metrics = metrics;
    }

    /** The level of a message this node built: its label comes from its own validated text. */
    private static Classification level(Outbound outbound) {
        return Classification.ofLine(outbound.envelope().classification());
    }

    /** The destinations of {@code outbound} whose clearance its classification exceeds, in order. */
    List<NodeId> uncleared(Outbound outbound) {
        Classification level = level(outbound);
        return outbound.destinations().stream().filter(d -> !clearances.clears(d.value(), level)).toList();
    }

    /** Why {@code outbound} is not sent to {@code destination}: the quarantine's reason. */
    String refusal(Outbound outbound, NodeId destination) {
        return "destination " + destination + " is cleared " + clearances.of(destination.value())
                + "; the message is " + level(outbound) + " ('" + outbound.envelope().classification()
                + "'): not sent there";
    }

    /** {@code outbound} addressed only to the destinations cleared for it. */
    Outbound cleared(Outbound outbound) {
        List<NodeId> refused = uncleared(outbound);
        if (refused.isEmpty()) {
            return outbound;
        }
        return new Outbound(outbound.envelope(), outbound.type(),
                outbound.destinations().stream().filter(d -> !refused.contains(d)).toList());
    }

    Outbound outbound(OutboxRow row) throws KmtfRejection, InvalidRowException {
        String id = row.messageId();
        if (id.isBlank()) {
            throw new InvalidRowException("invalid-message-id", "message_id '" + id + "' is blank");
        }
        int length = id.codePointCount(0, id.length());
        if (length > Envelope.MAX_MESSAGE_ID_LENGTH) {
            throw new InvalidRowException("invalid-message-id", "message_id is " + length
                    + " characters long; at most " + Envelope.MAX_MESSAGE_ID_LENGTH + " are allowed");
        }
        Instant createdAt = row.createdAt();
        if (!Envelope.carries(createdAt)) {
            throw new InvalidRowException("invalid-created-at", "created_at " + describe(createdAt)
                    + " is outside the range every transport carries, from " + Envelope.EARLIEST_CREATED_AT
                    + " (inclusive) to " + Envelope.LATEST_CREATED_AT + " (exclusive)");
        }
        ValidatedMessage valid = validator.validate(row.body(), row.kmtfType());
        Precedence precedence;
        try {
            precedence = row.precedence() == null ? valid.type().defaultPrecedence() : Precedence.parse(row.precedence());
        }
        catch (IllegalArgumentException ex) {
            throw new InvalidRowException("invalid-precedence", ex.getMessage());
        }
        Envelope envelope;
        try {
            envelope = new Envelope(id, node, row.kmtfType(), precedence,
                    valid.message().classification().orElse("UNCLASSIFIED"), createdAt, row.body())
                    .withHop(HopTrace.Hop.node(node, HopTrace.Action.SENT, Instant.now()))
                    .withTraceParent(traceParent(row));
        }
        catch (IllegalArgumentException ex) {
            throw new InvalidRowException("invalid-envelope", ex.getMessage());
        }
        return new Outbound(envelope, valid.type(), routing.destinations(row.kmtfType(), node));
    }

    /** The row's creation context; none, and a WARN and a count, for a value that is not one. */
    private @Nullable TraceParent traceParent(OutboxRow row) {
        return TraceParent.carried(row.traceParent(), reason -> {
            if (reported.add(row.id())) {
                metrics.invalidTraceParent();
                log.warn("Outbox row {} (message '{}') has a traceparent that is not one; the message goes without "
                        + "it: {}", row.id(), row.messageId(), reason);
            }
        });
    }

    private static String describe(Instant createdAt) {
        if (createdAt.equals(Instant.MAX)) {
            return "infinity";
        }
        return createdAt.equals(Instant.MIN) ? "-infinity" : createdAt.toString();
    }

    /** The row can never become an envelope as it is. */
    static final class InvalidRowException extends Exception {

        private final String kind;

        InvalidRowException(String kind, String message) {
            super(message);
            this.kind = kind;
        }

        /** The quarantine's reason kind. */
        String kind() {
            return kind;
        }
    }
}
