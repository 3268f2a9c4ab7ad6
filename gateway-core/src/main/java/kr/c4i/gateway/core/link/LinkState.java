package kr.c4i.gateway.core.link;

/** Whether a link can reach one peer site now. */
public enum LinkState {
    /** Opened, the peer not yet seen. */
    CONNECTING,
    /** The peer is reachable: frames sent now are expected to arrive. */
    UP,
    /** The peer was lost (timeout, broker gone, session closed); frames wait above the link until it is back. */
    DOWN;

    public String label() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
