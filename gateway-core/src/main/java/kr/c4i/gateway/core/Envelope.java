package kr.c4i.gateway.core;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Arrays;
import java.util.Objects;

import org.jspecify.annotations.Nullable;

import kr.c4i.gateway.kmtf.catalogue.Precedence;

/**
 * One KMTF message in transit, with what every transport must carry beside the text.
 *
 * @param messageId globally unique id given by the origin's outbox; receivers deduplicate on it
 * @param origin the node whose outbox the message came from
 * @param kmtfType the message text format identifier (the catalogue id, e.g. {@code SITREP})
 * @param precedence delivery precedence
 * @param classification security classification line of the message, {@code UNCLASSIFIED} when absent
 * @param createdAt when the C4I application wrote the message into the outbox; end-to-end latency starts here
 * @param body the message text as the application wrote it (UTF-8)
 * @param trace the hops it has passed so far; not part of its identity: two copies that took different paths are
 *        the same message
 * @param traceParent the W3C trace context of its creation, or {@code null} when it has none; carried so that each
 *        hop's spans link to it, and like the trace not part of its identity
 */
public record Envelope(String messageId, NodeId origin, String kmtfType, Precedence precedence,
        String classification, Instant createdAt, byte[] body, HopTrace trace, @Nullable TraceParent traceParent) {

    /**
     * The earliest creation time every transport carries: DDS sends nanoseconds since the epoch in 64 bits, which
     * reach from 1677-09-21 to 2262-04-11; whole years inside that. The sending side refuses rows outside this range
     * (and V3's constraint on the outbox says the same), so a receiver accepts exactly what a sender sends.
     */
    public static final Instant EARLIEST_CREATED_AT = Instant.parse("1678-01-01T00:00:00Z");

    /** The first creation time past the range every transport carries (exclusive); see {@link #EARLIEST_CREATED_AT}. */
    public static final Instant LATEST_CREATED_AT = Instant.parse("2262-01-01T00:00:00Z");

    /** Longest message id, in characters (code points): small enough for any receiver's inbox key. */
    public static final int MAX_MESSAGE_ID_LENGTH = 255;

    /**
     * Whether every transport carries this creation time: from {@link #EARLIEST_CREATED_AT} (inclusive) to
     * {@link #LATEST_CREATED_AT} (exclusive).
     */
    public static boolean carries(Instant createdAt) {
        return !createdAt.isBefore(EARLIEST_CREATED_AT) && createdAt.isBefore(LATEST_CREATED_AT);
    }

    public Envelope {
        Objects.requireNonNull(messageId, "messageId");
        Objects.requireNonNull(origin, "origin");
        Objects.requireNonNull(kmtfType, "kmtfType");
        Objects.requireNonNull(precedence, "precedence");
        Objects.requireNonNull(classification, "classification");
        Objects.requireNonNull(createdAt, "createdAt");
        Objects.requireNonNull(body, "body");
        Objects.requireNonNull(trace, "trace");
        if (messageId.isBlank()) {
            throw new IllegalArgumentException("messageId must not be blank");
        }
    }

    /** A message no hop has stamped yet. */
    public Envelope(String messageId, NodeId origin, String kmtfType, Precedence precedence, String classification,
            Instant createdAt, byte[] body) {
        this(messageId, origin, kmtfType, precedence, classification, createdAt, body, HopTrace.EMPTY, null);
    }

    /** A message with this trace and no trace context. */
    public Envelope(String messageId, NodeId origin, String kmtfType, Precedence precedence, String classification,
            Instant createdAt, byte[] body, HopTrace trace) {
        this(messageId, origin, kmtfType, precedence, classification, createdAt, body, trace, null);
    }

    /** This message with one more hop on its trace. */
    public Envelope withHop(HopTrace.Hop hop) {
        return withTrace(trace.with(hop));
    }

    public Envelope withTrace(HopTrace next) {
        return new Envelope(messageId, origin, kmtfType, precedence, classification, createdAt, body, next,
                traceParent);
    }

    /** This message with this trace context ({@code null}: none). */
    public Envelope withTraceParent(@Nullable TraceParent next) {
        return new Envelope(messageId, origin, kmtfType, precedence, classification, createdAt, body, trace, next);
    }

    /** The trace's text, times after this message's creation ({@link HopTrace#format}). */
    public String traceText() {
        return trace.format(createdAt);
    }

    public String text() {
        return new String(body, StandardCharsets.UTF_8);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Envelope e && messageId.equals(e.messageId) && origin.equals(e.origin)
                && kmtfType.equals(e.kmtfType) && precedence == e.precedence
                && classification.equals(e.classification) && createdAt.equals(e.createdAt)
                && Arrays.equals(body, e.body);
    }

    @Override
    public int hashCode() {
        return Objects.hash(messageId, origin, kmtfType, precedence, classification, createdAt) * 31
                + Arrays.hashCode(body);
    }

    @Override
    public String toString() {
        return "Envelope[" + messageId + " " + kmtfType + " from " + origin + ", " + precedence + ", "
                + body.length + " bytes]";
    }
}
