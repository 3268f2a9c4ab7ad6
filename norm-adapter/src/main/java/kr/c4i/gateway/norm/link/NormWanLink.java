package kr.c4i.gateway.norm.link;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.LongAdder;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import kr.c4i.gateway.core.link.FrameHandler;
import kr.c4i.gateway.core.link.LinkPeer;
import kr.c4i.gateway.core.link.LinkState;
import kr.c4i.gateway.core.link.SiteId;
import kr.c4i.gateway.core.link.WanLink;
import kr.c4i.gateway.core.transport.TransportException;
import kr.c4i.gateway.core.transport.TransportUnavailableException;
import kr.c4i.gateway.norm.NormEvent;
import kr.c4i.gateway.norm.NormEventType;
import kr.c4i.gateway.norm.NormException;
import kr.c4i.gateway.norm.NormInstance;
import kr.c4i.gateway.norm.NormSession;

/**
 * The {@code norm} WAN link: each frame is one NORM data object, sent at a fixed rate to the peer's gateway and
 * repaired with FEC parity on NACK, so a lossy link spends little on repair (see {@code NORM-LINK.md}).
 *
 * <p><b>Sessions.</b> One NORM instance; one receive session on this gateway's port that hears every peer (a
 * peer's frames are told by its NORM node id, {@link NormLinkSettings#nodeId}); per peer one send-only session to
 * the peer's address and port, at {@link NormLinkSettings#txRateBitsPerSecond}, congestion control off. Feedback
 * (NACKs, acknowledgements) is unicast to the send session's own socket.
 *
 * <p><b>Acknowledged up to.</b> Each peer is an acking node: a watermark set on the latest frame asks the peer to
 * acknowledge everything up to it, and its success releases those frames from {@link #unacknowledgedBytes}. One
 * watermark is outstanding at a time; a success re-arms it on the newest frame.
 *
 * <p><b>States.</b> CONNECTING until the peer is heard (its sender's probes reach the receive session, or it
 * acknowledges), then UP. DOWN when frames stayed unacknowledged for {@link NormLinkSettings#peerTimeout}, or at
 * once when the peer restarted (its sender came back with a new instance): the frames not acknowledged then count
 * as lost and the gateway sends their messages again. A DOWN peer is UP again when it acknowledges or is heard
 * anew. One platform thread owns NORM's event queue; it hands frames to the {@link FrameHandler}, in the order
 * they complete, and checks the peers every {@value #CHECK_MILLIS} ms on NORM's user timer.
 */
public final class NormWanLink implements WanLink {

    private static final Logger log = LoggerFactory.getLogger(NormWanLink.class);
    static final long CHECK_MILLIS = 100;
    private static final Duration CLOSE_WAIT = Duration.ofSeconds(5);
    /** Objects the sender keeps for repair per peer; NORM refuses new ones only while all of them still wait. */
    private static final int CACHE_COUNT_MIN = 64;
    private static final int CACHE_COUNT_MAX = 4096;
    /** A probe's data and its NORM info: frames carry no info, so the info tells a probe from a frame. */
    private static final byte[] PROBE = {'p'};
    /** Round trips added to the peer timeout: each repair round of a lossy link costs about one. */
    static final int TIMEOUT_ROUND_TRIPS = 10;

    private final NormLinkSettings settings;
    private final SiteId site;
    private final int localNodeId;
    private final Map<SiteId, Peer> peers;
    private final Map<Integer, Peer> peersByNodeId;
    private final LongAdder framesIgnored = new LongAdder();
    private final Object lifecycle = new Object();
    private @Nullable Open open;
    private volatile boolean closed;

    public NormWanLink(NormLinkSettings settings) {
        this.settings = settings;
        this.site = settings.site();
        this.localNodeId = NormLinkSettings.nodeId(this.site);
        Map<SiteId, Peer> byPeer = new LinkedHashMap<>();
        Map<Integer, Peer> byNode = new LinkedHashMap<>();
        settings.peers().entrySet().stream().sorted(Map.Entry.comparingByKey()).forEach(entry -> {
            Peer peer = new Peer(entry.getKey(),
                    NormLinkSettings.hostPort(entry.getKey(), entry.getValue(), settings.port()));
            byPeer.put(peer.site, peer);
            byNode.put(peer.nodeId, peer);
        });
        this.peers = Collections.unmodifiableMap(byPeer);
        this.peersByNodeId = Map.copyOf(byNode);
    }

    @Override
    public String kind() {
        return "norm";
    }

    @Override
    public Set<SiteId> peers() {
        return this.peers.keySet();
    }

    @Override
    public int maxFrameBytes() {
        return this.settings.segmentBytes();
    }

    public NormLinkSettings settings() {
        return this.settings;
    }

    @Override
    public void open(FrameHandler handler) throws TransportException {
        synchronized (this.lifecycle) {
            if (this.closed) {
                throw new IllegalStateException("The norm WAN link of site " + this.site + " is closed");
            }
            if (this.open != null) {
                throw new IllegalStateException("The norm WAN link of site " + this.site + " is already open");
            }
            NormInstance instance;
            try {
                instance = NormInstance.create(this.settings.library());
            }
            catch (IllegalStateException | NormException ex) {
                throw new TransportUnavailableException("Unable to open the norm WAN link of site " + this.site + ": "
                        + ex.getMessage(), ex);
            }
            try {
                this.open = new Open(instance, handler);
            }
            catch (RuntimeException | UnknownHostException ex) {
                instance.close();
                throw new TransportUnavailableException("Unable to open the norm WAN link of site " + this.site
                        + " on port " + this.settings.port() + ": " + ex.getMessage(), ex);
            }
            this.open.thread.start();
            log.info("norm WAN link of site {} open on {}:{} (node {}): peers {}, {} bit/s of NORM messages per peer "
                    + "({} on the wire), segments {} B, block {} + parity {}", this.site,
                    this.settings.bindAddress() == null ? "*" : this.settings.bindAddress(), this.settings.port(),
                    Integer.toUnsignedString(this.localNodeId), this.settings.peers(),
                    Math.round(this.settings.txRateBitsPerSecond()), this.settings.rateBitsPerSecond(),
                    this.settings.segmentBytes(), this.settings.blockSegments(), this.settings.paritySegments());
        }
    }

    @Override
    public void send(SiteId peer, byte[] frame) throws TransportException {
        Peer target = peer(peer);
        if (frame.length > this.settings.segmentBytes()) {
            throw new IllegalArgumentException("A frame of " + frame.length + " bytes exceeds maxFrameBytes ("
                    + this.settings.segmentBytes() + ") of the norm WAN link");
        }
        if (this.open == null || this.closed) {
            throw new TransportUnavailableException("The norm WAN link of site " + this.site + " is "
                    + (this.closed ? "closed" : "not open"), null);
        }
        target.send(frame);
    }

    @Override
    public long unacknowledgedBytes(SiteId peer) {
        return peer(peer).ledger.unacknowledgedBytes();
    }

    @Override
    public long queuedBytes(SiteId peer) {
        return peer(peer).queuedBytes();
    }

    @Override
    public LinkState state(SiteId peer) {
        return peer(peer).ledger.state();
    }

    @Override
    public Map<String, Object> details() {
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("kind", kind());
        details.put("site", this.site.value());
        details.put("nodeId", Integer.toUnsignedString(this.localNodeId));
        details.put("bindAddress", this.settings.bindAddress() == null ? "*" : this.settings.bindAddress());
        details.put("port", this.settings.port());
        details.put("rateBitsPerSecond", this.settings.rateBitsPerSecond());
        details.put("txRateBitsPerSecond", Math.round(this.settings.txRateBitsPerSecond()));
        details.put("segmentBytes", this.settings.segmentBytes());
        details.put("blockSegments", this.settings.blockSegments());
        details.put("paritySegments", this.settings.paritySegments());
        details.put("autoParity", this.settings.autoParity());
        details.put("peerTimeout", this.settings.peerTimeout().toString());
        details.put("open", this.open != null && !this.closed);
        details.put("framesIgnored", this.framesIgnored.sum());
        Map<String, Object> byPeer = new LinkedHashMap<>();
        this.peers.forEach((id, peer) -> byPeer.put(id.value(), peer.details()));
        details.put("peers", byPeer);
        return details;
    }

    @Override
    public void close() {
        Open current;
        synchronized (this.lifecycle) {
            if (this.closed) {
                return;
            }
            this.closed = true;
            current = this.open;
        }
        if (current != null) {
            current.close();
        }
        log.info("norm WAN link of site {} closed", this.site);
    }

    /**
     * How long frames may stay unacknowledged before the peer counts as lost: the configured timeout plus
     * {@value #TIMEOUT_ROUND_TRIPS} round trips as NORM measures them, so a long-delay link (satellite, HF) is not
     * taken for cut while its repair rounds run. With 250 ms of one-way delay and 30% loss a fixed 5 s put a live
     * peer DOWN 11 times in one run of the wan experiment.
     */
    static Duration peerTimeout(Duration configured, double grttSeconds) {
        double extra = Math.min(Math.max(grttSeconds, 0), 60) * TIMEOUT_ROUND_TRIPS;
        return configured.plusNanos(Math.round(extra * 1e9));
    }

    private Peer peer(SiteId peer) {
        Peer found = this.peers.get(peer);
        if (found == null) {
            throw new IllegalArgumentException("Unknown peer site " + peer + ": the norm WAN link of site "
                    + this.site + " reaches " + this.peers.keySet());
        }
        return found;
    }

    /** What exists while the link is open; the instance owns every session and closes them with itself. */
    private final class Open {

        final NormInstance instance;
        final FrameHandler handler;
        final NormSession receiver;
        final Thread thread;

        Open(NormInstance instance, FrameHandler handler) throws UnknownHostException {
            this.instance = instance;
            this.handler = handler;
            String bind = settings.bindAddress() == null ? null : resolve(settings.bindAddress());
            this.receiver = instance.createSession(bind == null ? "0.0.0.0" : bind, settings.port(), localNodeId);
            this.receiver.bindTo(bind, null);
            this.receiver.setUnicastNacks(true);
            // The default policy may skip an object whose first packets were lost.
            this.receiver.setSyncPolicy(NormSession.SyncPolicy.ALL);
            this.receiver.setBackoffFactor(0);
            this.receiver.startReceiver(settings.bufferBytes());
            SecureRandom random = new SecureRandom();
            for (Peer peer : peers.values()) {
                NormSession sender = instance.createSession(resolve(peer.endpoint.host()), peer.endpoint.port(),
                        localNodeId);
                sender.setTxOnly();
                sender.setCongestionControl(false);
                sender.setTxRate(settings.txRateBitsPerSecond());
                sender.setGrttEstimate(settings.grttEstimate().toNanos() / 1e9);
                sender.setBackoffFactor(0);
                sender.setAutoParity(settings.autoParity());
                sender.setTxCacheBounds(Math.max(settings.bufferBytes(),
                        (long) CACHE_COUNT_MIN * settings.segmentBytes()), CACHE_COUNT_MIN, CACHE_COUNT_MAX);
                sender.addAckingNode(peer.nodeId);
                // A new instance id each start: the peer's receiver sees a restart, not old objects' successors.
                sender.startSender(random.nextInt(1 << 16), settings.bufferBytes(), settings.segmentBytes(),
                        settings.blockSegments(), settings.paritySegments());
                if (settings.txLossPercent() > 0) {
                    sender.setTxLoss(settings.txLossPercent());
                }
                peer.attach(sender);
            }
            this.receiver.setUserTimer(CHECK_MILLIS / 1000.0);
            this.thread = Thread.ofPlatform().name("norm-wan-link-" + site).daemon(true).unstarted(this::run);
        }

        private static String resolve(String host) throws UnknownHostException {
            return InetAddress.getByName(host).getHostAddress();
        }

        void run() {
            NormEvent event;
            while ((event = this.instance.nextEvent()) != null) {
                try {
                    handle(event);
                }
                catch (RuntimeException ex) {
                    log.error("norm WAN link of site {}: handling {} failed; going on", site, event, ex);
                }
            }
        }

        private void handle(NormEvent event) {
            NormSession session = event.session();
            if (session == null) {
                return;
            }
            if (session == this.receiver) {
                switch (event.type()) {
                    case RX_OBJECT_COMPLETED -> frame(event);
                    case REMOTE_SENDER_NEW, REMOTE_SENDER_ACTIVE -> heard(event, false);
                    case REMOTE_SENDER_RESET -> heard(event, true);
                    case USER_TIMEOUT -> {
                        checkPeers();
                        this.receiver.setUserTimer(CHECK_MILLIS / 1000.0);
                    }
                    default -> {
                    }
                }
                return;
            }
            Peer peer = peerOf(session);
            if (peer == null) {
                return;
            }
            if (event.type() == NormEventType.TX_WATERMARK_COMPLETED) {
                notify(peer, peer.watermarkCompleted(session.ackingStatus(peer.nodeId)));
            }
            else if (event.type() == NormEventType.TX_OBJECT_SENT && peer.leftQueue(event.object())) {
                try {
                    this.handler.queueDrained(peer.site);
                }
                catch (RuntimeException ex) {
                    log.warn("Frame handler failed on the drained queue of peer {}", peer.site, ex);
                }
            }
        }

        private void frame(NormEvent event) {
            Peer sender = peersByNodeId.get(event.senderNodeId());
            if (sender == null) {
                framesIgnored.increment();
                if (Long.bitCount(framesIgnored.sum()) == 1) {
                    log.warn("norm WAN link of site {} ignored a frame from NORM node {}: not a configured peer",
                            site, Integer.toUnsignedString(event.senderNodeId()));
                }
                return;
            }
            if (event.hasInfo()) {
                // A probe of the peer's link (see Peer.probe), not a frame.
                sender.probesReceived.increment();
                notify(sender, sender.heard(false));
                return;
            }
            byte[] frame = event.data();
            sender.ledger.received(frame.length);
            notify(sender, sender.heard(false));
            try {
                this.handler.received(sender.site, frame);
            }
            catch (RuntimeException ex) {
                // The link delivered it; the sender's gateway resends what its peer never receipts.
                sender.ledger.handlerFailed();
                log.warn("Frame handler failed on a frame of {} bytes from {}", frame.length, sender.site, ex);
            }
        }

        private void heard(NormEvent event, boolean restarted) {
            Peer peer = peersByNodeId.get(event.senderNodeId());
            if (peer != null) {
                notify(peer, peer.heard(restarted));
            }
        }

        private @Nullable Peer peerOf(NormSession session) {
            for (Peer peer : peers.values()) {
                if (peer.sender == session) {
                    return peer;
                }
            }
            return null;
        }

        private void checkPeers() {
            long now = System.nanoTime();
            peers.values().forEach(peer -> {
                notify(peer, peer.check(now));
                peer.probe();
            });
        }

        private void notify(Peer peer, List<LinkState> transitions) {
            for (LinkState state : transitions) {
                log.info("norm WAN link of site {}: peer {} is {}", site, peer.site, state.label());
                try {
                    this.handler.stateChanged(peer.site, state);
                }
                catch (RuntimeException ex) {
                    log.warn("Frame handler failed on the state change of peer {} to {}", peer.site, state, ex);
                }
            }
        }

        void close() {
            this.instance.stop();
            if (Thread.currentThread() != this.thread) {
                try {
                    if (!this.thread.join(CLOSE_WAIT)) {
                        log.warn("norm WAN link of site {}: the frame handler did not return within {}; closing "
                                + "under it", site, CLOSE_WAIT);
                    }
                }
                catch (InterruptedException ex) {
                    Thread.currentThread().interrupt();
                }
            }
            this.instance.close();
        }
    }

    /** One peer site: its send session, its node id, its watermark, and the link's bookkeeping of it. */
    private final class Peer {

        final SiteId site;
        final NormLinkSettings.Endpoint endpoint;
        final int nodeId;
        final LinkPeer ledger;
        final LongAdder restarts = new LongAdder();
        final LongAdder probesSent = new LongAdder();
        final LongAdder probesReceived = new LongAdder();
        volatile @Nullable NormSession sender;
        // Guarded by ledger.
        /** Counter and NORM object of each frame handed over and not acknowledged, oldest first. */
        private final ArrayDeque<long[]> objects = new ArrayDeque<>();
        private long lastObject;
        /** Bytes of each frame's NORM object not yet sent once, by object: the link's queue to this peer. */
        private final Map<Long, Integer> unsent = new HashMap<>();
        private long queued;
        /** The counter of the frame the outstanding watermark is on; 0 when none is. */
        private long watermarkAt;

        Peer(SiteId site, NormLinkSettings.Endpoint endpoint) {
            this.site = site;
            this.endpoint = endpoint;
            this.nodeId = NormLinkSettings.nodeId(site);
            this.ledger = new LinkPeer(site);
        }

        void attach(NormSession session) {
            this.sender = session;
        }

        void send(byte[] frame) throws TransportException {
            synchronized (this.ledger) {
                this.ledger.requireUp(kind());
                NormSession session = this.sender;
                if (session == null) {
                    throw this.ledger.refused("The norm WAN link to peer site " + this.site + " is not open", null);
                }
                long object;
                try {
                    object = session.enqueue(frame);
                }
                catch (NormException.QueueFull ex) {
                    throw this.ledger.refused("Peer site " + this.site + " does not keep up: " + ex.getMessage(), ex);
                }
                catch (NormException | IllegalStateException ex) {
                    throw this.ledger.refused("Unable to send a frame to peer site " + this.site + ": "
                            + ex.getMessage(), ex);
                }
                this.objects.addLast(new long[] {this.ledger.sent(frame.length), object});
                this.unsent.put(object, frame.length);
                this.queued += frame.length;
                this.lastObject = object;
                if (this.watermarkAt == 0) {
                    armWatermark(session);
                }
            }
        }

        long queuedBytes() {
            synchronized (this.ledger) {
                return this.queued;
            }
        }

        /** NORM sent this object once; whether it was a frame still counted in the queue (a probe is not). */
        boolean leftQueue(long object) {
            synchronized (this.ledger) {
                Integer bytes = this.unsent.remove(object);
                if (bytes == null) {
                    return false;
                }
                this.queued -= bytes;
                return true;
            }
        }

        /** Asks the peer to acknowledge everything up to the newest frame. */
        private void armWatermark(NormSession session) {
            boolean set = this.lastObject != 0 && session.setWatermark(this.lastObject);
            this.watermarkAt = set ? this.ledger.nextCounter() - 1 : 0;
        }

        /** The watermark request ended: acknowledged, or NORM gave up asking. */
        List<LinkState> watermarkCompleted(NormSession.AckingStatus status) {
            List<LinkState> transitions = new ArrayList<>(1);
            synchronized (this.ledger) {
                long upTo = this.watermarkAt;
                this.watermarkAt = 0;
                if (status == NormSession.AckingStatus.SUCCESS) {
                    this.ledger.acknowledged(upTo);
                    while (!this.objects.isEmpty() && this.objects.peekFirst()[0] <= upTo) {
                        this.objects.removeFirst();
                    }
                    if (this.ledger.state() != LinkState.UP) {
                        up(transitions);
                    }
                }
                NormSession session = this.sender;
                // After a failure too, while frames wait: the next request asks again, the peer may be back. A peer
                // that is not UP is asked by probes instead.
                if (session != null && this.ledger.unacknowledgedFrames() > 0) {
                    armWatermark(session);
                }
            }
            return transitions;
        }

        /** The peer's sender reached our receiver; {@code restarted} when it came back as a new instance. */
        List<LinkState> heard(boolean restarted) {
            List<LinkState> transitions = new ArrayList<>(2);
            synchronized (this.ledger) {
                LinkState state = this.ledger.state();
                if (restarted) {
                    this.restarts.increment();
                    if (state == LinkState.UP) {
                        // Its receiver restarted too: what it had not acknowledged is gone with it.
                        down("it restarted", false, transitions);
                    }
                }
                state = this.ledger.state();
                if (state == LinkState.CONNECTING
                        || (state == LinkState.DOWN && (restarted || this.ledger.stalled()))) {
                    up(transitions);
                }
            }
            return transitions;
        }

        List<LinkState> check(long now) {
            List<LinkState> transitions = new ArrayList<>(1);
            NormSession session = this.sender;
            Duration timeout = peerTimeout(settings.peerTimeout(), session == null ? 0 : session.grttEstimate());
            synchronized (this.ledger) {
                if (this.ledger.overdue(now, timeout)) {
                    down("nothing acknowledged for " + timeout, true, transitions);
                }
            }
            return transitions;
        }

        /**
         * While the peer is not UP and no watermark is out, sends a probe (a one-byte object marked by NORM info,
         * which the peer's link drops) with a watermark: its acknowledgement makes the peer UP. An idle NORM sender
         * stops probing after a while, so waiting to hear the peer could wait for ever.
         */
        void probe() {
            synchronized (this.ledger) {
                NormSession session = this.sender;
                LinkState state = this.ledger.state();
                if (session == null || this.watermarkAt != 0 || state == LinkState.UP) {
                    return;
                }
                try {
                    this.lastObject = session.enqueue(PROBE, PROBE);
                }
                catch (NormException | IllegalStateException ex) {
                    return; // the next check tries again
                }
                this.probesSent.increment();
                armWatermark(session);
            }
        }

        private void down(String why, boolean stalled, List<LinkState> transitions) {
            long bytes = this.ledger.unacknowledgedBytes();
            int frames = this.ledger.down(stalled);
            // NORM would repair what it still holds first, in the order it was handed over, when the peer is back;
            // the gateway sends those messages again, by precedence.
            NormSession session = this.sender;
            if (session != null) {
                session.cancelWatermark();
                this.objects.forEach(entry -> session.cancel(entry[1]));
            }
            this.objects.clear();
            this.unsent.clear();
            this.queued = 0;
            this.watermarkAt = 0;
            this.lastObject = 0;
            log.warn("norm WAN link of site {}: peer {} lost ({}); {} frames ({} bytes) not acknowledged count as "
                    + "lost", NormWanLink.this.site, this.site, why, frames, bytes);
            transitions.add(LinkState.DOWN);
        }

        private void up(List<LinkState> transitions) {
            this.ledger.up();
            transitions.add(LinkState.UP);
        }

        Map<String, Object> details() {
            Map<String, Object> details = new LinkedHashMap<>();
            details.put("address", this.endpoint.toString());
            details.put("nodeId", Integer.toUnsignedString(this.nodeId));
            details.putAll(this.ledger.details());
            details.put("queuedBytes", queuedBytes());
            NormSession session = this.sender;
            details.put("grttSeconds", session == null ? 0.0 : session.grttEstimate());
            details.put("restarts", this.restarts.sum());
            details.put("probesSent", this.probesSent.sum());
            details.put("probesReceived", this.probesReceived.sum());
            return details;
        }
    }
}
