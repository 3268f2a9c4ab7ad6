package kr.c4i.gateway.scenarios.node;

import org.jspecify.annotations.Nullable;

/** A node did not come up; the message ends with the last lines of its console. */
public final class NodeStartException extends Exception {

    private static final long serialVersionUID = 1L;

    public NodeStartException(String message, @Nullable Throwable cause) {
        super(message, cause);
    }
}
