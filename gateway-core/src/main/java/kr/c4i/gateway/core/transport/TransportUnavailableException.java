package kr.c4i.gateway.core.transport;

/** The transport cannot take messages now (broker down, participant gone); nothing was lost, try later. */
public final class TransportUnavailableException extends TransportException {

    public TransportUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }

    @Override
    public boolean retryable() {
        return true;
    }
}
