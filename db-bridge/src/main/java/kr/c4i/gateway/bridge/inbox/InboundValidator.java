package kr.c4i.gateway.bridge.inbox;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

import kr.c4i.gateway.core.Envelope;
import kr.c4i.gateway.kmtf.KmtfRejection;
import kr.c4i.gateway.kmtf.KmtfValidator;
import kr.c4i.gateway.kmtf.ValidatedMessage;
import kr.c4i.gateway.kmtf.text.Classification;

/**
 * Checks a received envelope as strictly as the sending side checks its outbox, whatever transport brought it and
 * whoever wrote it: the fields the inbox stores must be storable and sane, and the body must be UTF-8 KMTF of the
 * declared type within the catalogue's size, with the classification the text itself carries, no higher than this
 * node's clearance (the origin sends nothing above it, but a DDS topic reaches every subscriber of the type).
 * Cheapest checks first. Thread-safe.
 */
public final class InboundValidator {

    /** Longest classification line accepted, in characters. */
    public static final int MAX_CLASSIFICATION_CHARS = 1024;

    public static final String INVALID_MESSAGE_ID = "invalid-message-id";
    /** Not the parser's {@code invalid-classification}, which is about the text's own classification line. */
    public static final String INVALID_CLASSIFICATION = "invalid-classification-label";
    public static final String CLASSIFICATION_MISMATCH = "classification-mismatch";
    public static final String INVALID_CREATED_AT = "invalid-created-at";
    /** The message is classified above this node's clearance. */
    public static final String CLEARANCE_EXCEEDED = "clearance-exceeded";

    /** Why an envelope was refused; {@code kind} is a stable name (a metric tag), {@code reason} is for a person. */
    public record Rejection(String kind, String reason) {
    }

    private final KmtfValidator kmtf;
    private final Classification clearance;

    /** A validator for a node cleared for everything. */
    public InboundValidator(KmtfValidator kmtf) {
        this(kmtf, Classification.TOP_SECRET);
    }

    /** @param clearance this node's clearance: a message classified higher is refused */
    public InboundValidator(KmtfValidator kmtf, Classification clearance) {
        this.kmtf = Objects.requireNonNull(kmtf, "kmtf");
        this.clearance = Objects.requireNonNull(clearance, "clearance");
    }

    /** @return why the envelope must not enter the inbox, or empty if it may */
    public Optional<Rejection> check(Envelope envelope) {
        String id = envelope.messageId();
        if (id.indexOf('\0') >= 0) {
            return reject(INVALID_MESSAGE_ID, "the message id contains a NUL character, which the inbox cannot store");
        }
        int length = id.codePointCount(0, id.length());
        if (length > Envelope.MAX_MESSAGE_ID_LENGTH) {
            return reject(INVALID_MESSAGE_ID, "the message id is " + length + " characters long, more than "
                    + Envelope.MAX_MESSAGE_ID_LENGTH);
        }
        String classification = envelope.classification();
        if (classification.isBlank() || classification.indexOf('\0') >= 0
                || classification.length() > MAX_CLASSIFICATION_CHARS) {
            return reject(INVALID_CLASSIFICATION, "message " + id + ": the classification is blank, contains a NUL "
                    + "character or is longer than " + MAX_CLASSIFICATION_CHARS + " characters");
        }
        // The sending side's own range: a receiver refusing what a sender sends would leave it resending for ever.
        Instant created = envelope.createdAt();
        if (!Envelope.carries(created)) {
            return reject(INVALID_CREATED_AT, "message " + id + ": created at " + created + ", outside "
                    + Envelope.EARLIEST_CREATED_AT + " (inclusive) to " + Envelope.LATEST_CREATED_AT + " (exclusive)");
        }
        ValidatedMessage valid;
        try {
            valid = this.kmtf.validate(envelope.body(), envelope.kmtfType());
        }
        catch (KmtfRejection rejection) {
            return reject(rejection.kind(), "message " + id + " of type " + envelope.kmtfType() + ": "
                    + rejection.getMessage());
        }
        String carried = valid.message().classification().orElse("UNCLASSIFIED");
        if (!carried.equals(classification)) {
            return reject(CLASSIFICATION_MISMATCH, "message " + id + " is labelled '" + classification
                    + "' but its text is classified '" + carried + "'");
        }
        Classification level = Classification.of(valid.message());
        if (!this.clearance.dominates(level)) {
            return reject(CLEARANCE_EXCEEDED, "message " + id + " is " + level + " ('" + carried
                    + "'); this node is cleared " + this.clearance);
        }
        return Optional.empty();
    }

    private static Optional<Rejection> reject(String kind, String reason) {
        return Optional.of(new Rejection(kind, reason));
    }
}
