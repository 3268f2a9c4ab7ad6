package kr.c4i.gateway.core.link;

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

    /** The link's view of a peer changed. */
    default void stateChanged(SiteId peer, LinkState state) {
    }
}
