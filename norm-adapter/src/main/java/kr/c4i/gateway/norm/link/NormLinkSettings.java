package kr.c4i.gateway.norm.link;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.zip.CRC32;

import org.jspecify.annotations.Nullable;

import kr.c4i.gateway.core.link.SiteId;
import kr.c4i.gateway.core.transport.Ipv4Multicast;
import kr.c4i.gateway.kmtf.catalogue.Precedence;

/**
 * How the {@code norm} WAN link runs. The defaults are the settings that mattered in the measurements of
 * {@code NORM-LINK.md}: a fixed rate with congestion control off, a low initial round-trip estimate, blocks of 64
 * segments with up to 32 parity segments on request, and frames of one segment; proactive parity follows the loss
 * the link measures ({@link ParityPolicy}), none on a clean link, and goes with the frames that carry FLASH or
 * IMMEDIATE messages only.
 *
 * @param site this gateway's site
 * @param peers each peer site's gateway as {@code host} or {@code host:port} (the port defaults to {@code port})
 * @param bindAddress the local address the receive socket binds; every address when null
 * @param port the UDP port this gateway receives on
 * @param rateBitsPerSecond the link's budget per peer, bits per second on the wire: NORM sends at this less the
 *        IP and UDP headers ({@link #txRateBitsPerSecond})
 * @param segmentBytes the payload of one NORM data packet, and the largest frame: one frame is one segment
 * @param blockSegments source segments per FEC block
 * @param paritySegments parity segments NORM may compute per block to repair losses
 * @param autoParity parity segments sent with each frame of {@code parityPrecedence} or more urgent, ahead of any
 *        NACK, whatever the loss; null: as many as the loss the link measures calls for, up to
 *        {@code paritySegments} ({@link ParityPolicy})
 * @param parityTargetPercent with adaptive parity, the chance in percent that a frame still needs a repair round
 * @param parityPrecedence the least urgent precedence whose frames go with proactive parity: a frame carrying a
 *        message of it or a more urgent one does, the others are repaired on request only ({@code ROUTINE}: every
 *        frame)
 * @param grttEstimate the round-trip estimate NORM starts with; it measures the real one from there
 * @param peerTimeout how long frames may stay unacknowledged before the peer counts as lost, plus 10 to 60 round trips
 *        as NORM measures them (more the more loss the link measures) and the time to send the unacknowledged bytes
 *        once at the link's rate
 * @param bufferBytes memory for the sender's repair state per peer, and for the receiver per remote sender
 * @param txLossPercent packets NORM drops on purpose before they leave (NORM's test hook); 0 in operation
 * @param library libnorm's file name or path; Debian's {@code libnorm.so.1} when null
 * @param multicast the group every gateway of the link joins, instead of unicast to each peer; unicast when null
 */
public record NormLinkSettings(SiteId site, Map<SiteId, String> peers, @Nullable String bindAddress, int port,
        long rateBitsPerSecond, int segmentBytes, int blockSegments, int paritySegments, @Nullable Integer autoParity,
        double parityTargetPercent, Precedence parityPrecedence, Duration grttEstimate, Duration peerTimeout,
        int bufferBytes, double txLossPercent, @Nullable String library, @Nullable Multicast multicast) {

    public static final int DEFAULT_PORT = 6010;
    public static final int DEFAULT_SEGMENT_BYTES = 1400;
    public static final int DEFAULT_BLOCK_SEGMENTS = 64;
    public static final int DEFAULT_PARITY_SEGMENTS = 32;
    /** At most one frame in a hundred waits a repair round (a round trip or more) for want of parity: a p99's tail. */
    public static final double DEFAULT_PARITY_TARGET_PERCENT = 1;
    /**
     * Parity is paid on every packet it goes with, a repair on request only on those lost: the frames whose delay a
     * repair round matters for are FLASH's and IMMEDIATE's. Parity on every frame carried 0.4-0.85 times the messages
     * a second of this default with compression off (docs/results.md, "parity for urgent frames only").
     */
    public static final String DEFAULT_PARITY_PRECEDENCE = "IMMEDIATE";
    public static final long DEFAULT_GRTT_ESTIMATE_MILLIS = 50;
    /**
     * A cut WAN shows as frames left unacknowledged: after 5 s they go back to the store, so what waited drains by
     * precedence when the peer is back. A live peer acknowledges sooner: the watermark on the newest frame completes
     * once about a second of link time (the gateway's window) is through, 1.5 s at 30% loss, plus a few round trips.
     */
    public static final long DEFAULT_PEER_TIMEOUT_MILLIS = 5_000;
    public static final int DEFAULT_BUFFER_BYTES = 4 * 1024 * 1024;
    /** What IPv4, UDP and Ethernet add to each NORM message on the wire. */
    public static final int WIRE_HEADER_BYTES = 42;
    /** NORM's own header on a data message: common, object and FEC payload headers and the FEC extension. */
    public static final int NORM_DATA_HEADER_BYTES = 40;
    /**
     * The share of the wire's budget left to what NORM's pacing does not count: the IP and UDP headers of its small
     * packets (commands, probes, acknowledgements) and the feedback the gateway's own receive session sends the peer
     * on the same wire. Without it the shaper's queue grew by 4% of a loaded 256 kbit/s link, and with the queue the
     * round trip, so repairs were asked for twice (docs/results.md, "the norm link's wire").
     */
    public static final double UNPACED_SHARE = 0.05;
    /** One hop: the group stays on the shared net unless the operator raises it for a routed one. */
    public static final int DEFAULT_MULTICAST_TTL = 1;

    public NormLinkSettings {
        Objects.requireNonNull(site, "site");
        peers = Map.copyOf(peers);
        if (peers.isEmpty()) {
            throw new IllegalArgumentException("The norm WAN link of site " + site + " has no peers: set "
                    + "gateway.wan.norm.peers.<site>=<host>[:<port>]");
        }
        if (peers.containsKey(site)) {
            throw new IllegalArgumentException("Site " + site + " lists itself among its norm peers");
        }
        // In multicast mode the group reaches every peer: a peer's address is not used and may be left empty.
        peers.forEach((peer, address) -> {
            if (multicast == null || !address.isBlank()) {
                hostPort(peer, address, 1);
            }
        });
        requireRange("port", port, 1, 0xFFFF);
        if (rateBitsPerSecond < 8_000) {
            throw new IllegalArgumentException("The norm link's rate must be at least 8000 bits/s, was "
                    + rateBitsPerSecond);
        }
        requireRange("segment size", segmentBytes, 64, 8192);
        requireRange("block size", blockSegments, 1, 255);
        requireRange("parity", paritySegments, 0, 255 - blockSegments);
        if (autoParity != null) {
            requireRange("auto parity", autoParity, 0, paritySegments);
        }
        Objects.requireNonNull(parityPrecedence, "parityPrecedence");
        if (!(parityTargetPercent > 0 && parityTargetPercent < 100)) {
            throw new IllegalArgumentException("The norm link's parity target must be in (0, 100) percent, was "
                    + parityTargetPercent);
        }
        if (grttEstimate.isNegative() || grttEstimate.isZero() || grttEstimate.compareTo(Duration.ofSeconds(15)) > 0) {
            throw new IllegalArgumentException("The norm link's round-trip estimate must be in (0, 15 s], was "
                    + grttEstimate);
        }
        if (peerTimeout.compareTo(Duration.ofSeconds(1)) < 0) {
            throw new IllegalArgumentException("The norm link's peer timeout must be at least 1 s, was " + peerTimeout);
        }
        requireRange("buffer size", bufferBytes, 64 * 1024, Integer.MAX_VALUE);
        if (!(txLossPercent >= 0 && txLossPercent < 100)) {
            throw new IllegalArgumentException("The norm link's tx loss must be in [0, 100), was " + txLossPercent);
        }
        Map<Integer, SiteId> ids = new LinkedHashMap<>();
        ids.put(nodeId(site), site);
        for (SiteId peer : peers.keySet()) {
            SiteId clash = ids.putIfAbsent(nodeId(peer), peer);
            if (clash != null) {
                throw new IllegalArgumentException("Sites " + clash + " and " + peer + " map to the same NORM node id; "
                        + "rename one");
            }
        }
    }

    /** Settings with every default, for {@code site} and its peers. */
    public static NormLinkSettings of(SiteId site, Map<SiteId, String> peers, long rateBitsPerSecond) {
        return new NormLinkSettings(site, peers, null, DEFAULT_PORT, rateBitsPerSecond, DEFAULT_SEGMENT_BYTES,
                DEFAULT_BLOCK_SEGMENTS, DEFAULT_PARITY_SEGMENTS, null, DEFAULT_PARITY_TARGET_PERCENT,
                Precedence.valueOf(DEFAULT_PARITY_PRECEDENCE), Duration.ofMillis(DEFAULT_GRTT_ESTIMATE_MILLIS),
                Duration.ofMillis(DEFAULT_PEER_TIMEOUT_MILLIS), DEFAULT_BUFFER_BYTES, 0, null, null);
    }

    public NormLinkSettings withEndpoint(@Nullable String bindAddress, int port) {
        return new NormLinkSettings(site, peers, bindAddress, port, rateBitsPerSecond, segmentBytes, blockSegments,
                paritySegments, autoParity, parityTargetPercent, parityPrecedence,
                grttEstimate, peerTimeout, bufferBytes, txLossPercent, library, multicast);
    }

    public NormLinkSettings withTxLoss(double percent) {
        return new NormLinkSettings(site, peers, bindAddress, port, rateBitsPerSecond, segmentBytes, blockSegments,
                paritySegments, autoParity, parityTargetPercent, parityPrecedence,
                grttEstimate, peerTimeout, bufferBytes, percent, library, multicast);
    }

    /** Settings with a fixed auto parity, or adaptive parity when {@code segments} is null. */
    public NormLinkSettings withAutoParity(@Nullable Integer segments) {
        return new NormLinkSettings(site, peers, bindAddress, port, rateBitsPerSecond, segmentBytes, blockSegments,
                paritySegments, segments, parityTargetPercent, parityPrecedence,
                grttEstimate, peerTimeout, bufferBytes, txLossPercent, library, multicast);
    }

    /** Settings whose proactive parity goes with frames of {@code least} or more urgent messages. */
    public NormLinkSettings withParityPrecedence(Precedence least) {
        return new NormLinkSettings(site, peers, bindAddress, port, rateBitsPerSecond, segmentBytes, blockSegments,
                paritySegments, autoParity, parityTargetPercent, least, grttEstimate, peerTimeout, bufferBytes,
                txLossPercent, library, multicast);
    }

    /** Whether frames whose most urgent message is of {@code urgency} go with proactive parity. */
    public boolean parityFor(Precedence urgency) {
        return urgency.compareTo(parityPrecedence) <= 0;
    }

    public NormLinkSettings withPeerTimeout(Duration timeout) {
        return new NormLinkSettings(site, peers, bindAddress, port, rateBitsPerSecond, segmentBytes, blockSegments,
                paritySegments, autoParity, parityTargetPercent, parityPrecedence,
                grttEstimate, timeout, bufferBytes, txLossPercent, library, multicast);
    }

    public NormLinkSettings withMulticast(@Nullable Multicast group) {
        return new NormLinkSettings(site, peers, bindAddress, port, rateBitsPerSecond, segmentBytes, blockSegments,
                paritySegments, autoParity, parityTargetPercent, parityPrecedence,
                grttEstimate, peerTimeout, bufferBytes, txLossPercent, library, group);
    }

    /**
     * The rate NORM is given: {@code NormSetTxRate} paces NORM messages only, so the wire's budget less the
     * {@link #UNPACED_SHARE} is shared in proportion {@code m / (m + 42)} for full messages of {@code m} bytes. At the
     * raw rate the measurements ran 18% over the shaper and lost most of the link to the queue's drops.
     */
    public double txRateBitsPerSecond() {
        double message = segmentBytes + NORM_DATA_HEADER_BYTES;
        return rateBitsPerSecond * (1 - UNPACED_SHARE) * message / (message + WIRE_HEADER_BYTES);
    }

    /**
     * The rate of the one multicast session: what the per-peer senders may offer together, the per-peer budget
     * ({@link #txRateBitsPerSecond}) times the number of peers, since every frame goes to the group once.
     */
    public double groupTxRateBitsPerSecond() {
        return txRateBitsPerSecond() * peers.size();
    }

    /**
     * The NORM node id of a site, the same at every gateway: both ends must know each other's to ask for and check
     * acknowledgements. CRC-32 of the site id, clear of NORM's reserved 0 and 0xFFFFFFFF.
     */
    public static int nodeId(SiteId site) {
        CRC32 crc = new CRC32();
        crc.update(site.value().getBytes(java.nio.charset.StandardCharsets.UTF_8));
        int id = (int) crc.getValue();
        return id == 0 || id == -1 ? 1 : id;
    }

    /** A peer's host and port from {@code host} or {@code host:port}. */
    static Endpoint hostPort(SiteId peer, String address, int defaultPort) {
        String text = address.strip();
        int colon = text.lastIndexOf(':');
        if (text.isEmpty() || colon == 0 || (colon > 0 && text.indexOf(':') != colon)) {
            throw new IllegalArgumentException("The norm peer address of site " + peer + " is '" + address
                    + "': use host or host:port (IPv4 or a name)");
        }
        if (colon < 0) {
            return new Endpoint(text, defaultPort);
        }
        int port;
        try {
            port = Integer.parseInt(text.substring(colon + 1));
        }
        catch (NumberFormatException ex) {
            port = -1;
        }
        if (port < 1 || port > 0xFFFF) {
            throw new IllegalArgumentException("The norm peer address of site " + peer + " is '" + address
                    + "': the port must be 1-65535");
        }
        return new Endpoint(text.substring(0, colon), port);
    }

    /**
     * The multicast group of the link: one NORM session on it sends to and hears every peer.
     *
     * @param group an IPv4 multicast address (an administratively scoped one, 239.x.y.z, on a private net)
     * @param port the group's UDP port, the same at every gateway
     * @param networkInterface the interface name the group is joined and sent on; the system's choice when null
     * @param ttl the hops a packet may take: 1 keeps it on the shared net, 0 on the host
     */
    public record Multicast(String group, int port, @Nullable String networkInterface, int ttl) {

        public Multicast {
            Objects.requireNonNull(group, "group");
            if (!Ipv4Multicast.isGroup(group)) {
                throw new IllegalArgumentException("The norm link's multicast group must be an IPv4 multicast "
                        + "address (224.0.0.0-239.255.255.255), was '" + group + "'");
            }
            requireRange("multicast port", port, 1, 0xFFFF);
            if (networkInterface != null && networkInterface.isBlank()) {
                throw new IllegalArgumentException("The norm link's multicast interface is blank: name one (e.g. "
                        + "eth0) or leave it unset");
            }
            requireRange("multicast TTL", ttl, 0, 255);
        }

        /**
         * A group from {@code address:port}, as {@code gateway.wan.norm.multicast-group} names it.
         *
         * @param ttl hops; {@link #DEFAULT_MULTICAST_TTL} when null
         */
        public static Multicast parse(String groupAndPort, @Nullable String networkInterface, @Nullable Integer ttl) {
            String text = groupAndPort.strip();
            int colon = text.lastIndexOf(':');
            int port = -1;
            if (colon > 0) {
                try {
                    port = Integer.parseInt(text.substring(colon + 1));
                }
                catch (NumberFormatException ex) {
                    port = -1;
                }
            }
            if (port < 1 || port > 0xFFFF) {
                throw new IllegalArgumentException("The norm link's multicast group is '" + groupAndPort
                        + "': use address:port, e.g. 239.255.10.1:6010");
            }
            return new Multicast(text.substring(0, colon), port,
                    networkInterface == null ? null : networkInterface.strip(),
                    ttl == null ? DEFAULT_MULTICAST_TTL : ttl);
        }

        @Override
        public String toString() {
            return this.group + ":" + this.port;
        }
    }

    record Endpoint(String host, int port) {
        @Override
        public String toString() {
            return this.host + ":" + this.port;
        }
    }

    private static void requireRange(String what, long value, long min, long max) {
        if (value < min || value > max) {
            throw new IllegalArgumentException("The norm link's " + what + " must be in [" + min + ", " + max
                    + "], was " + value);
        }
    }
}
