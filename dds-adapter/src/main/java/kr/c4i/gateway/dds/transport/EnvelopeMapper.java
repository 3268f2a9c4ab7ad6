package kr.c4i.gateway.dds.transport;

import java.time.Instant;
import java.util.concurrent.atomic.AtomicLong;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import kr.c4i.gateway.core.Envelope;
import kr.c4i.gateway.core.HopTrace;
import kr.c4i.gateway.core.NodeId;
import kr.c4i.gateway.core.TraceParent;
import kr.c4i.gateway.core.transport.InboundRefusal;
import kr.c4i.gateway.core.transport.MessageRejectedException;
import kr.c4i.gateway.dds.IdlStrings;
import kr.c4i.gateway.dds.transport.KmtfTypes.KmtfMessageSample;
import kr.c4i.gateway.kmtf.catalogue.MessageType;

/**
 * Envelope to {@code kmtf::KmtfMessage} and back. Outbound, every rule the wire imposes is checked before
 * anything of a batch is written, so a bad message is rejected alone with a reason; inbound, a sample that cannot be
 * an envelope (wrong topic, over the type's size, blank id, invalid origin, a trace that is not hops) is refused
 * with {@link InvalidSample} and handed on as an {@link InboundRefusal}. The hop trace travels as its text
 * ({@link HopTrace#format}), its times in milliseconds after the creation; the trace context as its
 * {@link TraceParent} text, and a sample whose trace context is malformed still becomes an envelope, without it.
 */
final class EnvelopeMapper {

    /** Malformed trace contexts read so far: logged sparsely, a foreign sender could send nothing else. */
    private static final AtomicLong malformedTraceParents = new AtomicLong();

    private static final Logger log = LoggerFactory.getLogger(EnvelopeMapper.class);

    private static final long NANOS_PER_SECOND = 1_000_000_000L;

    /** Most characters of an unreadable trace that the reason for refusing it quotes. */
    private static final int QUOTED_TRACE = 200;

    private EnvelopeMapper() {
    }

    /**
     * @throws MessageRejectedException if the message can never be sent as it is
     */
    static KmtfMessageSample toSample(Envelope envelope, MessageType type, long seq, long sentAtNanos)
            throws MessageRejectedException {
        String id = envelope.messageId();
        if (envelope.body().length > type.maxSize()) {
            throw rejected(id, "Message " + id + " of type " + type.id() + " has a " + envelope.body().length
                    + "-byte body; the type's maximum is " + type.maxSize() + " bytes");
        }
        if (KmtfTypes.wireOrdinal(envelope.precedence()) < 0) {
            throw rejected(id, "Message " + id + ": precedence " + envelope.precedence()
                    + " has no kmtf::Precedence enumerator");
        }
        checkText(id, envelope.messageId(), "message id");
        checkText(id, envelope.kmtfType(), "message type");
        checkText(id, envelope.classification(), "classification");
        long createdAt;
        try {
            createdAt = epochNanos(envelope.createdAt());
        }
        catch (ArithmeticException ex) {
            throw rejected(id, "Message " + id + ": created-at " + envelope.createdAt()
                    + " is outside the wire's range (years 1678 to 2262)");
        }
        return new KmtfMessageSample(envelope.messageId(), envelope.origin().value(), envelope.kmtfType(),
                envelope.precedence(), envelope.classification(), createdAt, seq, sentAtNanos, envelope.body(),
                envelope.traceText(), TraceParent.text(envelope.traceParent()));
    }

    /**
     * @throws InvalidSample naming the broken rule
     */
    static Envelope toEnvelope(KmtfMessageSample sample, MessageType type) throws InvalidSample {
        if (!type.id().equals(sample.messageType())) {
            throw new InvalidSample("wrong-topic", "message " + sample.messageId() + " of type "
                    + sample.messageType() + " arrived on the topic of " + type.id());
        }
        if (sample.body().length > type.maxSize()) {
            throw new InvalidSample("oversize", "message " + sample.messageId() + " has a " + sample.body().length
                    + "-byte body; the type's maximum is " + type.maxSize() + " bytes");
        }
        if (sample.messageId().isBlank()) {
            throw new InvalidSample("blank-message-id", "a message of type " + type.id() + " from '"
                    + sample.origin() + "' has a blank message id");
        }
        NodeId origin;
        try {
            origin = NodeId.of(sample.origin());
        }
        catch (IllegalArgumentException ex) {
            throw new InvalidSample("invalid-origin", "message " + sample.messageId() + ": " + ex.getMessage());
        }
        Instant createdAt = Instant.ofEpochSecond(Math.floorDiv(sample.createdAtNanos(), NANOS_PER_SECOND),
                Math.floorMod(sample.createdAtNanos(), NANOS_PER_SECOND));
        HopTrace trace;
        try {
            trace = HopTrace.parse(sample.trace(), createdAt);
        }
        catch (IllegalArgumentException ex) {
            String text = sample.trace();
            String quoted = (text.length() <= QUOTED_TRACE) ? text : text.substring(0, QUOTED_TRACE) + "...";
            throw new InvalidSample("invalid-trace", "message " + sample.messageId() + ": trace '" + quoted
                    + "' is invalid: " + ex.getMessage());
        }
        return new Envelope(sample.messageId(), origin, sample.messageType(), sample.precedence(),
                sample.classification(), createdAt, sample.body(), trace, traceParent(sample));
    }

    /**
     * The sample's trace context, or {@code null} for none. A malformed one is left out with one WARN line rather
     * than refused as an unreadable trace is: only diagnostics need it, and the message must not be lost for them.
     */
    private static @Nullable TraceParent traceParent(KmtfMessageSample sample) {
        return TraceParent.carried(sample.traceParent(),
                reason -> logMalformed(sample.messageId(), "member traceparent", reason));
    }

    /** The refusal of a sample that is no envelope, with everything it claimed, for the inbound handler to keep. */
    static InboundRefusal refusal(KmtfMessageSample sample, MessageType type, InvalidSample invalid) {
        return new InboundRefusal(sample.origin(), sample.messageId(), sample.messageType(), type.topicName(),
                invalid.kind, invalid.getMessage(), sample.body());
    }

    /** A received sample that cannot become an envelope; {@code kind} names the rule for operators. */
    static final class InvalidSample extends Exception {

        final String kind;

        InvalidSample(String kind, String message) {
            super(message, null, false, false);
            this.kind = kind;
        }
    }

    static long epochNanos(Instant instant) {
        return Math.addExact(Math.multiplyExact(instant.getEpochSecond(), NANOS_PER_SECOND), instant.getNano());
    }

    private static void checkText(String id, String value, String what) throws MessageRejectedException {
        if (IdlStrings.firstInvalid(value) < 0) {
            return;
        }
        try {
            IdlStrings.encode(value, "The " + what);
        }
        catch (IllegalArgumentException ex) {
            throw rejected(id, "Message " + id + ": " + ex.getMessage());
        }
    }

    private static MessageRejectedException rejected(String id, String reason) {
        return new MessageRejectedException(id, reason, null);
    }

    /** One WARN line for the 1st, 2nd, 4th, 8th... malformed context; the exception quotes at most 80 characters. */
    private static void logMalformed(String messageId, String what, String reason) {
        long count = malformedTraceParents.incrementAndGet();
        if (Long.bitCount(count) == 1) {
            log.warn("Message {} read without its trace context (malformed context #{}, logged at powers of two): "
                    + "{}: {}", messageId, count, what, reason);
        }
    }
}
