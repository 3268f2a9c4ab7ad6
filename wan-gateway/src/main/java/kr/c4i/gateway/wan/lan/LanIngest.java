package kr.c4i.gateway.wan.lan;

import java.util.List;
import java.util.Set;

import kr.c4i.gateway.core.Envelope;

/**
 * The relay engine as the LAN side sees it: where messages taken off the LAN for nodes at other sites go, and who
 * is told when messages relayed to this site have reached its nodes. Called from the LAN side's own threads,
 * possibly several at once.
 */
public interface LanIngest {

    /**
     * Stores messages that this site's nodes sent to nodes at other sites, durably, before returning: only then does
     * the LAN side acknowledge them (commit the JMS transaction, publish the DDS receipts), so custody passes to the
     * gateway. The same message may come more than once (one JMS copy per remote destination node, a redelivery, a
     * DDS resend): the store absorbs duplicates and counts them as stored.
     *
     * @param batch messages whose origin is a node at this site
     * @return the message ids of the batch that are stored now (including those stored before, and those of a type
     *         the catalogue does not define, kept in the relay quarantine instead); the others were refused (the
     *         store is full at their precedence, or the quarantine failed): the LAN side does not acknowledge them, so
     *         they come again
     * @throws Exception if nothing can be said to be stored; the LAN side acknowledges none of the batch
     */
    Set<String> ingest(List<Envelope> batch) throws Exception;

    /**
     * Messages that {@link LanSide#deliver} reported {@link LanDelivery#pending pending} have now passed custody:
     * every destination node at this site has them durably, so the engine deletes them from its store. Each is
     * reported once, however often it was handed over meanwhile, and possibly before the {@code deliver} call that
     * handed it over has returned.
     */
    void delivered(Set<String> messageIds);
}
