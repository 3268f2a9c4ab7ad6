package kr.c4i.gateway.wan.frame;

/** One decoded frame: messages for this site's custody, or a peer's receipt for messages this site sent. */
public sealed interface Frame permits DataFrame, ReceiptFrame {

    /** The sender's epoch: a value its gateway picks at each start, so sequence numbers of two runs never mix. */
    long epoch();
}
