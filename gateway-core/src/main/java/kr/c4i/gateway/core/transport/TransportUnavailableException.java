package kr.c4i.gateway.core.transport;

import org.jspecify.annotations.Nullable;

/** The transport cannot take messages now (broker down, participant gone); nothing was lost, try later. */
public final class TransportUnavailableException extends TransportException {

    public TransportUnavailableException(String message, @Nullable Throwable cause) {
        super(message, cause);
    }

    @Override
    public boolean retryable() {
        return true;
    }
}
