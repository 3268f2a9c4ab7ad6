package kr.c4i.gateway.scenarios.net;

import org.jspecify.annotations.Nullable;

/** A command of the emulated network failed; the message names the command and what it printed. */
public final class ShellException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public ShellException(String message, @Nullable Throwable cause) {
        super(message, cause);
    }
}
