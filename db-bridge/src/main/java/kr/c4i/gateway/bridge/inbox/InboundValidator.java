package kr.c4i.gateway.bridge.inbox;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

import kr.c4i.gateway.core.Envelope;
import kr.c4i.gateway.kmtf.KmtfRejection;
import kr.c4i.gateway.kmtf.KmtfValidator;
import kr.c4i.gateway.kmtf.ValidatedMessage;

/**
 * Checks a received envelope as strictly as the sending side checks its outbox, whatever transport brought it and
 * whoever wrote it: the fields the inbox stores must be storable and sane, and the body must be UTF-8 KMTF of the
 * declared type within the catalogue's size, with the classification the text itself carries. Cheapest checks
 * first. Thread-safe.
 */
public final class InboundValidator {

    /** Longest message id accepted, in UTF-8 bytes: well inside what the inbox's primary key index can hold. */
    public static final int MAX_MESSAGE_ID_BYTES = 2048;

    /** Longest classification line accepted, in characters. */
    public static final int MAX_CLASSIFICATION_CHARS = 1024;

    /** Earliest accepted creation time: nothing written by a KMTF application predates it. */
    public static final Instant EARLIEST_CREATED_AT = Instant.EPOCH;

    /** How far in the future of this node's clock a creation time may lie (the nodes' clocks disagree). */
    public static final Duration MAX_CLOCK_SKEW = Duration.ofDays(1);

    public static final String INVALID_MESSAGE_ID = "invalid-message-id";
    /** Not the parser's {@code invalid-classification}, which is about the text's own classification line. */
    public static final String INVALID_CLASSIFICATION = "invalid-classification-label";
    public static final String CLASSIFICATION_MISMATCH = "classification-mismatch";
    public static final String INVALID_CREATED_AT = "invalid-created-at";

    /** Why an envelope was refused; {@code kind} is a stable name (a metric tag), {@code reason} is for a person. */
    public record Rejection(String kind, String reason) {
    }

    private final KmtfValidator kmtf;
    private final Clock clock;

    public InboundValidator(KmtfValidator kmtf, Clock clock) {
        this.kmtf = Objects.requireNonNull(kmtf, "kmtf");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /** @return why the envelope must not enter the inbox, or empty if it may */
    public Optional<Rejection> check(Envelope envelope) {
        String id = envelope.messageId();
        if (id.indexOf('\0') >= 0) {
            return reject(INVALID_MESSAGE_ID, "the message id contains a NUL character, which the inbox cannot store");
        }
        int idBytes = id.getBytes(StandardCharsets.UTF_8).length;
        if (idBytes > MAX_MESSAGE_ID_BYTES) {
            return reject(INVALID_MESSAGE_ID, "the message id has " + idBytes + " bytes, more than "
                    + MAX_MESSAGE_ID_BYTES);
        }
        String classification = envelope.classification();
        if (classification.isBlank() || classification.indexOf('\0') >= 0
                || classification.length() > MAX_CLASSIFICATION_CHARS) {
            return reject(INVALID_CLASSIFICATION, "message " + id + ": the classification is blank, contains a NUL "
                    + "character or is longer than " + MAX_CLASSIFICATION_CHARS + " characters");
        }
        Instant created = envelope.createdAt();
        Instant latest = this.clock.instant().plus(MAX_CLOCK_SKEW);
        if (created.isBefore(EARLIEST_CREATED_AT) || created.isAfter(latest)) {
            return reject(INVALID_CREATED_AT, "message " + id + ": created at " + created + ", outside "
                    + EARLIEST_CREATED_AT + " to " + latest + " (this node's clock plus " + MAX_CLOCK_SKEW.toHours()
                    + " h)");
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
        return Optional.empty();
    }

    private static Optional<Rejection> reject(String kind, String reason) {
        return Optional.of(new Rejection(kind, reason));
    }
}
