package kr.c4i.gateway.jms;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

import jakarta.jms.BytesMessage;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageEOFException;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import kr.c4i.gateway.core.Envelope;
import kr.c4i.gateway.core.HopTrace;
import kr.c4i.gateway.core.NodeId;
import kr.c4i.gateway.core.TraceParent;
import kr.c4i.gateway.core.transport.MessageRejectedException;
import kr.c4i.gateway.kmtf.catalogue.Precedence;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Maps envelopes to JMS messages and back. A lone envelope is one message: the text is the bytes body, every other
 * field a message property, so brokers, bridges and selectors can see them without parsing the body; the hop trace
 * is its text ({@link HopTrace#format}) in {@value #TRACE}, left out when the trace is empty, and the trace context
 * of its creation is in {@value #TRACE_PARENT}, left out when it has none. Several envelopes of one precedence for
 * one destination travel as one <em>bundle</em>: a bytes message whose {@value #BUNDLE_COUNT} property says how
 * many envelopes its body holds, each written field by field, and whose {@value #BUNDLE_FORMAT} says how (see
 * {@link #toBundle}). A bundle costs the brokers one journal record, one delivery and one acknowledgement instead
 * of one per envelope, which is most of what a message costs them.
 */
final class EnvelopeCodec {

    /** Malformed trace contexts read so far: logged sparsely, a foreign sender could send nothing else. */
    private static final AtomicLong malformedTraceParents = new AtomicLong();

    private static final Logger log = LoggerFactory.getLogger(EnvelopeCodec.class);

    static final String MESSAGE_ID = "kmtf_message_id";
    static final String ORIGIN = "kmtf_origin";
    static final String TYPE = "kmtf_type";
    static final String PRECEDENCE = "kmtf_precedence";
    static final String CLASSIFICATION = "kmtf_classification";
    /** Microseconds since the epoch: the precision of the interface database's timestamps. */
    static final String CREATED_AT_MICROS = "kmtf_created_at_micros";
    /** The hop trace's text, times after the creation ({@link HopTrace#format}); absent or empty: no hops. */
    static final String TRACE = "kmtf_trace";
    /**
     * The W3C trace context of the message's creation ({@link TraceParent}), under the name OpenTelemetry's JMS
     * instrumentation uses; absent or blank: none.
     */
    static final String TRACE_PARENT = "traceparent";
    /** On a message moved to the invalid queue: why it could not be read. */
    static final String INVALID_REASON = "kmtf_invalid_reason";
    /** On a message moved to the invalid queue: the queue it was read from. */
    static final String INVALID_SOURCE = "kmtf_invalid_source";

    /** On a bundle: how many envelopes its body holds. */
    static final String BUNDLE_COUNT = "kmtf_bundle_count";

    /**
     * On a bundle: how its envelopes are written, {@value #BUNDLE_FORMAT_TRACE_CONTEXT} since envelopes carry their
     * trace context. A bundle without it is of format {@value #BUNDLE_FORMAT_PLAIN}, as senders wrote before the
     * trace.
     */
    static final String BUNDLE_FORMAT = "kmtf_bundle_format";

    /** Bundle format: each envelope's fields without a trace (the bundle has no {@value #BUNDLE_FORMAT}). */
    static final int BUNDLE_FORMAT_PLAIN = 1;

    /** Bundle format: each envelope's fields with its trace's text after the created-at. */
    static final int BUNDLE_FORMAT_TRACED = 2;

    /** Bundle format: each envelope's fields as in {@value #BUNDLE_FORMAT_TRACED}, its traceparent after the trace. */
    static final int BUNDLE_FORMAT_TRACE_CONTEXT = 3;

    /** Most envelopes in one bundle. */
    static final int BUNDLE_MAX_ENVELOPES = 256;

    /**
     * Most bytes of envelopes in one bundle: well under Artemis' 100 KiB threshold for large messages, which the
     * broker keeps in files of their own.
     */
    static final int BUNDLE_MAX_BYTES = 64 * 1024;

    /** Most characters of an unreadable trace that the reason for refusing it quotes. */
    private static final int QUOTED_TRACE = 200;

    /** Artemis drops a second message with the same value of this property on the same address. */
    static final String DUPLICATE_ID = org.apache.activemq.artemis.api.core.Message.HDR_DUPLICATE_DETECTION_ID
            .toString();

    private EnvelopeCodec() {
    }

    /** The copy of the envelope for one destination; its duplicate id is unique per message and destination. */
    static BytesMessage toMessage(Session session, Envelope envelope, NodeId destination) throws JMSException {
        BytesMessage message = session.createBytesMessage();
        message.writeBytes(envelope.body());
        message.setStringProperty(MESSAGE_ID, envelope.messageId());
        message.setStringProperty(ORIGIN, envelope.origin().value());
        message.setStringProperty(TYPE, envelope.kmtfType());
        message.setStringProperty(PRECEDENCE, envelope.precedence().name());
        message.setStringProperty(CLASSIFICATION, envelope.classification());
        message.setLongProperty(CREATED_AT_MICROS, toMicros(envelope.createdAt()));
        if (!envelope.trace().isEmpty()) {
            message.setStringProperty(TRACE, envelope.traceText());
        }
        TraceParent traceParent = envelope.traceParent();
        if (traceParent != null) {
            message.setStringProperty(TRACE_PARENT, traceParent.value());
        }
        message.setStringProperty(DUPLICATE_ID, envelope.messageId() + "/" + destination.value());
        return message;
    }

    /**
     * A bundle of envelopes of one precedence for one destination, in format {@value #BUNDLE_FORMAT_TRACE_CONTEXT}:
     * per envelope its message id, origin, type, precedence and classification ({@code writeUTF}), created-at in
     * microseconds ({@code writeLong}), trace text and traceparent text ({@code writeUTF}, empty for none), body
     * length ({@code writeInt}) and body. Its duplicate id is a digest of the envelopes' ids: the broker drops a
     * resent bundle that holds the same envelopes, and accepts one that holds others (the receiver's inbox drops the
     * envelopes it already has).
     */
    static BytesMessage toBundle(Session session, List<Envelope> envelopes, NodeId destination) throws JMSException {
        BytesMessage message = session.createBytesMessage();
        MessageDigest digest = sha256();
        for (Envelope envelope : envelopes) {
            message.writeUTF(envelope.messageId());
            message.writeUTF(envelope.origin().value());
            message.writeUTF(envelope.kmtfType());
            message.writeUTF(envelope.precedence().name());
            message.writeUTF(envelope.classification());
            message.writeLong(toMicros(envelope.createdAt()));
            message.writeUTF(envelope.traceText());
            message.writeUTF(TraceParent.text(envelope.traceParent()));
            message.writeInt(envelope.body().length);
            message.writeBytes(envelope.body());
            digest.update(envelope.messageId().getBytes(StandardCharsets.UTF_8));
            digest.update((byte) 0);
        }
        message.setIntProperty(BUNDLE_COUNT, envelopes.size());
        message.setIntProperty(BUNDLE_FORMAT, BUNDLE_FORMAT_TRACE_CONTEXT);
        message.setStringProperty(PRECEDENCE, envelopes.getFirst().precedence().name());
        message.setStringProperty(DUPLICATE_ID, "bundle/" + destination.value() + "/"
                + HexFormat.of().formatHex(digest.digest(), 0, 16));
        return message;
    }

    /**
     * Bytes an envelope takes in a bundle, or {@code -1} when it must travel alone: a text field longer than a
     * bundle's strings can hold.
     */
    static int bundledSize(Envelope envelope) {
        int size = Long.BYTES + Integer.BYTES + envelope.body().length;
        for (String field : new String[] { envelope.messageId(), envelope.origin().value(), envelope.kmtfType(),
                envelope.precedence().name(), envelope.classification(), envelope.traceText(),
                TraceParent.text(envelope.traceParent()) }) {
            // Modified UTF-8 takes at most 3 bytes a char, and writeUTF at most 65,535 bytes.
            if (field.length() > 65_535 / 3) {
                return -1;
            }
            size += 2 + 3 * field.length();
        }
        return size;
    }

    /** Whether the message is a bundle, to be read with {@link #fromBundle}. */
    static boolean isBundle(Message message) throws JMSException {
        return message.propertyExists(BUNDLE_COUNT);
    }

    /**
     * The envelopes of a bundle, all or none; an envelope whose traceparent is malformed comes without it
     * ({@link #traceParent}).
     *
     * @throws InvalidMessageException saying what is wrong with the bundle
     */
    static List<Envelope> fromBundle(Message message) throws JMSException, InvalidMessageException {
        if (!(message instanceof BytesMessage bytes)) {
            throw new InvalidMessageException("bundle is not a BytesMessage but " + message.getClass().getSimpleName());
        }
        int count;
        try {
            count = message.getIntProperty(BUNDLE_COUNT);
        }
        catch (JMSException | NumberFormatException ex) {
            throw new InvalidMessageException("property " + BUNDLE_COUNT + " is not an int: " + ex.getMessage());
        }
        if (count < 1 || count > BUNDLE_MAX_ENVELOPES) {
            throw new InvalidMessageException("property " + BUNDLE_COUNT + " is " + count + ", not 1 to "
                    + BUNDLE_MAX_ENVELOPES);
        }
        int format = bundleFormat(message);
        long length = bytes.getBodyLength();
        List<Envelope> envelopes = new ArrayList<>(count);
        try {
            for (int i = 0; i < count; i++) {
                String messageId = bytes.readUTF();
                if (messageId.isBlank()) {
                    throw new InvalidMessageException("envelope " + (i + 1) + " of " + count
                            + " has a blank message id");
                }
                String where = "envelope " + (i + 1) + " of " + count + " (" + messageId + "): ";
                NodeId origin = NodeId.of(bytes.readUTF());
                String type = nonBlank(where + "type", bytes.readUTF());
                Precedence precedence = Precedence.parse(bytes.readUTF());
                String classification = nonBlank(where + "classification", bytes.readUTF());
                Instant createdAt = fromMicros(bytes.readLong());
                HopTrace trace = (format >= BUNDLE_FORMAT_TRACED)
                        ? trace(where + "trace", bytes.readUTF(), createdAt) : HopTrace.EMPTY;
                TraceParent traceParent = (format >= BUNDLE_FORMAT_TRACE_CONTEXT)
                        ? traceParent(messageId, "bundled traceparent", bytes.readUTF()) : null;
                int size = bytes.readInt();
                if (size < 0 || size > length) {
                    throw new InvalidMessageException(where + "body of " + size + " bytes in a bundle of " + length);
                }
                byte[] body = new byte[size];
                if (size > 0 && bytes.readBytes(body) != size) {
                    throw new InvalidMessageException(where + "body cut short");
                }
                envelopes.add(new Envelope(messageId, origin, type, precedence, classification, createdAt, body,
                        trace, traceParent));
            }
        }
        catch (MessageEOFException ex) {
            throw new InvalidMessageException("bundle ends after " + envelopes.size() + " of " + count + " envelopes");
        }
        catch (JMSException | RuntimeException ex) {
            // Reading a received body touches no connection: whatever fails here is the bundle's content.
            throw new InvalidMessageException("envelope " + (envelopes.size() + 1) + " of " + count
                    + " is unreadable: " + OutboundSender.describe(ex));
        }
        if (bytes.readBytes(new byte[1]) != -1) {
            throw new InvalidMessageException("bundle has bytes after its " + count + " envelopes");
        }
        return envelopes;
    }

    /**
     * The bundle's format: {@value #BUNDLE_FORMAT_PLAIN} without the property.
     *
     * @throws InvalidMessageException if it is not a format this receiver reads
     */
    private static int bundleFormat(Message message) throws JMSException, InvalidMessageException {
        if (!message.propertyExists(BUNDLE_FORMAT)) {
            return BUNDLE_FORMAT_PLAIN;
        }
        int format;
        try {
            format = message.getIntProperty(BUNDLE_FORMAT);
        }
        catch (JMSException | NumberFormatException ex) {
            throw new InvalidMessageException("property " + BUNDLE_FORMAT + " is not an int: " + ex.getMessage());
        }
        if (format < BUNDLE_FORMAT_PLAIN || format > BUNDLE_FORMAT_TRACE_CONTEXT) {
            throw new InvalidMessageException("property " + BUNDLE_FORMAT + " is " + format
                    + ", a bundle format this receiver does not know (it reads " + BUNDLE_FORMAT_PLAIN + " to "
                    + BUNDLE_FORMAT_TRACE_CONTEXT + "): is the sender a later version?");
        }
        return format;
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        }
        catch (NoSuchAlgorithmException ex) {
            throw new IllegalStateException("Every Java platform has SHA-256", ex);
        }
    }

    /**
     * The envelope of a lone message; one whose {@value #TRACE_PARENT} is malformed comes without it
     * ({@link #traceParent}).
     *
     * @throws InvalidMessageException saying which property is missing or unreadable
     */
    static Envelope fromMessage(Message message) throws JMSException, InvalidMessageException {
        if (!(message instanceof BytesMessage bytes)) {
            throw new InvalidMessageException("not a BytesMessage but " + message.getClass().getSimpleName());
        }
        String messageId = required(message, MESSAGE_ID);
        NodeId origin = parse(ORIGIN, required(message, ORIGIN), NodeId::of);
        String type = required(message, TYPE);
        Precedence precedence = parse(PRECEDENCE, required(message, PRECEDENCE), Precedence::parse);
        String classification = required(message, CLASSIFICATION);
        if (!message.propertyExists(CREATED_AT_MICROS)) {
            throw new InvalidMessageException("missing property " + CREATED_AT_MICROS);
        }
        long micros;
        try {
            micros = message.getLongProperty(CREATED_AT_MICROS);
        }
        catch (JMSException | NumberFormatException ex) {
            throw new InvalidMessageException("property " + CREATED_AT_MICROS + " is not a long: " + ex.getMessage());
        }
        Instant createdAt = fromMicros(micros);
        String traceText = message.getStringProperty(TRACE);
        HopTrace trace = (traceText == null) ? HopTrace.EMPTY
                : trace("property " + TRACE, traceText, createdAt);
        TraceParent traceParent = traceParent(messageId, "property " + TRACE_PARENT,
                message.getStringProperty(TRACE_PARENT));
        byte[] body = new byte[(int) bytes.getBodyLength()];
        bytes.readBytes(body);
        return new Envelope(messageId, origin, type, precedence, classification, createdAt, body, trace,
                traceParent);
    }

    /**
     * A copy of an unreadable message for the invalid queue, with the reason and source queue added.
     * Broker-internal properties stay behind so the copy is not taken for a duplicate.
     */
    static BytesMessage toInvalid(Session session, Message original, String reason, String sourceQueue)
            throws JMSException {
        BytesMessage copy = session.createBytesMessage();
        if (original instanceof BytesMessage bytes) {
            bytes.reset();
            byte[] body = new byte[(int) bytes.getBodyLength()];
            bytes.readBytes(body);
            copy.writeBytes(body);
        }
        else if (original instanceof TextMessage text && text.getText() != null) {
            copy.writeBytes(text.getText().getBytes(StandardCharsets.UTF_8));
        }
        for (Object name : Collections.list(original.getPropertyNames())) {
            String key = (String) name;
            if (!key.startsWith("_AMQ") && !key.startsWith("JMSX")) {
                copy.setObjectProperty(key, original.getObjectProperty(key));
            }
        }
        copy.setStringProperty(INVALID_REASON, reason);
        copy.setStringProperty(INVALID_SOURCE, sourceQueue);
        return copy;
    }

    /**
     * Checks, before anything of a batch is sent, that the envelope can be written as a message.
     *
     * @throws MessageRejectedException if its created-at is beyond what {@link #CREATED_AT_MICROS} can hold
     *         (about 292,000 years either side of 1970, e.g. PostgreSQL's {@code infinity})
     */
    static void checkEncodable(Envelope envelope) throws MessageRejectedException {
        try {
            toMicros(envelope.createdAt());
        }
        catch (ArithmeticException ex) {
            throw new MessageRejectedException(envelope.messageId(), "Message " + envelope.messageId()
                    + ": created-at " + envelope.createdAt() + " does not fit property " + CREATED_AT_MICROS
                    + " (microseconds since the epoch in a long)", ex);
        }
    }

    static long toMicros(Instant instant) {
        return Math.addExact(Math.multiplyExact(instant.getEpochSecond(), 1_000_000L), instant.getNano() / 1_000);
    }

    static Instant fromMicros(long micros) {
        return Instant.ofEpochSecond(Math.floorDiv(micros, 1_000_000L), Math.floorMod(micros, 1_000_000L) * 1_000L);
    }

    private static String required(Message message, String name) throws JMSException, InvalidMessageException {
        String value = message.getStringProperty(name);
        if (value == null || value.isBlank()) {
            throw new InvalidMessageException("missing property " + name);
        }
        return value;
    }

    private static String nonBlank(String name, String value) throws InvalidMessageException {
        if (value.isBlank()) {
            throw new InvalidMessageException(name + " is blank");
        }
        return value;
    }

    /**
     * @param what names the text in the reason, e.g. {@code property kmtf_trace}
     * @throws InvalidMessageException quoting the text (its first {@value #QUOTED_TRACE} characters) and what in it
     *         is not a hop
     */
    private static HopTrace trace(String what, String text, Instant createdAt) throws InvalidMessageException {
        try {
            return HopTrace.parse(text, createdAt);
        }
        catch (IllegalArgumentException ex) {
            String quoted = (text.length() <= QUOTED_TRACE) ? text : text.substring(0, QUOTED_TRACE) + "...";
            throw new InvalidMessageException(what + " '" + quoted + "' is invalid: " + ex.getMessage());
        }
    }

    /**
     * The trace context a message carries, or {@code null} for none. A malformed one is left out with one WARN line
     * rather than refused as an unreadable trace is: only diagnostics need it, and the message must not wait in the
     * invalid queue for them.
     *
     * @param what names the text in the warning, e.g. {@code property traceparent}
     */
    private static @Nullable TraceParent traceParent(String messageId, String what, @Nullable String text) {
        return TraceParent.carried(text, reason -> logMalformed(messageId, what, reason));
    }

    private static <T> T parse(String name, String value, Function<String, T> parser)
            throws InvalidMessageException {
        try {
            return parser.apply(value);
        }
        catch (IllegalArgumentException ex) {
            throw new InvalidMessageException("property " + name + " is invalid: " + ex.getMessage());
        }
    }

    /** A message that is not an envelope this transport wrote; it is moved aside, never redelivered. */
    static final class InvalidMessageException extends Exception {

        InvalidMessageException(String message) {
            super(message);
        }
    }

    /** Starts the sparse count again, so that a test sees the next malformed context's line. */
    static void resetMalformedCount() {
        malformedTraceParents.set(0);
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
