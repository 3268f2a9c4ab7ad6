package kr.c4i.gateway.core.transport;

import org.jspecify.annotations.Nullable;

/** The transport will never accept this message as it is (too large for the wire, unknown topic). */
public final class MessageRejectedException extends TransportException {

    private final String messageId;

    public MessageRejectedException(String messageId, String message, @Nullable Throwable cause) {
        super(message, cause);
        this.messageId = messageId;
    }

    public String messageId() {
        return messageId;
    }

    @Override
    public boolean retryable() {
        return false;
    }
}
