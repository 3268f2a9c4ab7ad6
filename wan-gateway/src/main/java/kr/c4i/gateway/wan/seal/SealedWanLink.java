package kr.c4i.gateway.wan.seal;

import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.LongAdder;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import kr.c4i.gateway.core.link.FrameHandler;
import kr.c4i.gateway.core.link.LinkState;
import kr.c4i.gateway.core.link.ReceivedFrame;
import kr.c4i.gateway.core.link.SiteId;
import kr.c4i.gateway.core.link.WanLink;
import kr.c4i.gateway.core.transport.TransportException;
import kr.c4i.gateway.core.transport.TransportHealth;
import kr.c4i.gateway.kmtf.catalogue.Precedence;

/**
 * A {@link WanLink} whose frames are sealed: every frame handed to {@link #send} leaves authenticated and encrypted
 * for its peer site ({@link FrameSealer}), every frame received is opened before the gateway sees it, and one that
 * cannot prove it comes from the peer site's gateway, for this gateway, once, is dropped and counted by
 * {@link RefusalReason}. The link underneath (dds, jms, norm) is unchanged: it carries sealed bytes.
 *
 * <p>A frame's place in its sender's sequence is accepted only once the handler took it: a frame the handler threw on
 * is not a replay when the link delivers it again.
 */
public final class SealedWanLink implements WanLink {

    private static final Logger log = LoggerFactory.getLogger(SealedWanLink.class);

    /** Told of every frame refused, to count it (the gateway's {@code gateway.wan.frames.refused}). */
    @FunctionalInterface
    public interface RefusalListener {
        void refused(SiteId from, RefusalReason reason);
    }

    private final WanLink link;
    private final FrameSealer sealer;
    private final RefusalListener listener;
    private final Map<RefusalReason, LongAdder> refused = new EnumMap<>(RefusalReason.class);

    /**
     * @throws IllegalArgumentException if a peer site of the link has no certificate in {@code credentials}
     */
    public SealedWanLink(WanLink link, SiteCredentials credentials, RefusalListener listener) {
        List<SiteId> missing = link.peers().stream().filter(p -> !credentials.peers().containsKey(p)).sorted()
                .toList();
        if (!missing.isEmpty()) {
            throw new IllegalArgumentException("WAN link security: no certificate for peer sites " + missing
                    + " of the " + link.kind() + " link");
        }
        this.link = link;
        this.sealer = new FrameSealer(credentials);
        this.listener = listener;
        for (RefusalReason reason : RefusalReason.values()) {
            refused.put(reason, new LongAdder());
        }
    }

    @Override
    public String kind() {
        return link.kind();
    }

    @Override
    public Set<SiteId> peers() {
        return link.peers();
    }

    @Override
    public int maxFrameBytes() {
        return link.maxFrameBytes() - FrameSealer.MAX_OVERHEAD;
    }

    @Override
    public void open(FrameHandler handler) throws TransportException {
        link.open(new Opening(handler));
    }

    @Override
    public void standBy() throws TransportException {
        link.standBy();
    }

    @Override
    public TransportHealth standbyHealth() {
        return link.standbyHealth();
    }

    @Override
    public void send(SiteId peer, byte[] frame) throws TransportException {
        send(peer, frame, Precedence.ROUTINE);
    }

    @Override
    public void send(SiteId peer, byte[] frame, Precedence urgency) throws TransportException {
        if (frame.length > maxFrameBytes()) {
            throw new IllegalArgumentException("Frame of " + frame.length + " bytes exceeds the sealed "
                    + link.kind() + " link's " + maxFrameBytes());
        }
        sealer.seal(peer, frame, sealed -> link.send(peer, sealed, urgency));
    }

    @Override
    public @Nullable Precedence urgentFrom() {
        return link.urgentFrom();
    }

    @Override
    public long unacknowledgedBytes(SiteId peer) {
        return link.unacknowledgedBytes(peer);
    }

    @Override
    public long queuedBytes(SiteId peer) {
        return link.queuedBytes(peer);
    }

    @Override
    public Duration roundTrip(SiteId peer) {
        return link.roundTrip(peer);
    }

    @Override
    public LinkState state(SiteId peer) {
        return link.state(peer);
    }

    /** Frames refused so far, by reason. */
    public long refused(RefusalReason reason) {
        return refused.get(reason).sum();
    }

    @Override
    public Map<String, Object> details() {
        Map<String, Object> details = new LinkedHashMap<>(link.details());
        Map<String, Object> security = new LinkedHashMap<>();
        security.put("mode", "sealed");
        security.put("identity", sealer.credentials().certificate().getSubjectX500Principal().getName());
        security.put("epoch", sealer.epoch());
        Map<String, Object> peers = new LinkedHashMap<>();
        Map<SiteId, Long> epochs = sealer.peerEpochs();
        sealer.credentials().peers().forEach((site, peer) -> peers.put(site.value(), Map.of(
                "certificate", peer.certificate().getSubjectX500Principal().getName(),
                "epoch", epochs.getOrDefault(site, 0L))));
        security.put("peers", peers);
        Map<String, Long> counts = new LinkedHashMap<>();
        refused.forEach((reason, count) -> counts.put(reason.label(), count.sum()));
        security.put("refused", counts);
        details.put("security", security);
        return details;
    }

    @Override
    public void close() {
        link.close();
    }

    private void refuse(SiteId from, int bytes, FrameSealer.RefusedException why) {
        LongAdder count = refused.get(why.reason());
        count.increment();
        long n = count.sum();
        // Every refusal is counted; the log shows the first ones and then ever fewer, so a flood does not drown it.
        if (Long.bitCount(n) == 1) {
            log.warn("Refused a frame of {} bytes from site {} ({}, {} so far): {}", bytes, from,
                    why.reason().label(), n, why.getMessage());
        }
        listener.refused(from, why.reason());
    }

    /** The gateway's handler behind the seal: it sees only frames opened and fresh. */
    private final class Opening implements FrameHandler {

        private final FrameHandler handler;

        Opening(FrameHandler handler) {
            this.handler = handler;
        }

        @Override
        public void received(SiteId from, byte[] frame) {
            received(List.of(new ReceivedFrame(from, frame)));
        }

        @Override
        public void received(List<ReceivedFrame> frames) {
            FrameSealer.Mark before = sealer.mark();
            List<ReceivedFrame> opened = new ArrayList<>(frames.size());
            for (ReceivedFrame frame : frames) {
                try {
                    FrameSealer.Opened open = sealer.open(frame.from(), frame.bytes());
                    // Accepted at once, so the same frame twice in one batch is a replay the second time.
                    sealer.accept(open);
                    opened.add(new ReceivedFrame(frame.from(), open.frame()));
                }
                catch (FrameSealer.RefusedException e) {
                    refuse(frame.from(), frame.bytes().length, e);
                }
            }
            if (opened.isEmpty()) {
                return;
            }
            try {
                if (opened.size() == 1) {
                    handler.received(opened.getFirst().from(), opened.getFirst().bytes());
                }
                else {
                    handler.received(opened);
                }
            }
            catch (RuntimeException | Error e) {
                sealer.restore(before);
                throw e;
            }
        }

        @Override
        public void queueDrained(SiteId peer) {
            handler.queueDrained(peer);
        }

        @Override
        public void stateChanged(SiteId peer, LinkState state) {
            handler.stateChanged(peer, state);
        }
    }
}
