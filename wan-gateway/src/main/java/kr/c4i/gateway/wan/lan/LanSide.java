package kr.c4i.gateway.wan.lan;

import java.util.List;
import java.util.Map;

import kr.c4i.gateway.core.transport.TransportException;
import kr.c4i.gateway.core.transport.TransportHealth;
import kr.c4i.gateway.wan.relay.RelayedEnvelope;

/**
 * The gateway's side on its own site's LAN, DDS or JMS: takes off the LAN what the site's nodes send to nodes at
 * other sites and hands it to the engine's {@link LanIngest}, and delivers what comes over the WAN to the site's
 * nodes. Custody passes at both ends: a message taken off the LAN is acknowledged to its origin only once the
 * engine stored it; a delivered message leaves the engine's store only once the site's nodes have it durably.
 *
 * <p>The LAN side never takes back what it delivered: a message whose origin is at another site is never ingested.
 * After a restart it knows nothing of earlier deliveries: the engine hands over again whatever its store holds for
 * this site, and the nodes' inboxes absorb the duplicates.
 */
public interface LanSide extends AutoCloseable {

    /**
     * Joins the LAN and starts handing what it takes off it to {@code ingest}; call once.
     *
     * @throws TransportException if the LAN cannot be joined now (retryable) or never
     */
    void open(LanIngest ingest) throws TransportException;

    /** The LAN's transport, {@code jms} or {@code dds}, as spans name what a message came over. */
    String kind();

    /**
     * Starts, ahead of {@link #open}, what the LAN side runs while its gateway is the standby of an active/standby
     * pair: a broker of a primary/backup pair, which holds its partner's journal. Nothing by default.
     *
     * @throws TransportException if it cannot start (address taken)
     */
    default void standBy() throws TransportException {
    }

    /**
     * While its gateway is the standby of a pair: whether what {@link #standBy} started is ready for a takeover (a
     * broker of a pair holds its partner's journal), with details for the standby's health. Up with none by default.
     */
    default TransportHealth standbyHealth() {
        return TransportHealth.up(Map.of());
    }

    /**
     * Hands relayed messages to this site's destination nodes (the routing table's subscribers of each message's
     * type that are at this site). May be called from one thread at a time.
     *
     * @param batch messages bound for this site
     * @return which messages passed custody now, which will be reported later through {@link LanIngest#delivered},
     *         which can never be delivered, and which the LAN was too busy to take after it took the rest
     * @throws TransportException if the LAN cannot take them now; none is reported passed by this call (some may
     *         still reach nodes, and be reported through {@link LanIngest#delivered}); the engine offers them again
     */
    LanDelivery deliver(List<RelayedEnvelope> batch) throws TransportException;

    /** Whether the LAN side can move messages, with details for the gateway's health endpoint. */
    TransportHealth health();

    /** Stops taking and delivering, releases the LAN; never throws, may be called twice. */
    @Override
    void close();
}
