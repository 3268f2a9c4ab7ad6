package kr.c4i.gateway.jms.link;

import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.regex.Pattern;

import jakarta.jms.BytesMessage;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import org.jspecify.annotations.Nullable;

/** How a frame travels as a JMS message: a {@link BytesMessage} whose body is the frame, with two properties. */
final class Frames {

    /** The sending site's id. */
    static final String FROM = "kmtfWanFrom";

    /** The sender's counter of frames to this peer since its link opened, from 1. */
    static final String SEQ = "kmtfWanSeq";

    /** Why a message was moved to the invalid queue. */
    static final String INVALID_REASON = "kmtfWanInvalidReason";

    /** The queue it was moved from. */
    static final String INVALID_SOURCE = "kmtfWanInvalidSource";

    // Artemis URLs may carry passwords as parameters (password, trustStorePassword, keyStorePassword).
    private static final Pattern PASSWORD_PARAMETER = Pattern.compile("(?i)([?&;][^=&;]*password[^=&;]*=)[^&;)]*");

    private Frames() {
    }

    static BytesMessage toMessage(Session session, byte[] frame, String from, long seq) throws JMSException {
        BytesMessage message = session.createBytesMessage();
        message.writeBytes(frame);
        message.setStringProperty(FROM, from);
        message.setLongProperty(SEQ, seq);
        return message;
    }

    static byte[] body(BytesMessage message) throws JMSException {
        message.reset();
        byte[] body = new byte[(int) message.getBodyLength()];
        message.readBytes(body);
        return body;
    }

    /** A copy of a message that is not a frame, for the invalid queue: body, properties, reason and source. */
    static BytesMessage toInvalid(Session session, Message original, String reason, String sourceQueue)
            throws JMSException {
        BytesMessage copy = session.createBytesMessage();
        if (original instanceof BytesMessage bytes) {
            copy.writeBytes(body(bytes));
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

    /** The URL with every password parameter's value masked, for logs and health details. */
    static String masked(@Nullable String url) {
        return (url == null) ? "" : PASSWORD_PARAMETER.matcher(url).replaceAll("$1******");
    }

    static String describe(Throwable ex) {
        return (ex.getMessage() != null) ? ex.getMessage() : ex.getClass().getSimpleName();
    }
}
