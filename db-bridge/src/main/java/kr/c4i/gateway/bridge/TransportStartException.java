package kr.c4i.gateway.bridge;

import kr.c4i.gateway.core.transport.TransportKind;

/** The configured transport could not start; {@link TransportFailureAnalyzer} tells the operator what to do. */
public final class TransportStartException extends RuntimeException {

    private final TransportKind transport;

    public TransportStartException(TransportKind transport, Throwable cause) {
        super("Unable to start the " + transport.label() + " transport: " + cause.getMessage(), cause);
        this.transport = transport;
    }

    public TransportKind transport() {
        return transport;
    }
}
