package kr.c4i.gateway.norm;

/**
 * A libnorm call failed. NORM reports failure as a {@code false} result or an invalid handle, without a reason
 * (Debian's build has no debug output), so the message names the call and what it was asked to do. {@link QueueFull}
 * is the one failure a caller handles by waiting: the sender's cache is full until NORM purges an object.
 */
public sealed class NormException extends RuntimeException {

    private final String operation;

    NormException(String operation, String detail) {
        super(operation + " failed: " + detail);
        this.operation = operation;
    }

    /** The NORM function that failed, e.g. {@code NormStartSender}. */
    public String operation() {
        return this.operation;
    }

    /** {@code NormDataEnqueue} refused an object: the transmit cache holds its maximum; wait for a vacancy. */
    public static final class QueueFull extends NormException {
        QueueFull(String detail) {
            super("NormDataEnqueue", detail);
        }
    }
}
