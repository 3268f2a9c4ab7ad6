package kr.c4i.gateway.core.transport;

import org.jspecify.annotations.Nullable;

/**
 * A transport failure that tells the caller whether trying again can help. Callers keep the
 * message and back off on a retryable failure; they quarantine it on a permanent one.
 */
public abstract sealed class TransportException extends Exception
        permits TransportUnavailableException, TransportBusyException, MessageRejectedException {

    protected TransportException(String message, @Nullable Throwable cause) {
        super(message, cause);
    }

    public abstract boolean retryable();
}
