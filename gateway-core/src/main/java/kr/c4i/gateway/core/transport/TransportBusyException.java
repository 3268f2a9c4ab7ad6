package kr.c4i.gateway.core.transport;

import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * The transport waited for its receivers to make room (a RELIABLE writer's history full on a slow link) and took
 * nothing more in that time; nothing was lost. Flow control, not a failure: the wait was the pause, so the caller
 * tries again at once instead of backing off, which would leave the link idle once the receivers catch up.
 *
 * <p>What the transport took before it was busy is on its way as any sent message is, and is named by
 * {@link #taken()}: a caller that sent it again would put each of those messages on the slow link twice.
 */
public final class TransportBusyException extends TransportException {

    private final List<String> taken;

    public TransportBusyException(String message, @Nullable Throwable cause) {
        this(message, cause, List.of());
    }

    /** @param taken the message ids of the batch the transport took before it was busy, in the batch's order */
    public TransportBusyException(String message, @Nullable Throwable cause, List<String> taken) {
        super(message, cause);
        this.taken = List.copyOf(taken);
    }

    /** The message ids of the batch the transport took before it was busy, in the batch's order; may be empty. */
    public List<String> taken() {
        return taken;
    }

    @Override
    public boolean retryable() {
        return true;
    }
}
