package kr.c4i.gateway.core.transport;

import org.jspecify.annotations.Nullable;

/**
 * The transport waited for its receivers to make room (a RELIABLE writer's history full on a slow link) and took
 * nothing more in that time; nothing was lost. Flow control, not a failure: the wait was the pause, so the caller
 * tries again at once instead of backing off, which would leave the link idle once the receivers catch up.
 */
public final class TransportBusyException extends TransportException {

    public TransportBusyException(String message, @Nullable Throwable cause) {
        super(message, cause);
    }

    @Override
    public boolean retryable() {
        return true;
    }
}
