package kr.c4i.gateway.bridge;

/** The configured transport could not start; {@link TransportFailureAnalyzer} tells the operator what to do. */
public final class TransportStartException extends RuntimeException {

    private final String transport;

    public TransportStartException(String transport, Throwable cause) {
        super("Unable to start the " + transport + " transport: " + cause.getMessage(), cause);
        this.transport = transport;
    }

    public String transport() {
        return transport;
    }
}
