package kr.c4i.gateway.jms;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Collections;
import java.util.function.Function;

import jakarta.jms.BytesMessage;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import kr.c4i.gateway.core.Envelope;
import kr.c4i.gateway.core.NodeId;
import kr.c4i.gateway.core.transport.MessageRejectedException;
import kr.c4i.gateway.kmtf.catalogue.Precedence;

/**
 * Maps an {@link Envelope} to a JMS message and back: the text is the bytes body, every other field
 * a message property, so brokers, bridges and selectors can see them without parsing the body.
 */
final class EnvelopeCodec {

    static final String MESSAGE_ID = "kmtf_message_id";
    static final String ORIGIN = "kmtf_origin";
    static final String TYPE = "kmtf_type";
    static final String PRECEDENCE = "kmtf_precedence";
    static final String CLASSIFICATION = "kmtf_classification";
    /** Microseconds since the epoch: the precision of the interface database's timestamps. */
    static final String CREATED_AT_MICROS = "kmtf_created_at_micros";
    /** On a message moved to the invalid queue: why it could not be read. */
    static final String INVALID_REASON = "kmtf_invalid_reason";
    /** On a message moved to the invalid queue: the queue it was read from. */
    static final String INVALID_SOURCE = "kmtf_invalid_source";

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
        message.setStringProperty(DUPLICATE_ID, envelope.messageId() + "/" + destination.value());
        return message;
    }

    /**
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
        byte[] body = new byte[(int) bytes.getBodyLength()];
        bytes.readBytes(body);
        return new Envelope(messageId, origin, type, precedence, classification, fromMicros(micros), body);
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
}
