package kr.c4i.gateway.norm.link;

import java.io.IOException;
import java.net.NetworkInterface;
import java.nio.ByteBuffer;
import java.security.SecureRandom;
import java.util.ArrayDeque;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import kr.c4i.gateway.core.link.LinkPeer;
import kr.c4i.gateway.core.link.LinkState;
import kr.c4i.gateway.norm.NormInstance;
import kr.c4i.gateway.norm.NormSession;

/**
 * The norm link's multicast mode: its one NORM session on the group, and that session's one watermark, acking list
 * and parity. NORM keeps a single watermark per session: it is set on the newest frame, remembering how far each UP
 * peer's frames went then; when it completes, each peer's own acknowledgement ({@code NormGetAckingStatus} with its
 * node id) releases that peer's frames up to there, so a peer that did not acknowledge keeps its frames while the
 * others' are released. The acking nodes are the peers that are UP: a lost peer is taken off so it does not hold up
 * the others, and put back when it is UP again. Lock order: this, then a member's ledger.
 */
final class NormGroup {

    /** What the group needs of a peer of the link. */
    interface Member {

        int nodeId();

        LinkPeer ledger();

        /** Counter, NORM object and group order ({@link #sent}) of each frame not acknowledged, oldest first. */
        ArrayDeque<long[]> objects();

        /** The peer has every frame up to counter {@code upTo}. */
        void acknowledged(long upTo);

        /**
         * The share of the group's packets lost on the way to the peer that the parity follows, as it last reported
         * ({@link LossReport.Tally#parityLoss}); NaN until then.
         */
        double parityLoss();
    }

    final NormSession session;
    /** The group's one parity, for the peer that loses the most. */
    final SessionParity parity;
    private final List<? extends Member> members;
    // Guarded by this.
    private long lastObject;
    /** Frames enqueued so far: the order of each, to find the newest still held. */
    private long enqueued;
    /** Each member's frame counter when the outstanding watermark was set; empty when none is out. */
    private final Map<Member, Long> watermark = new LinkedHashMap<>();

    private NormGroup(NormSession session, SessionParity parity, Collection<? extends Member> members) {
        this.session = session;
        this.parity = parity;
        this.members = List.copyOf(members);
    }

    /**
     * Opens the one session on the group: it receives every peer and sends to all of them at the per-peer budget
     * times the number of peers (what the gateway's per-peer senders may offer together). Its receive socket is
     * shared (port reuse), so several gateways on one host can join; NORM drops its own packets by node id.
     */
    static NormGroup open(NormInstance instance, NormLinkSettings settings, int localNodeId,
            Collection<? extends Member> members, int cacheCountMin, int cacheCountMax) throws IOException {
        NormLinkSettings.Multicast multicast = settings.multicast();
        if (multicast == null) {
            throw new IllegalStateException("The norm link of site " + settings.site() + " has no multicast group");
        }
        // NORM only notes the name and fails later with no word of it.
        if (multicast.networkInterface() != null && NetworkInterface.getByName(multicast.networkInterface()) == null) {
            throw new IOException("this host has no network interface '" + multicast.networkInterface() + "'");
        }
        NormSession session = instance.createSession(multicast.group(), multicast.port(), localNodeId);
        // Bound to the group's address: the socket hears only this group, whatever else uses the port.
        session.bindTo(multicast.group(), null);
        if (multicast.networkInterface() != null) {
            session.setMulticastInterface(multicast.networkInterface());
        }
        session.setTtl(multicast.ttl());
        session.setLoopback(false);
        session.setUnicastNacks(true);
        session.setSyncPolicy(NormSession.SyncPolicy.ALL);
        session.setBackoffFactor(0);
        session.setCongestionControl(false);
        session.setTxRate(settings.groupTxRateBitsPerSecond());
        session.setGrttEstimate(settings.grttEstimate().toNanos() / 1e9);
        SessionParity parity = new SessionParity(session, settings, settings.groupTxRateBitsPerSecond(),
                "frames of site " + settings.site() + " to group " + multicast);
        session.setTxCacheBounds(Math.max(settings.bufferBytes(), (long) cacheCountMin * settings.segmentBytes())
                * members.size(), cacheCountMin, cacheCountMax);
        session.setRxCacheLimit(NormWanLink.RX_CACHE_COUNT);
        session.startReceiver(settings.bufferBytes());
        // A new instance id each start: the peers' receivers see a restart, not old objects' successors.
        session.startSender(new SecureRandom().nextInt(1 << 16), settings.bufferBytes(), settings.segmentBytes(),
                settings.blockSegments(), settings.paritySegments());
        if (settings.txLossPercent() > 0) {
            session.setTxLoss(settings.txLossPercent());
        }
        return new NormGroup(session, parity, members);
    }

    /** A peer reported the loss of the group's packets: the parity follows the worst loss among the UP peers. */
    void measured() {
        double worst = Double.NaN;
        for (Member member : this.members) {
            double loss = member.parityLoss();
            if (member.ledger().state() == LinkState.UP && !Double.isNaN(loss)
                    && (Double.isNaN(worst) || loss > worst)) {
                worst = loss;
            }
        }
        if (!Double.isNaN(worst)) {
            this.parity.measured(worst);
        }
    }

    /** A frame went out: the watermark follows it once the outstanding one completes. Returns its group order. */
    synchronized long sent(long object) {
        this.lastObject = object;
        if (this.watermark.isEmpty()) {
            arm();
        }
        return ++this.enqueued;
    }

    private void arm() {
        this.watermark.clear();
        if (this.lastObject == 0) {
            return;
        }
        for (Member member : this.members) {
            LinkPeer ledger = member.ledger();
            if (ledger.state() == LinkState.UP && ledger.unacknowledgedFrames() > 0) {
                this.watermark.put(member, ledger.nextCounter() - 1);
            }
        }
        if (!this.watermark.isEmpty() && !this.session.setWatermark(this.lastObject)) {
            this.watermark.clear();
        }
    }

    /**
     * Each member acknowledged up to the watermark, or NORM gave up asking it. Asks again while frames wait; a peer
     * that never acknowledges goes DOWN after the peer timeout and leaves the acking list.
     */
    synchronized void watermarkCompleted() {
        this.watermark.forEach((member, upTo) -> {
            if (member.ledger().state() == LinkState.UP
                    && this.session.ackingStatus(member.nodeId()) == NormSession.AckingStatus.SUCCESS) {
                member.acknowledged(upTo);
            }
        });
        arm();
    }

    /** The member is UP: it acknowledges watermarks again. */
    synchronized void joined(Member member) {
        this.session.addAckingNode(member.nodeId());
    }

    /**
     * The member is DOWN and its objects are cancelled. The watermark may sit on one of them and would wait for it:
     * it is set again on the newest frame still held, without this member.
     */
    synchronized void left(Member member) {
        this.session.removeAckingNode(member.nodeId());
        if (!this.watermark.isEmpty()) {
            this.session.cancelWatermark();
            this.lastObject = newestObject();
            arm();
        }
    }

    /** The newest frame still held for any member; 0 for none. */
    private long newestObject() {
        long[] newest = null;
        for (Member member : this.members) {
            long[] last = member.objects().peekLast();
            if (last != null && (newest == null || last[2] > newest[2])) {
                newest = last;
            }
        }
        return newest == null ? 0 : newest[1];
    }

    /**
     * The NORM info on every object of the group: what it is and the node id of the site it is for, since every
     * member of the group receives every object. Five bytes: the kind, then the node id, big-endian.
     */
    record Marker(byte kind, int nodeId) {

        static final byte FRAME = 'f';
        /** A probe: the addressee answers it. */
        static final byte PROBE = 'p';
        /** The answer to a probe. */
        static final byte ANSWER = 'a';

        static byte[] bytes(byte kind, int nodeId) {
            return ByteBuffer.allocate(5).put(kind).putInt(nodeId).array();
        }

        /** The marker in {@code info}; null when it is none (a unicast gateway's object, say). */
        static @Nullable Marker of(byte[] info) {
            if (info.length != 5 || (info[0] != FRAME && info[0] != PROBE && info[0] != ANSWER)) {
                return null;
            }
            return new Marker(info[0], ByteBuffer.wrap(info, 1, 4).getInt());
        }
    }
}
