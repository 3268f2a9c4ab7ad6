package kr.c4i.gateway.wan.frame;

/**
 * A message whose frame alone, compressed, is larger than the link's largest frame: it can never cross this link.
 */
public final class OversizeEnvelopeException extends Exception {

    private static final long serialVersionUID = 1L;

    private final String messageId;

    OversizeEnvelopeException(String messageId, String description, int frameBytes, int maxFrameBytes) {
        super("Message " + description + " needs a frame of " + frameBytes + " bytes compressed, more than the "
                + maxFrameBytes + " bytes the link takes in one frame; it cannot cross this link");
        this.messageId = messageId;
    }

    /** The id of the message refused. */
    public String messageId() {
        return messageId;
    }
}
