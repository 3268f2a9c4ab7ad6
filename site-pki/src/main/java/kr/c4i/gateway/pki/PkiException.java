package kr.c4i.gateway.pki;

/** A certificate, key or signature that could not be made, read or written; the message names the file or step. */
public class PkiException extends RuntimeException {

    public PkiException(String message, Throwable cause) {
        super(message, cause);
    }

    public PkiException(String message) {
        super(message);
    }
}
