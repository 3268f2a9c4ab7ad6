package kr.c4i.gateway.core.link;

import java.time.Duration;
import java.util.Map;
import java.util.Set;

import org.jspecify.annotations.Nullable;

import kr.c4i.gateway.core.transport.TransportException;
import kr.c4i.gateway.core.transport.TransportHealth;
import kr.c4i.gateway.kmtf.catalogue.Precedence;

/**
 * One way of carrying frames between this site's gateway and its peer sites' gateways over a narrow WAN: {@code dds},
 * {@code jms}, {@code norm}. A frame is opaque bytes the gateway built (envelopes batched and compressed, or a custody
 * receipt); the link moves it whole, reliably while both ends live, at the pace the link allows.
 *
 * <p><b>Credit.</b> The gateway's scheduler hands the link only a fraction of a second of link time at once, so a
 * FLASH message never waits behind a deep queue inside the link: it counts what it handed over and the peer's gateway
 * has not yet receipted against its credit, and it lets no more than a short {@link #queuedBytes} wait in the link
 * unsent. {@link #unacknowledgedBytes} shows what the peer has not yet acknowledged at link level ("acknowledged up
 * to"). Custody is not the link's business: a message leaves the sender's store only when the peer's gateway
 * receipts it in a frame of its own, after storing it durably.
 *
 * <p>A link is opened once, used from the gateway's scheduler thread for {@link #send} and closed once.
 */
public interface WanLink extends AutoCloseable {

    /** Short lower-case name of the link in configuration, metrics and logs: {@code dds}, {@code jms}, {@code norm}. */
    String kind();

    /** The peer sites this link was configured to reach. */
    Set<SiteId> peers();

    /** The largest frame, in bytes, {@link #send} takes: what fits one datagram, message or object of this link. */
    int maxFrameBytes();

    /**
     * Starts the link: sockets, participants, sessions; from now on received frames and state changes go to the
     * handler.
     *
     * @throws TransportException if the link cannot start at all (library missing, address taken); a peer that is
     *         only unreachable is not an error, it is {@link LinkState#CONNECTING}
     */
    void open(FrameHandler handler) throws TransportException;

    /**
     * Starts, ahead of {@link #open}, what the link runs while its gateway is the standby of an active/standby pair:
     * a broker of a primary/backup pair, which holds its partner's journal. Nothing by default.
     *
     * @throws TransportException if it cannot start (address taken)
     */
    default void standBy() throws TransportException {
    }

    /**
     * Hands one frame to the link for a peer and returns without waiting for the wire. The frame is sent in order
     * with this peer's earlier frames, and repaired or resent by the link while both ends stay up.
     *
     * @throws IllegalArgumentException if the peer is not one of {@link #peers()} or the frame exceeds
     *         {@link #maxFrameBytes()}
     * @throws TransportException if the link cannot take the frame now (peer down, session lost); nothing was sent
     */
    void send(SiteId peer, byte[] frame) throws TransportException;

    /**
     * {@link #send(SiteId, byte[])} for a frame whose most urgent message is of {@code urgency}: a link that can spend
     * more of its rate on some frames than on others (the norm link's proactive parity) spends it on the urgent
     * ones. The others send it as any frame.
     */
    default void send(SiteId peer, byte[] frame, Precedence urgency) throws TransportException {
        send(peer, frame);
    }

    /**
     * The least urgent precedence whose frames this link spends more of its rate on ({@link #send(SiteId, byte[],
     * Precedence)}), or {@code null} when it spends the same on every frame. The gateway packs a frame it starts with
     * a message of this precedence or more urgent with such messages only, so that the extra carries them and not the
     * less urgent messages that would fill the frame behind them.
     */
    default @Nullable Precedence urgentFrom() {
        return null;
    }

    /**
     * Bytes of frames handed to {@link #send} for this peer that the peer's link has not acknowledged yet: queued,
     * on the wire or being repaired. Zero when everything sent has arrived; drops to zero when the link gives up on
     * a peer (its frames then count as lost, and the gateway resends their messages).
     */
    long unacknowledgedBytes(SiteId peer);

    /**
     * Bytes of frames handed to {@link #send} for this peer that the link has not yet put on the wire once: its own
     * queue, which a FLASH frame handed over now would wait behind. A link that repairs at a fixed rate (NORM) spends
     * part of its rate on repair, so its queue grows if it is handed frames at the full rate; the gateway hands it
     * more only while this stays short, and {@link FrameHandler#queueDrained} tells it when the queue went down. Zero
     * for a link that puts every frame on the wire (or into a transport window the credit bounds) at once.
     */
    default long queuedBytes(SiteId peer) {
        return 0;
    }

    /**
     * The round trip to {@code peer} as the link measures it, or zero where it does not. A peer's receipts take at
     * least this long, so the gateway's credit grows by this much link time: on a long round trip (a satellite hop)
     * a credit of a fixed link time would hold the link to a fraction of its rate while receipts are on their way.
     */
    default Duration roundTrip(SiteId peer) {
        return Duration.ZERO;
    }

    LinkState state(SiteId peer);

    /** What a health endpoint shows about the link: per peer state and counters, the link's settings. */
    Map<String, Object> details();

    /**
     * While its gateway is the standby of a pair: whether what {@link #standBy} started is ready for a takeover (a
     * broker of a pair holds its partner's journal), with details for the standby's health. Up with none by default.
     */
    default TransportHealth standbyHealth() {
        return TransportHealth.up(Map.of());
    }

    /** Stops sending and receiving and releases everything; never throws, may be called twice. */
    @Override
    void close();
}
