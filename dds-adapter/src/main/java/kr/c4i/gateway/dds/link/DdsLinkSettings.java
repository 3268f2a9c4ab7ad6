package kr.c4i.gateway.dds.link;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Stream;

import org.jspecify.annotations.Nullable;

import kr.c4i.gateway.core.link.SiteId;
import kr.c4i.gateway.core.transport.InvalidSettingsException;
import kr.c4i.gateway.dds.ParticipantSettings;

/**
 * Settings of the {@code dds} WAN link. Made with {@link #builder}, which holds the defaults below; every setting
 * out of range is reported at once by an {@link InvalidSettingsException} naming each.
 *
 * @param domainId the WAN domain, 0..232; must differ from the LAN's, so WAN and LAN participants never meet
 * @param site this gateway's site: its frame reader's partition
 * @param peers the peer sites this link reaches, each with its gateway's address (host or IP) for unicast
 *        discovery, or its gateways' addresses comma-separated (an active/standby pair: discovery finds whichever
 *        runs); multicast is off on the WAN domain. At least one, never {@code site} itself
 * @param maxDatagramSize the largest UDP payload sent, in bytes (512..65,507); larger frames are fragmented by
 *        DDS and repaired fragment by fragment. Under the WAN's MTU, or a lost IP fragment loses the whole datagram;
 *        default {@value #DEFAULT_MAX_DATAGRAM_SIZE}
 * @param maxFrameBytes the largest frame {@code send} takes; default {@value #DEFAULT_MAX_FRAME_BYTES}
 * @param peerTimeout how long frames handed over may stay unacknowledged before the peer counts as lost (DOWN, its
 *        unacknowledged bytes dropped so the gateway resends from its store); longer than the repair time of the
 *        WAN. A peer whose participant leaves or whose DDS {@code lease} expires is lost at once; default 15 s
 * @param lease how long the peers keep this gateway's participant after last hearing from it: one that dies without
 *        leaving (its pair's standby then leads) stays matched, and the peers' frames to its site wait for its
 *        reader, that long. Announcements to every peer (Cyclone: every 0.8 lease) and liveliness messages follow
 *        it, so halving the lease doubles that traffic. 1..60 s; default 5 s, half Cyclone's, so the peers stop
 *        waiting for a pair's dead gateway about when its standby leads
 * @param writeTimeout how long {@code send} may block on a full writer history (the peer does not keep up) before
 *        it refuses the frame as retryable; default 100 ms
 * @param maxQueuedFrames the most frames the writer to one peer keeps unacknowledged and the reader holds untaken;
 *        native memory is bounded by this times {@code maxFrameBytes} per peer; default
 *        {@value #DEFAULT_MAX_QUEUED_FRAMES}
 * @param participantsPerHost how many participants of the WAN domain each peer host may run and still be found:
 *        each discovery announcement goes to that many ports of every peer, so on a narrow WAN keep it small;
 *        default {@value #DEFAULT_PARTICIPANTS_PER_HOST}
 * @param networkInterface the interface (name or address) the link uses, {@code null} for the binding's choice
 * @param vendor the DDS binding, its native library and raw configuration, as for the LAN transport
 */
public record DdsLinkSettings(int domainId, SiteId site, Map<SiteId, String> peers, int maxDatagramSize,
        int maxFrameBytes, Duration peerTimeout, Duration lease, Duration writeTimeout, int maxQueuedFrames,
        int participantsPerHost, @Nullable String networkInterface, ParticipantSettings.Vendor vendor) {

    public static final int DEFAULT_MAX_DATAGRAM_SIZE = 1400;
    public static final int DEFAULT_MAX_FRAME_BYTES = 64 * 1024;
    /** Frames above this would need more native memory per sample than the binding's scratch is meant for. */
    public static final int MAX_FRAME_BYTES = 1024 * 1024;
    public static final Duration DEFAULT_PEER_TIMEOUT = Duration.ofSeconds(15);
    public static final Duration DEFAULT_LEASE = Duration.ofSeconds(5);
    public static final Duration DEFAULT_WRITE_TIMEOUT = Duration.ofMillis(100);
    public static final int DEFAULT_MAX_QUEUED_FRAMES = 256;
    public static final int DEFAULT_PARTICIPANTS_PER_HOST = 4;

    public DdsLinkSettings {
        Objects.requireNonNull(site, "site");
        Objects.requireNonNull(peers, "peers");
        Objects.requireNonNull(peerTimeout, "peerTimeout");
        Objects.requireNonNull(lease, "lease");
        Objects.requireNonNull(writeTimeout, "writeTimeout");
        Objects.requireNonNull(vendor, "vendor");
        peers = Collections.unmodifiableMap(new LinkedHashMap<>(peers));
        networkInterface = networkInterface == null || networkInterface.isBlank() ? null : networkInterface.strip();
        List<InvalidSettingsException.Problem> problems = new ArrayList<>();
        if (domainId < 0 || domainId > ParticipantSettings.MAX_DOMAIN_ID) {
            problem(problems, "domainId", "domainId must be 0.." + ParticipantSettings.MAX_DOMAIN_ID + ", was "
                    + domainId);
        }
        if (peers.isEmpty()) {
            problem(problems, "peers", "peers must name at least one peer site and its gateway's address");
        }
        if (peers.containsKey(site)) {
            problem(problems, "peers", "peers must not contain this site (" + site + ")");
        }
        peers.forEach((peer, address) -> {
            if (address == null || addresses(address).anyMatch(String::isEmpty)) {
                problem(problems, "peers." + peer, "peers." + peer + " must be the peer gateway's address (or a pair's"
                        + " two, comma-separated), was '" + address + "'");
            }
        });
        if (maxDatagramSize < ParticipantSettings.MIN_DATAGRAM_SIZE
                || maxDatagramSize > ParticipantSettings.MAX_DATAGRAM_SIZE) {
            problem(problems, "maxDatagramSize", "maxDatagramSize must be " + ParticipantSettings.MIN_DATAGRAM_SIZE
                    + ".." + ParticipantSettings.MAX_DATAGRAM_SIZE + " bytes, was " + maxDatagramSize);
        }
        if (maxFrameBytes < 1 || maxFrameBytes > MAX_FRAME_BYTES) {
            problem(problems, "maxFrameBytes", "maxFrameBytes must be 1.." + MAX_FRAME_BYTES + " bytes, was "
                    + maxFrameBytes);
        }
        if (peerTimeout.isNegative() || peerTimeout.isZero()) {
            problem(problems, "peerTimeout", "peerTimeout must be positive, was " + peerTimeout);
        }
        if (lease.compareTo(ParticipantSettings.MIN_LEASE) < 0 || lease.compareTo(ParticipantSettings.MAX_LEASE) > 0) {
            problem(problems, "lease", "lease must be " + ParticipantSettings.MIN_LEASE.toSeconds() + ".."
                    + ParticipantSettings.MAX_LEASE.toSeconds() + " s, was " + lease);
        }
        if (writeTimeout.isNegative() || writeTimeout.isZero()) {
            problem(problems, "writeTimeout", "writeTimeout must be positive, was " + writeTimeout);
        }
        else if (writeTimeout.compareTo(peerTimeout) >= 0) {
            problem(problems, "writeTimeout", "writeTimeout must be shorter than peerTimeout (" + peerTimeout
                    + "), was " + writeTimeout);
        }
        if (maxQueuedFrames < 1) {
            problem(problems, "maxQueuedFrames", "maxQueuedFrames must be at least 1, was " + maxQueuedFrames);
        }
        if (participantsPerHost < 1 || participantsPerHost > 120) {
            problem(problems, "participantsPerHost", "participantsPerHost must be 1..120, was "
                    + participantsPerHost);
        }
        if (!problems.isEmpty()) {
            throw new InvalidSettingsException("Invalid DDS link settings: ", problems);
        }
    }

    /** The defaults above for a link of {@code site} on {@code domainId}; add peers with {@link Builder#peer}. */
    public static Builder builder(int domainId, SiteId site) {
        return new Builder(domainId, site);
    }

    /**
     * The WAN participant: unicast discovery to the peers' addresses, multicast off, datagrams of at most
     * {@link #maxDatagramSize()}, every frame sent as written (no write batching), heartbeats at least every
     * second so losses are repaired within about a second instead of Cyclone's back-off of up to 8 s, and the
     * {@link #lease()}.
     */
    public ParticipantSettings participant() {
        return ParticipantSettings.builder().domainId(this.domainId).networkInterface(this.networkInterface)
                .multicast(false).peers(this.peers.values().stream().flatMap(DdsLinkSettings::addresses).distinct()
                        .toList())
                .maxDatagramSize(this.maxDatagramSize).maxParticipantsPerHost(this.participantsPerHost)
                .lease(this.lease).heartbeatMaxInterval(Duration.ofSeconds(1)).writeBatch(false)
                .binding(this.vendor.binding()).library(this.vendor.library()).vendorConfig(this.vendor.config())
                .build();
    }

    /** The addresses of one peer site's gateways. */
    private static Stream<String> addresses(String peer) {
        return Arrays.stream(peer.split(",", -1)).map(String::strip);
    }

    private static void problem(List<InvalidSettingsException.Problem> problems, String setting, String message) {
        problems.add(new InvalidSettingsException.Problem(setting, message));
    }

    /** Collects settings by name; {@link #build()} checks them. */
    public static final class Builder {

        private final int domainId;
        private final SiteId site;
        private final Map<SiteId, String> peers = new LinkedHashMap<>();
        private int maxDatagramSize = DEFAULT_MAX_DATAGRAM_SIZE;
        private int maxFrameBytes = DEFAULT_MAX_FRAME_BYTES;
        private Duration peerTimeout = DEFAULT_PEER_TIMEOUT;
        private Duration lease = DEFAULT_LEASE;
        private Duration writeTimeout = DEFAULT_WRITE_TIMEOUT;
        private int maxQueuedFrames = DEFAULT_MAX_QUEUED_FRAMES;
        private int participantsPerHost = DEFAULT_PARTICIPANTS_PER_HOST;
        private @Nullable String networkInterface;
        private ParticipantSettings.Vendor vendor = new ParticipantSettings.Vendor(null, null, null);

        private Builder(int domainId, SiteId site) {
            this.domainId = domainId;
            this.site = site;
        }

        public Builder peer(SiteId peer, String address) {
            this.peers.put(peer, address);
            return this;
        }

        public Builder peers(Map<SiteId, String> value) {
            this.peers.clear();
            this.peers.putAll(value);
            return this;
        }

        public Builder maxDatagramSize(int value) {
            this.maxDatagramSize = value;
            return this;
        }

        public Builder maxFrameBytes(int value) {
            this.maxFrameBytes = value;
            return this;
        }

        public Builder peerTimeout(Duration value) {
            this.peerTimeout = value;
            return this;
        }

        public Builder lease(Duration value) {
            this.lease = value;
            return this;
        }

        public Builder writeTimeout(Duration value) {
            this.writeTimeout = value;
            return this;
        }

        public Builder maxQueuedFrames(int value) {
            this.maxQueuedFrames = value;
            return this;
        }

        public Builder participantsPerHost(int value) {
            this.participantsPerHost = value;
            return this;
        }

        public Builder networkInterface(@Nullable String value) {
            this.networkInterface = value;
            return this;
        }

        public Builder vendor(ParticipantSettings.Vendor value) {
            this.vendor = value;
            return this;
        }

        /** @throws InvalidSettingsException naming every setting out of range */
        public DdsLinkSettings build() {
            return new DdsLinkSettings(this.domainId, this.site, this.peers, this.maxDatagramSize,
                    this.maxFrameBytes, this.peerTimeout, this.lease, this.writeTimeout, this.maxQueuedFrames,
                    this.participantsPerHost, this.networkInterface, this.vendor);
        }
    }
}
