package kr.c4i.gateway.wan.frame;

/**
 * A received frame this gateway cannot read: truncated, of another version, compressed with a dictionary it does not
 * know, corrupt, or carrying a value no sender may send. Nothing of the frame is used; the sender keeps custody of
 * its messages, since no receipt goes back.
 */
public final class FrameFormatException extends Exception {

    private static final long serialVersionUID = 1L;

    public FrameFormatException(String message) {
        super(message);
    }

    public FrameFormatException(String message, Throwable cause) {
        super(message, cause);
    }
}
