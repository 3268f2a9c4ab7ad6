package kr.c4i.gateway.bridge.outbox;

import java.time.Instant;

import kr.c4i.gateway.core.Envelope;
import kr.c4i.gateway.core.NodeId;
import kr.c4i.gateway.core.routing.RoutingTable;
import kr.c4i.gateway.core.transport.Outbound;
import kr.c4i.gateway.kmtf.KmtfRejection;
import kr.c4i.gateway.kmtf.KmtfValidator;
import kr.c4i.gateway.kmtf.ValidatedMessage;
import kr.c4i.gateway.kmtf.catalogue.Precedence;

/**
 * Turns an outbox row into what the transport takes: a valid KMTF message in an envelope from this
 * node, addressed to the type's subscribers. Shared by the publisher and the resender, so a message
 * sent again is built exactly as it was the first time.
 */
public final class RowEnvelopes {

    private final KmtfValidator validator;
    private final RoutingTable routing;
    private final NodeId node;

    RowEnvelopes(KmtfValidator validator, RoutingTable routing, NodeId node) {
        this.validator = validator;
        this.routing = routing;
        this.node = node;
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
                    valid.message().classification().orElse("UNCLASSIFIED"), createdAt, row.body());
        }
        catch (IllegalArgumentException ex) {
            throw new InvalidRowException("invalid-envelope", ex.getMessage());
        }
        return new Outbound(envelope, valid.type(), routing.destinations(row.kmtfType(), node));
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
