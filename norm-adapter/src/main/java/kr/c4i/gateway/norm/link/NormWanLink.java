package kr.c4i.gateway.norm.link;

import java.io.IOException;
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
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.atomic.LongAdder;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import kr.c4i.gateway.core.link.FrameHandler;
import kr.c4i.gateway.core.link.LinkLifecycle;
import kr.c4i.gateway.core.link.LinkPeer;
import kr.c4i.gateway.core.link.LinkState;
import kr.c4i.gateway.core.link.SiteId;
import kr.c4i.gateway.core.link.WanLink;
import kr.c4i.gateway.core.transport.TransportException;
import kr.c4i.gateway.core.transport.TransportUnavailableException;
import kr.c4i.gateway.kmtf.catalogue.Precedence;
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
 *
 * <p><b>Parity.</b> The receiver measures the loss of each peer's packets on the objects that carry NORM info, whose
 * info packet NORM sends once with no parity ({@link LossWindow}); each sending session sends a {@linkplain
 * LossReport loss report} now and then, an object whose info tells the peers what it measured of them. The session's
 * proactive parity follows what its peers report ({@link ParityPolicy}, {@link SessionParity}) unless it is fixed by
 * configuration.
 *
 * <p><b>Multicast mode</b> ({@link NormLinkSettings#multicast}): one session on the group sends to and hears every
 * peer instead ({@link NormGroup}). Each object's NORM info names the site it is for; a gateway drops those for
 * others. The session's one watermark is acknowledged per peer, only UP peers are acking nodes, and a peer that is
 * not UP is probed by objects addressed to it, which its link answers.
 */
public final class NormWanLink implements WanLink {

    private static final Logger log = LoggerFactory.getLogger(NormWanLink.class);
    static final long CHECK_MILLIS = 100;
    /** Objects the sender keeps for repair per peer; NORM refuses new ones only while all of them still wait. */
    private static final int CACHE_COUNT_MIN = 64;
    private static final int CACHE_COUNT_MAX = 4096;
    /**
     * Objects a receiver keeps pending per peer: as many as a peer's sender may hold. With NORM's default of 256, an
     * object still under repair once the sender was 256 objects further on was aborted and never delivered (a
     * both-ways test of 300 frames stalled so in loaded CI builds).
     */
    static final int RX_CACHE_COUNT = CACHE_COUNT_MAX;
    /** A probe's data and its NORM info: frames carry no info, so the info tells a probe from a frame. */
    private static final byte[] PROBE = {'p'};
    /** How often a peer that is not UP is probed in multicast mode, where no watermark paces the probes. */
    static final long MULTICAST_PROBE_MILLIS = 1000;
    /** Round trips added to the peer timeout at least: each repair round of a lossy link costs about one. */
    static final int TIMEOUT_ROUND_TRIPS = 10;
    /** Round trips added to the peer timeout at most, however lossy the link measures. */
    static final int TIMEOUT_ROUND_TRIPS_MAX = 60;
    /** The chance of a live peer's watermark failing for as long as the timeout's round trips allow. */
    static final double TIMEOUT_CHANCE = 1e-6;
    /** The longest round trip and sending time the peer timeout allows for: a wild estimate must not hide a cut. */
    static final int TIMEOUT_PART_CAP_SECONDS = 60;

    private final NormLinkSettings settings;
    private final SiteId site;
    private final int localNodeId;
    private final Map<SiteId, Peer> peers;
    private final Map<Integer, Peer> peersByNodeId;
    private final LongAdder framesIgnored = new LongAdder();
    private final LongAdder framesForOthers = new LongAdder();
    private final LinkLifecycle<Open> lifecycle;

    public NormWanLink(NormLinkSettings settings) {
        this.settings = settings;
        this.site = settings.site();
        this.lifecycle = new LinkLifecycle<>(kind(), this.site);
        this.localNodeId = NormLinkSettings.nodeId(this.site);
        Map<SiteId, Peer> byPeer = new LinkedHashMap<>();
        Map<Integer, Peer> byNode = new LinkedHashMap<>();
        settings.peers().entrySet().stream().sorted(Map.Entry.comparingByKey()).forEach(entry -> {
            Peer peer = new Peer(entry.getKey(), settings.multicast() != null && entry.getValue().isBlank() ? null
                    : NormLinkSettings.hostPort(entry.getKey(), entry.getValue(), settings.port()));
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
        this.lifecycle.open(() -> {
            NormInstance instance;
            try {
                instance = NormInstance.create(this.settings.library());
            }
            catch (IllegalStateException | NormException ex) {
                throw new TransportUnavailableException("Unable to open the norm WAN link of site " + this.site + ": "
                        + ex.getMessage(), ex);
            }
            Open opened;
            try {
                opened = new Open(instance, handler);
            }
            catch (RuntimeException | IOException ex) {
                instance.close();
                NormLinkSettings.Multicast group = this.settings.multicast();
                throw new TransportUnavailableException("Unable to open the norm WAN link of site " + this.site
                        + (group == null ? " on port " + this.settings.port() : " on multicast group " + group
                                + (group.networkInterface() == null ? "" : " (interface " + group.networkInterface()
                                        + ")"))
                        + ": " + ex.getMessage(), ex);
            }
            opened.thread.start();
            NormLinkSettings.Multicast multicast = this.settings.multicast();
            if (multicast != null) {
                log.info("norm WAN link of site {} open on multicast group {} (interface {}, TTL {}, node {}): peers "
                        + "{}, {} bit/s of NORM messages for all of them ({} on the wire per peer), segments {} B, "
                        + "block {} + parity {}, auto parity {}", this.site, multicast,
                        multicast.networkInterface() == null ? "the system's" : multicast.networkInterface(),
                        multicast.ttl(), Integer.toUnsignedString(this.localNodeId), this.settings.peers().keySet(),
                        Math.round(this.settings.groupTxRateBitsPerSecond()), this.settings.rateBitsPerSecond(),
                        this.settings.segmentBytes(), this.settings.blockSegments(), this.settings.paritySegments(),
                        autoParityText());
                return opened;
            }
            log.info("norm WAN link of site {} open on {}:{} (node {}): peers {}, {} bit/s of NORM messages per peer "
                    + "({} on the wire), segments {} B, block {} + parity {}, auto parity {}", this.site,
                    this.settings.bindAddress() == null ? "*" : this.settings.bindAddress(), this.settings.port(),
                    Integer.toUnsignedString(this.localNodeId), this.settings.peers(),
                    Math.round(this.settings.txRateBitsPerSecond()), this.settings.rateBitsPerSecond(),
                    this.settings.segmentBytes(), this.settings.blockSegments(), this.settings.paritySegments(),
                    autoParityText());
            return opened;
        });
    }

    private String autoParityText() {
        Integer fixed = this.settings.autoParity();
        return fixed == null ? "adaptive (target " + this.settings.parityTargetPercent() + "% of frames repaired)"
                : fixed.toString();
    }

    @Override
    public void send(SiteId peer, byte[] frame) throws TransportException {
        send(peer, frame, Precedence.ROUTINE);
    }

    /** A frame of {@link NormLinkSettings#parityPrecedence} or more urgent goes with the peer's proactive parity. */
    @Override
    public void send(SiteId peer, byte[] frame, Precedence urgency) throws TransportException {
        Peer target = peer(peer);
        this.lifecycle.checkFrame(frame.length, this.settings.segmentBytes());
        this.lifecycle.require();
        target.send(frame, this.settings.parityFor(urgency));
    }

    /** {@link NormLinkSettings#parityPrecedence}, unless proactive parity is fixed at none. */
    @Override
    public @Nullable Precedence urgentFrom() {
        Integer fixed = this.settings.autoParity();
        return fixed != null && fixed == 0 ? null : this.settings.parityPrecedence();
    }

    @Override
    public long unacknowledgedBytes(SiteId peer) {
        return peer(peer).ledger.unacknowledgedBytes();
    }

    @Override
    public long queuedBytes(SiteId peer) {
        return peer(peer).queuedBytes();
    }

    /** NORM's estimate of the round trip to {@code peer} (its GRTT, measured by its probes); zero before a session. */
    @Override
    public Duration roundTrip(SiteId peer) {
        NormSession session = peer(peer).sender;
        return session == null ? Duration.ZERO : Duration.ofNanos(Math.round(session.grttEstimate() * 1e9));
    }

    @Override
    public LinkState state(SiteId peer) {
        return peer(peer).ledger.state();
    }

    /**
     * Parity segments sent with each urgent frame to {@code peer} now ({@link NormLinkSettings#parityPrecedence}): as
     * configured, or as its measured loss calls for.
     */
    public int autoParity(SiteId peer) {
        return peer(peer).paritySegments();
    }

    /**
     * Parity segments the session to {@code peer} sends with every block it starts now: none unless every frame goes
     * with parity (urgent frames get theirs in a second pass, see {@link SessionParity}).
     */
    public int parityNow(SiteId peer) {
        SessionParity parity = peer(peer).parity;
        return parity == null ? 0 : parity.applied();
    }

    /**
     * The share (0 to 1) of this link's packets lost on the way to {@code peer}, as the peer measured it on its last
     * {@value LossWindow#SIZE} samples at most ({@link LossWindow}); NaN until it has {@value LossWindow#MIN_SAMPLES}.
     */
    public double loss(SiteId peer) {
        return peer(peer).loss;
    }

    /**
     * What the adaptive parity to {@code peer} follows, from the peer's last report: the loss, the recent loss when
     * higher, and for parity on urgent frames only the most loss the samples allow, from the first sample on
     * ({@link LossReport.Tally#urgentParityLoss}); NaN until measured.
     */
    public double parityLoss(SiteId peer) {
        return peer(peer).parityLoss;
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
        details.put("autoParity", this.settings.autoParity() == null ? "adaptive" : this.settings.autoParity());
        details.put("parityTargetPercent", this.settings.parityTargetPercent());
        details.put("parityPrecedence", this.settings.parityPrecedence().name());
        details.put("peerTimeout", this.settings.peerTimeout().toString());
        details.put("open", this.lifecycle.isOpen());
        details.put("framesIgnored", this.framesIgnored.sum());
        NormLinkSettings.Multicast multicast = this.settings.multicast();
        details.put("mode", multicast == null ? "unicast" : "multicast");
        if (multicast != null) {
            details.put("multicastGroup", multicast.toString());
            details.put("multicastInterface", multicast.networkInterface() == null ? "" : multicast.networkInterface());
            details.put("multicastTtl", multicast.ttl());
            details.put("groupTxRateBitsPerSecond", Math.round(this.settings.groupTxRateBitsPerSecond()));
            details.put("framesForOthers", this.framesForOthers.sum());
        }
        Map<String, Object> byPeer = new LinkedHashMap<>();
        this.peers.forEach((id, peer) -> byPeer.put(id.value(), peer.details()));
        details.put("peers", byPeer);
        return details;
    }

    @Override
    public void close() {
        if (this.lifecycle.close(Open::close)) {
            log.info("norm WAN link of site {} closed", this.site);
        }
    }

    /**
     * How long frames may stay unacknowledged before the peer counts as lost: the configured timeout plus round trips
     * as NORM measures them, so a long-delay link (satellite, HF) is not taken for cut while its repair rounds run
     * (with 250 ms of one-way delay and 30% loss a fixed 5 s put a live peer DOWN 11 times in one run of the wan
     * experiment), plus the time the link takes to send the unacknowledged bytes once at its rate: NORM asks for the
     * acknowledgement only once it has sent everything before the watermark, so on a narrow link the wait grows with
     * what is in flight (up to 120 kB, 7.9 s of 128 kbit/s, in the satellite run of docs/results.md). How many round
     * trips: {@link #timeoutRoundTrips}. A wild estimate must not hide a cut: the round trip counts for
     * {@value #TIMEOUT_PART_CAP_SECONDS} s at most, the round trips together for ten of those, the sending time for
     * {@value #TIMEOUT_PART_CAP_SECONDS} s.
     *
     * @param loss the share of a request or its answer lost on the way, both ways together; 0 when not measured
     */
    static Duration peerTimeout(Duration configured, double grttSeconds, double loss, long unacknowledgedBytes,
            double rateBitsPerSecond) {
        double rounds = Math.min(Math.min(Math.max(grttSeconds, 0), TIMEOUT_PART_CAP_SECONDS) * timeoutRoundTrips(loss),
                TIMEOUT_PART_CAP_SECONDS * TIMEOUT_ROUND_TRIPS);
        double sending = Math.min(Math.max(unacknowledgedBytes, 0) * 8 / rateBitsPerSecond, TIMEOUT_PART_CAP_SECONDS);
        return configured.plusNanos(Math.round((rounds + sending) * 1e9));
    }

    /**
     * Round trips a watermark may take on a link that loses {@code loss} of a request or its answer: NORM asks again
     * every step of about two round trips, and a live peer's acknowledgement needs a step whose request and answer
     * both arrive, so the timeout allows as many steps as make a run of failed ones a one-in-a-million chance
     * ({@value #TIMEOUT_CHANCE}). Across a 250 ms hop at 30% loss each way a watermark took up to 11 steps, and ten
     * round trips (five steps) put a live peer DOWN in most runs; at 30% each way this allows 42, at 10% 18. Never
     * fewer than {@value #TIMEOUT_ROUND_TRIPS}, never more than {@value #TIMEOUT_ROUND_TRIPS_MAX}.
     */
    static int timeoutRoundTrips(double loss) {
        if (!(loss > 0)) {
            return TIMEOUT_ROUND_TRIPS;
        }
        double steps = Math.ceil(Math.log(TIMEOUT_CHANCE) / Math.log(Math.min(loss, 0.99)));
        return (int) Math.clamp(2 * steps, TIMEOUT_ROUND_TRIPS, TIMEOUT_ROUND_TRIPS_MAX);
    }

    /** The share of a request or its answer lost: of either, {@code out} lost on the way there, {@code in} back. */
    static double lossBothWays(double out, double in) {
        return 1 - (1 - clampLoss(out)) * (1 - clampLoss(in));
    }

    private static double clampLoss(double loss) {
        return Double.isNaN(loss) ? 0 : Math.clamp(loss, 0, 1);
    }

    private Peer peer(SiteId peer) {
        return this.lifecycle.peer(this.peers, peer);
    }

    /** What exists while the link is open; the instance owns every session and closes them with itself. */
    private final class Open {

        final NormInstance instance;
        final FrameHandler handler;
        final NormSession receiver;
        /** The one session on the multicast group, which is also {@link #receiver}; null in unicast mode. */
        final @Nullable NormGroup group;
        final Thread thread;
        /**
         * Per object with NORM info under way: whether its info came after its data, i.e. the info packet was lost on
         * the first pass ({@link LossReport}). On the event thread only.
         */
        private final Map<Long, Boolean> infoLate = new HashMap<>();

        Open(NormInstance instance, FrameHandler handler) throws IOException {
            this.instance = instance;
            this.handler = handler;
            if (settings.multicast() != null) {
                NormGroup opened = NormGroup.open(instance, settings, localNodeId, peers.values(), CACHE_COUNT_MIN,
                        CACHE_COUNT_MAX);
                peers.values().forEach(peer -> peer.attach(opened.session, opened, opened.parity));
                this.group = opened;
                this.receiver = opened.session;
            }
            else {
                this.group = null;
                this.receiver = openUnicast(instance);
            }
            this.receiver.setUserTimer(CHECK_MILLIS / 1000.0);
            this.thread = Thread.ofPlatform().name("norm-wan-link-" + site).daemon(true).unstarted(this::run);
        }

        /** The receive session on this gateway's port, and a send-only session to each peer. */
        private NormSession openUnicast(NormInstance instance) throws UnknownHostException {
            String bind = settings.bindAddress() == null ? null : resolve(settings.bindAddress());
            NormSession receiver = instance.createSession(bind == null ? "0.0.0.0" : bind, settings.port(),
                    localNodeId);
            receiver.bindTo(bind, null);
            receiver.setUnicastNacks(true);
            // The default policy may skip an object whose first packets were lost.
            receiver.setSyncPolicy(NormSession.SyncPolicy.ALL);
            receiver.setBackoffFactor(0);
            receiver.setRxCacheLimit(RX_CACHE_COUNT);
            receiver.startReceiver(settings.bufferBytes());
            SecureRandom random = new SecureRandom();
            for (Peer peer : peers.values()) {
                NormLinkSettings.Endpoint endpoint = Objects.requireNonNull(peer.endpoint, "endpoint");
                NormSession sender = instance.createSession(resolve(endpoint.host()), endpoint.port(), localNodeId);
                sender.setTxOnly();
                sender.setCongestionControl(false);
                sender.setTxRate(settings.txRateBitsPerSecond());
                sender.setGrttEstimate(settings.grttEstimate().toNanos() / 1e9);
                sender.setBackoffFactor(0);
                SessionParity parity = new SessionParity(sender, settings, settings.txRateBitsPerSecond(),
                        "frames of site " + site + " to " + peer.site);
                sender.setTxCacheBounds(Math.max(settings.bufferBytes(),
                        (long) CACHE_COUNT_MIN * settings.segmentBytes()), CACHE_COUNT_MIN, CACHE_COUNT_MAX);
                sender.addAckingNode(peer.nodeId);
                // A new instance id each start: the peer's receiver sees a restart, not old objects' successors.
                sender.startSender(random.nextInt(1 << 16), settings.bufferBytes(), settings.segmentBytes(),
                        settings.blockSegments(), settings.paritySegments());
                if (settings.txLossPercent() > 0) {
                    sender.setTxLoss(settings.txLossPercent());
                }
                peer.attach(sender, null, parity);
            }
            return receiver;
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
            if (event.type() == NormEventType.TX_OBJECT_SENT) {
                objectSent(event.object());
                return;
            }
            if (session == this.receiver) {
                switch (event.type()) {
                    case RX_OBJECT_INFO -> this.infoLate.putIfAbsent(event.object(), false);
                    case RX_OBJECT_UPDATED -> {
                        if (event.hasInfo()) {
                            this.infoLate.putIfAbsent(event.object(), true);
                        }
                    }
                    case RX_OBJECT_COMPLETED -> {
                        sample(event);
                        frame(event);
                    }
                    case RX_OBJECT_ABORTED -> {
                        this.infoLate.remove(event.object());
                        aborted(event);
                    }
                    case REMOTE_SENDER_NEW, REMOTE_SENDER_ACTIVE -> heard(event, false);
                    case REMOTE_SENDER_RESET -> heard(event, true);
                    case USER_TIMEOUT -> {
                        checkPeers();
                        this.receiver.setUserTimer(CHECK_MILLIS / 1000.0);
                    }
                    case TX_WATERMARK_COMPLETED -> {
                        if (this.group != null) {
                            this.group.watermarkCompleted();
                        }
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
        }

        /** NORM sent an object once: the peer whose frame it was has a shorter queue (a probe is nobody's frame). */
        private void objectSent(long object) {
            for (Peer peer : peers.values()) {
                if (peer.leftQueue(object)) {
                    try {
                        this.handler.queueDrained(peer.site);
                    }
                    catch (RuntimeException ex) {
                        log.warn("Frame handler failed on the drained queue of peer {}", peer.site, ex);
                    }
                    return;
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
            if (this.group != null) {
                groupObject(sender, event);
                return;
            }
            if (event.hasInfo()) {
                LossReport report = LossReport.parse(event.info());
                if (report != null) {
                    reported(sender, report);
                    return;
                }
                // A probe of the peer's link (see Peer.probe), not a frame.
                sender.probesReceived.increment();
                notify(sender, sender.heard(false));
                return;
            }
            deliver(sender, event.data());
        }

        /**
         * An object of the group: a frame or probe marked with the node id of the site it is for (see
         * {@link NormGroup.Marker}). Every member receives every object; one for another site only shows its sender
         * alive.
         */
        private void groupObject(Peer sender, NormEvent event) {
            byte[] info = event.info();
            LossReport report = LossReport.parse(info);
            if (report != null) {
                reported(sender, report);
                return;
            }
            NormGroup.Marker marker = NormGroup.Marker.of(info);
            if (marker == null) {
                framesIgnored.increment();
                if (Long.bitCount(framesIgnored.sum()) == 1) {
                    log.warn("norm WAN link of site {} ignored an object from {} without the multicast mode's "
                            + "marker: is that gateway in unicast mode?", site, sender.site);
                }
                return;
            }
            if (marker.nodeId() != localNodeId) {
                if (marker.kind() == NormGroup.Marker.FRAME) {
                    framesForOthers.increment();
                }
                notify(sender, sender.heard(false));
                return;
            }
            switch (marker.kind()) {
                case NormGroup.Marker.PROBE -> {
                    sender.probesReceived.increment();
                    notify(sender, sender.heard(false));
                    // It has not heard us: tell it we are here.
                    sender.answer();
                }
                case NormGroup.Marker.ANSWER -> notify(sender, sender.heard(false));
                default -> deliver(sender, event.data());
            }
        }

        private void deliver(Peer sender, byte[] frame) {
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

        /** NORM gave up an object it was receiving: the peer's gateway sends its messages again once unreceipted. */
        private void aborted(NormEvent event) {
            Peer peer = peersByNodeId.get(event.senderNodeId());
            if (peer == null) {
                return;
            }
            peer.framesAborted.increment();
            if (Long.bitCount(peer.framesAborted.sum()) == 1) {
                log.warn("norm WAN link of site {}: NORM aborted an object from peer {} before it completed ({} so "
                        + "far); its messages come again when the peer's receipt timeout passes", site, peer.site,
                        peer.framesAborted.sum());
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
            if (this.group != null) {
                this.group.parity.report(now, peers.values().stream().map(Peer::tally).toList());
            }
            else {
                peers.values().forEach(peer -> peer.report(now));
            }
        }

        /** An object with NORM info completed: one sample of its sender's loss, whether its info came late. */
        private void sample(NormEvent event) {
            Boolean late = this.infoLate.remove(event.object());
            Peer peer = peersByNodeId.get(event.senderNodeId());
            if (late != null && peer != null) {
                peer.received.record(late);
            }
        }

        /**
         * A peer's loss report: its tally of our packets is their loss on the way there, shown once it rests on
         * enough samples; the parity follows it as soon as it can ({@link SessionParity#follows}).
         */
        private void reported(Peer peer, LossReport report) {
            LossReport.Tally ours = report.tallyOf(localNodeId);
            if (ours == null || ours.samples() == 0) {
                return;
            }
            if (ours.samples() >= LossWindow.MIN_SAMPLES) {
                peer.lossSamples = ours.samples();
                peer.loss = ours.loss();
            }
            double followed = Objects.requireNonNull(peer.parity, "parity").follows(ours);
            if (Double.isNaN(followed)) {
                return;
            }
            peer.parityLoss = followed;
            if (this.group != null) {
                this.group.measured();
            }
            else {
                Objects.requireNonNull(peer.parity, "parity").measured(peer.parityLoss);
            }
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
            if (!LinkLifecycle.awaitReceiveThread(this.thread)) {
                log.warn("norm WAN link of site {}: the frame handler did not return within {}; closing under it", site,
                        LinkLifecycle.CLOSE_WAIT);
            }
            this.instance.close();
        }
    }

    /**
     * One peer site: its send session (in multicast mode the group's, shared), its node id, its watermark (in
     * multicast mode the group's), and the link's bookkeeping of it.
     */
    private final class Peer implements NormGroup.Member {

        final SiteId site;
        final NormLinkSettings.@Nullable Endpoint endpoint;
        final int nodeId;
        final LinkPeer ledger;
        final LongAdder restarts = new LongAdder();
        final LongAdder probesSent = new LongAdder();
        final LongAdder probesReceived = new LongAdder();
        final LongAdder framesAborted = new LongAdder();
        volatile @Nullable NormSession sender;
        /** The multicast group this peer is reached through; null in unicast mode. */
        private volatile @Nullable NormGroup group;
        /** The parity of the frames to this peer: its own session's, or the group's. */
        volatile @Nullable SessionParity parity;
        /** The loss of the peer's packets on the way here. On the event thread only. */
        final LossWindow received = new LossWindow();
        /** The share of our packets the peer last reported lost, and of how many samples; NaN until measured. */
        volatile double loss = Double.NaN;
        /**
         * What the parity follows: the loss, or the recent loss when higher ({@link LossReport.Tally#parityLoss}); for
         * parity on urgent frames only, the recent loss's upper bound once some was lost
         * ({@link LossReport.Tally#urgentParityLoss}).
         */
        volatile double parityLoss = Double.NaN;
        volatile int lossSamples;
        /** The peer timeout as the last check reckoned it. */
        volatile Duration timeoutNow = settings.peerTimeout();
        // Guarded by lock().
        /**
         * Counter, NORM object and (multicast mode) the group's enqueue order of each frame handed over and not
         * acknowledged, oldest first.
         */
        private final ArrayDeque<long[]> objects = new ArrayDeque<>();
        private long lastObject;
        /** Bytes of each frame's NORM object not yet sent once, by object: the link's queue to this peer. */
        private final Map<Long, Integer> unsent = new HashMap<>();
        /** When each urgent frame not yet sent once was handed over, by object; kept only while DEBUG is on. */
        private final Map<Long, Long> urgentHandedOver = new HashMap<>();
        /** The counter of the frame the outstanding watermark is on; 0 when none is. Unicast only. */
        private long watermarkAt;
        /** When the outstanding watermark was asked for. */
        private long watermarkArmedNanos;
        /** When the next probe may go, in multicast mode (no watermark paces it there). */
        private long nextProbeNanos;
        /** The last probe, while the peer is not UP; 0 when none. Unicast only. */
        private long probe;

        Peer(SiteId site, NormLinkSettings.@Nullable Endpoint endpoint) {
            this.site = site;
            this.endpoint = endpoint;
            this.nodeId = NormLinkSettings.nodeId(site);
            this.ledger = new LinkPeer(site);
        }

        @Override
        public int nodeId() {
            return this.nodeId;
        }

        @Override
        public LinkPeer ledger() {
            return this.ledger;
        }

        @Override
        public ArrayDeque<long[]> objects() {
            return this.objects;
        }

        @Override
        public double parityLoss() {
            return this.parityLoss;
        }

        void attach(NormSession session, @Nullable NormGroup group, SessionParity parity) {
            this.sender = session;
            this.group = group;
            this.parity = parity;
        }

        int paritySegments() {
            SessionParity current = this.parity;
            Integer fixed = settings.autoParity();
            return current != null ? current.segments() : fixed == null ? 0 : fixed;
        }

        LossReport.Tally tally() {
            return LossReport.Tally.of(this.nodeId, this.received);
        }

        /** Sends this peer's session a loss report when one is due. Unicast mode, on the event thread. */
        void report(long now) {
            SessionParity current = this.parity;
            if (current != null) {
                current.report(now, List.of(tally()));
            }
        }

        /** What guards this peer's objects: the group's lock in multicast mode, whose watermark spans every peer. */
        private Object lock() {
            NormGroup shared = this.group;
            return shared != null ? shared : this.ledger;
        }

        void send(byte[] frame, boolean urgent) throws TransportException {
            synchronized (lock()) {
                this.ledger.requireUp(kind());
                NormSession session = this.sender;
                if (session == null) {
                    throw this.ledger.refused("The norm WAN link to peer site " + this.site + " is not open", null);
                }
                NormGroup shared = this.group;
                SessionParity parity = Objects.requireNonNull(this.parity, "parity");
                long object;
                try {
                    object = parity.enqueue(urgent, () -> shared == null ? session.enqueue(frame)
                            : session.enqueue(frame, NormGroup.Marker.bytes(NormGroup.Marker.FRAME, this.nodeId)));
                }
                catch (NormException.QueueFull ex) {
                    throw this.ledger.refused("Peer site " + this.site + " does not keep up: " + ex.getMessage(), ex);
                }
                catch (NormException | IllegalStateException ex) {
                    throw this.ledger.refused("Unable to send a frame to peer site " + this.site + ": "
                            + ex.getMessage(), ex);
                }
                long counter = this.ledger.sent(frame.length);
                this.unsent.put(object, frame.length);
                if (urgent && log.isDebugEnabled()) {
                    this.urgentHandedOver.put(object, System.nanoTime());
                }
                if (shared != null) {
                    this.objects.addLast(new long[] {counter, object, shared.sent(object)});
                    return;
                }
                this.objects.addLast(new long[] {counter, object});
                this.lastObject = object;
                if (this.watermarkAt == 0) {
                    armWatermark(session);
                }
            }
        }

        long queuedBytes() {
            synchronized (lock()) {
                // A few frames at most: the gateway hands over more only while this stays under its link queue.
                return this.unsent.values().stream().mapToLong(Integer::longValue).sum();
            }
        }

        /**
         * NORM sent this object once; whether it was a frame still counted in the queue (a probe is not). An urgent
         * frame's parity may leave with it.
         */
        boolean leftQueue(long object) {
            synchronized (lock()) {
                Integer bytes = this.unsent.remove(object);
                if (bytes == null) {
                    return false;
                }
                SessionParity current = this.parity;
                Long handedOver = this.urgentHandedOver.remove(object);
                if (handedOver != null) {
                    // Where a slow urgent frame waited: in NORM's queue (behind repairs and the frames before it), or
                    // after its first pass (a repair round); the relay's DEBUG lines give its whole time.
                    log.debug("norm WAN link of site {}: NORM sent an urgent frame of {} bytes to site {} once, "
                            + "to go again with its {} parity segments, {} ms after it was handed over; {} frames "
                            + "({} bytes) queued behind it",
                            NormWanLink.this.site, bytes, this.site, current == null ? 0 : current.segments(),
                            (System.nanoTime() - handedOver) / 1_000_000, this.unsent.size(), queuedBytes());
                }
                if (current != null) {
                    current.sentOnce(object);
                }
                return true;
            }
        }

        /** Asks the peer to acknowledge everything up to the newest frame. */
        private void armWatermark(NormSession session) {
            boolean set = this.lastObject != 0 && session.setWatermark(this.lastObject);
            this.watermarkAt = set ? this.ledger.nextCounter() - 1 : 0;
            this.watermarkArmedNanos = System.nanoTime();
        }

        /** The watermark request ended: acknowledged, or NORM gave up asking. Unicast mode. */
        List<LinkState> watermarkCompleted(NormSession.AckingStatus status) {
            List<LinkState> transitions = new ArrayList<>(1);
            synchronized (lock()) {
                long upTo = this.watermarkAt;
                this.watermarkAt = 0;
                // How long acknowledgements take is what the peer timeout must allow for on a long, lossy hop.
                log.debug("norm WAN link of site {}: the watermark on frame {} to site {} ended {} after {} ms, with "
                        + "{} frames ({} bytes) not acknowledged and {} frames not yet sent once",
                        NormWanLink.this.site, upTo, this.site, status,
                        (System.nanoTime() - this.watermarkArmedNanos) / 1_000_000,
                        this.ledger.unacknowledgedFrames(), this.ledger.unacknowledgedBytes(), this.unsent.size());
                if (status == NormSession.AckingStatus.SUCCESS) {
                    acknowledged(upTo);
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

        /** The peer has every frame up to counter {@code upTo}: they leave the unacknowledged bytes. */
        @Override
        public void acknowledged(long upTo) {
            this.ledger.acknowledged(upTo);
            while (!this.objects.isEmpty() && this.objects.peekFirst()[0] <= upTo) {
                this.objects.removeFirst();
            }
        }

        /** The peer's sender reached our receiver; {@code restarted} when it came back as a new instance. */
        List<LinkState> heard(boolean restarted) {
            List<LinkState> transitions = new ArrayList<>(2);
            synchronized (lock()) {
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
            double in = this.received.samples() < LossWindow.MIN_SAMPLES ? 0
                    : (double) this.received.lost() / this.received.samples();
            Duration timeout = peerTimeout(settings.peerTimeout(), session == null ? 0 : session.grttEstimate(),
                    lossBothWays(this.loss, in), this.ledger.unacknowledgedBytes(), settings.txRateBitsPerSecond());
            this.timeoutNow = timeout;
            synchronized (lock()) {
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
         *
         * <p>In multicast mode a peer that is not UP is no acking node (it would hold up the others' watermark): the
         * probe, addressed to it, asks it to {@linkplain #answer answer}, and hearing the answer makes it UP. One
         * probe a {@value #MULTICAST_PROBE_MILLIS} ms.
         */
        void probe() {
            synchronized (lock()) {
                NormSession session = this.sender;
                LinkState state = this.ledger.state();
                if (session == null || this.watermarkAt != 0 || state == LinkState.UP) {
                    return;
                }
                if (this.group != null) {
                    long now = System.nanoTime();
                    if (now - this.nextProbeNanos < 0) {
                        return;
                    }
                    this.nextProbeNanos = now + MULTICAST_PROBE_MILLIS * 1_000_000;
                }
                if (this.probe != 0) {
                    // Its watermark failed. Kept, NORM would repair it and every probe since when the peer is heard
                    // again, ahead of the frames; cancelled, one squelch answers them. While the peer is not UP only
                    // probes and loss reports go to its session, so the handle is never a frame's.
                    session.cancel(this.probe);
                    this.probe = 0;
                }
                try {
                    long object = session.enqueue(PROBE, this.group == null ? PROBE
                            : NormGroup.Marker.bytes(NormGroup.Marker.PROBE, this.nodeId));
                    this.lastObject = this.group == null ? object : 0;
                    this.probe = this.group == null ? object : 0;
                }
                catch (NormException | IllegalStateException ex) {
                    return; // the next check tries again
                }
                this.probesSent.increment();
                if (this.group == null) {
                    armWatermark(session);
                }
            }
        }

        /** Answers the peer's probe (multicast mode): anything from us makes us UP at its end. */
        void answer() {
            NormSession session = this.sender;
            if (session == null) {
                return;
            }
            try {
                session.enqueue(PROBE, NormGroup.Marker.bytes(NormGroup.Marker.ANSWER, this.nodeId));
            }
            catch (NormException | IllegalStateException ex) {
                log.debug("norm WAN link of site {}: no answer to the probe of {}: {}", NormWanLink.this.site,
                        this.site, ex.getMessage());
            }
        }

        private void down(String why, boolean stalled, List<LinkState> transitions) {
            long bytes = this.ledger.unacknowledgedBytes();
            int frames = this.ledger.down(stalled);
            // NORM would repair what it still holds first, in the order it was handed over, when the peer is back;
            // the gateway sends those messages again, by precedence.
            NormSession session = this.sender;
            NormGroup shared = this.group;
            if (session != null) {
                // In multicast mode the watermark is the group's (see NormGroup.left) and only this peer's objects go:
                // the others' stay under way.
                if (shared == null) {
                    session.cancelWatermark();
                }
                SessionParity parity = this.parity;
                this.objects.forEach(entry -> {
                    session.cancel(entry[1]);
                    if (parity != null) {
                        parity.cancelled(entry[1]);
                    }
                });
            }
            this.objects.clear();
            this.unsent.clear();
            this.urgentHandedOver.clear();
            this.watermarkAt = 0;
            this.lastObject = 0;
            if (shared != null) {
                shared.left(this);
            }
            log.warn("norm WAN link of site {}: peer {} lost ({}); {} frames ({} bytes) not acknowledged count as "
                    + "lost", NormWanLink.this.site, this.site, why, frames, bytes);
            transitions.add(LinkState.DOWN);
        }

        private void up(List<LinkState> transitions) {
            this.ledger.up();
            this.probe = 0;
            NormGroup shared = this.group;
            if (shared != null) {
                shared.joined(this);
            }
            transitions.add(LinkState.UP);
        }

        Map<String, Object> details() {
            Map<String, Object> details = new LinkedHashMap<>();
            details.put("address", this.endpoint == null ? "" : this.endpoint.toString());
            details.put("nodeId", Integer.toUnsignedString(this.nodeId));
            details.putAll(this.ledger.details());
            details.put("queuedBytes", queuedBytes());
            NormSession session = this.sender;
            details.put("grttSeconds", session == null ? 0.0 : session.grttEstimate());
            details.put("peerTimeoutNow", this.timeoutNow.toString());
            details.put("restarts", this.restarts.sum());
            details.put("probesSent", this.probesSent.sum());
            details.put("probesReceived", this.probesReceived.sum());
            details.put("framesAborted", this.framesAborted.sum());
            details.put("autoParity", paritySegments());
            SessionParity current = this.parity;
            details.put("parityNow", current == null ? 0 : current.applied());
            details.put("urgentSecondPasses", current == null ? 0 : current.secondPasses());
            // Samples the measure rests on; none yet, no measure.
            details.put("lossSamples", this.lossSamples);
            if (this.lossSamples > 0) {
                details.put("loss", this.loss);
            }
            if (!Double.isNaN(this.parityLoss)) {
                details.put("parityLoss", this.parityLoss);
            }
            return details;
        }
    }
}
