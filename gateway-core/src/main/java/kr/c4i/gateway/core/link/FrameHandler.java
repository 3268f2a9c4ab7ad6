package kr.c4i.gateway.core.link;

import java.util.List;

/**
 * Told what a {@link WanLink} receives and how its peers fare. Called on the link's own thread, one call at a time;
 * a handler that needs to block (to store a frame durably) may, the link holds back further frames meanwhile.
 */
public interface FrameHandler {

    /**
     * One frame from a peer, as that peer's gateway handed it to {@link WanLink#send}. The link may deliver a frame
     * twice (after a reconnect or a restart of either side); the gateway's custody protocol absorbs duplicates.
     */
    void received(SiteId from, byte[] frame);

    /**
     * Frames the link received together, in order, from one peer or several, handled as one: a link that commits
     * what it received in transactions takes several frames at once, and the gateway stores them in one
     * transaction, so a burst costs one commit on each side rather than one per frame. By default each frame is
     * handled on its own.
     */
    default void received(List<ReceivedFrame> frames) {
        frames.forEach(f -> received(f.from(), f.bytes()));
    }

    /**
     * The link put frames it held for this peer on the wire: its {@link WanLink#queuedBytes} went down, so a sender
     * that held back for it may hand it more.
     */
    default void queueDrained(SiteId peer) {
    }

    /** The link's view of a peer changed. */
    default void stateChanged(SiteId peer, LinkState state) {
    }
}
