package kr.c4i.gateway.dds;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * Where and how a participant joins the DDS network. Values left {@code null} (or empty) keep the binding's own
 * configuration: for Cyclone, the raw XML given here or else the {@code CYCLONEDDS_URI} environment variable.
 *
 * @param domainId the DDS domain, 0..232; participants only meet within one domain
 * @param binding the binding to use by {@link kr.c4i.gateway.dds.spi.DdsBinding#name() name}, {@code null} for
 *        the first one found on the class path
 * @param library the binding's native library, as a file name or path; {@code null} for the binding's default
 *        lookup (Cyclone: the {@code kr.c4i.gateway.dds.cyclone.library} system property, then
 *        {@code libddsc.so.0debian}, then {@code libddsc.so.0})
 * @param networkInterface the interface to use, by name ({@code eth0}) or address; {@code null} lets the binding
 *        choose
 * @param multicastAddress the IPv4 multicast group for discovery and 1:N data, {@code null} for the DDS default
 *        239.255.0.1
 * @param multicast {@code false} to use unicast only (then list {@code peers}), {@code true} to use multicast,
 *        {@code null} for the binding's default (multicast where the interface supports it)
 * @param peers addresses (host or IP) to send unicast discovery to, e.g. across a WAN or on an interface without
 *        multicast; empty for none
 * @param vendorConfig the binding's raw configuration (Cyclone: an XML fragment or {@code file://} URI list),
 *        applied before the values above; {@code null} to use the vendor's standard environment variable instead
 * @param writeBatch {@code true} to let writers of this domain pack many samples into one datagram (Cyclone:
 *        {@code Internal/WriteBatch}): far higher throughput for small samples, but a sample written to remote
 *        readers may then wait until {@link DataWriter#flush()}, so whoever writes must flush after each burst;
 *        {@code false} sends every sample as it is written; {@code null} for the vendor configuration's setting
 *        (Cyclone's default: off). Applies per domain: participants of one domain in one process must agree.
 * @param maxDatagramSize the largest UDP payload a participant sends, in bytes; larger samples are fragmented and
 *        batches are split to fit. A datagram over the link's MTU becomes several IP fragments and is lost when any
 *        one is, so on lossy links this should fit one frame. {@code null} for the vendor configuration's setting
 *        (Cyclone's default: 14,720 bytes, ten frames on Ethernet).
 * @param heartbeatMaxInterval the longest a RELIABLE writer with unacknowledged data waits between heartbeats, which
 *        ask readers what they miss; {@code null} for the vendor configuration's setting (Cyclone: backs off to 8 s,
 *        so the last losses of a burst can wait seconds for repair)
 * @param nackRepeatInterval how soon a reader asks again for data it asked for and did not get (the retransmit
 *        itself lost); {@code null} for the vendor configuration's setting (Cyclone: 1 s)
 * @param announceInterval how often a participant announces itself (Cyclone: {@code Discovery/SPDPInterval}); a
 *        peer that missed it, say behind a cut, finds it at the next announcement at the latest. Shorter than the
 *        10 s lease; {@code null} for the vendor configuration's setting (Cyclone: 8 s)
 * @param maxParticipantsPerHost with {@code peers}: how many participants of the domain each peer host may run
 *        and still be found by unicast discovery. Every announcement goes to each of them on every peer, so this
 *        multiplies discovery traffic; {@code null} for {@link #DEFAULT_PARTICIPANTS_PER_HOST}
 */
public record ParticipantSettings(int domainId, String binding, String library, String networkInterface,
        String multicastAddress, Boolean multicast, List<String> peers, String vendorConfig, Boolean writeBatch,
        Integer maxDatagramSize, Duration heartbeatMaxInterval, Duration nackRepeatInterval,
        Duration announceInterval, Integer maxParticipantsPerHost) {

    /** The highest domain id RTPS port arithmetic allows with default port settings. */
    public static final int MAX_DOMAIN_ID = 232;

    /** The smallest {@code maxDatagramSize}: room for a fragment of useful size after the RTPS headers. */
    public static final int MIN_DATAGRAM_SIZE = 512;

    /** The largest {@code maxDatagramSize}: what one UDP datagram can carry. */
    public static final int MAX_DATAGRAM_SIZE = 65_507;

    /** Participants per peer host unicast discovery reaches when not set: room for tools beside the gateway. */
    public static final int DEFAULT_PARTICIPANTS_PER_HOST = 32;

    /** How long a participant stays known without being heard from (Cyclone's default, which we keep). */
    static final Duration LEASE = Duration.ofSeconds(10);

    public ParticipantSettings {
        if (maxDatagramSize != null && (maxDatagramSize < MIN_DATAGRAM_SIZE || maxDatagramSize > MAX_DATAGRAM_SIZE)) {
            throw new IllegalArgumentException("maxDatagramSize must be " + MIN_DATAGRAM_SIZE + ".."
                    + MAX_DATAGRAM_SIZE + " bytes, was " + maxDatagramSize);
        }
        positive("heartbeatMaxInterval", heartbeatMaxInterval);
        positive("nackRepeatInterval", nackRepeatInterval);
        positive("announceInterval", announceInterval);
        // RTPS port arithmetic leaves each domain room for 120 participant indices.
        if (maxParticipantsPerHost != null && (maxParticipantsPerHost < 1 || maxParticipantsPerHost > 120)) {
            throw new IllegalArgumentException("maxParticipantsPerHost must be 1..120, was " + maxParticipantsPerHost);
        }
        if (announceInterval != null && announceInterval.compareTo(LEASE) >= 0) {
            throw new IllegalArgumentException("announceInterval must be shorter than the " + LEASE.toSeconds()
                    + " s lease, or peers expire between announcements; was " + announceInterval);
        }
        if (domainId < 0 || domainId > MAX_DOMAIN_ID) {
            throw new IllegalArgumentException("domainId must be 0.." + MAX_DOMAIN_ID + ", was " + domainId);
        }
        peers = peers == null ? List.of() : List.copyOf(peers);
        for (String peer : peers) {
            Objects.requireNonNull(peer, "peer");
            if (peer.isBlank()) {
                throw new IllegalArgumentException("peers must not contain a blank entry");
            }
        }
        binding = blankToNull(binding);
        library = blankToNull(library);
        networkInterface = blankToNull(networkInterface);
        multicastAddress = blankToNull(multicastAddress);
        vendorConfig = blankToNull(vendorConfig);
    }

    /** The settings without {@code writeBatch} and {@code maxDatagramSize}, left to the vendor configuration. */
    public ParticipantSettings(int domainId, String binding, String library, String networkInterface,
            String multicastAddress, Boolean multicast, List<String> peers, String vendorConfig) {
        this(domainId, binding, library, networkInterface, multicastAddress, multicast, peers, vendorConfig, null,
                null, null, null, null, null);
    }

    /** Domain 0, the first binding found, and its own configuration. */
    public static ParticipantSettings defaults() {
        return new ParticipantSettings(0, null, null, null, null, null, List.of(), null, null, null, null, null, null,
                null);
    }

    public ParticipantSettings withDomainId(int value) {
        return new ParticipantSettings(value, this.binding, this.library, this.networkInterface,
                this.multicastAddress, this.multicast, this.peers, this.vendorConfig, this.writeBatch,
                this.maxDatagramSize, this.heartbeatMaxInterval, this.nackRepeatInterval,
                this.announceInterval, this.maxParticipantsPerHost);
    }

    public ParticipantSettings withLibrary(String value) {
        return new ParticipantSettings(this.domainId, this.binding, value, this.networkInterface,
                this.multicastAddress, this.multicast, this.peers, this.vendorConfig, this.writeBatch,
                this.maxDatagramSize, this.heartbeatMaxInterval, this.nackRepeatInterval,
                this.announceInterval, this.maxParticipantsPerHost);
    }

    public ParticipantSettings withNetworkInterface(String value) {
        return new ParticipantSettings(this.domainId, this.binding, this.library, value, this.multicastAddress,
                this.multicast, this.peers, this.vendorConfig, this.writeBatch,
                this.maxDatagramSize, this.heartbeatMaxInterval, this.nackRepeatInterval,
                this.announceInterval, this.maxParticipantsPerHost);
    }

    public ParticipantSettings withMulticastAddress(String value) {
        return new ParticipantSettings(this.domainId, this.binding, this.library, this.networkInterface, value,
                this.multicast, this.peers, this.vendorConfig, this.writeBatch,
                this.maxDatagramSize, this.heartbeatMaxInterval, this.nackRepeatInterval,
                this.announceInterval, this.maxParticipantsPerHost);
    }

    public ParticipantSettings withMulticast(Boolean value) {
        return new ParticipantSettings(this.domainId, this.binding, this.library, this.networkInterface,
                this.multicastAddress, value, this.peers, this.vendorConfig, this.writeBatch,
                this.maxDatagramSize, this.heartbeatMaxInterval, this.nackRepeatInterval,
                this.announceInterval, this.maxParticipantsPerHost);
    }

    public ParticipantSettings withPeers(List<String> value) {
        return new ParticipantSettings(this.domainId, this.binding, this.library, this.networkInterface,
                this.multicastAddress, this.multicast, value, this.vendorConfig, this.writeBatch,
                this.maxDatagramSize, this.heartbeatMaxInterval, this.nackRepeatInterval,
                this.announceInterval, this.maxParticipantsPerHost);
    }

    public ParticipantSettings withVendorConfig(String value) {
        return new ParticipantSettings(this.domainId, this.binding, this.library, this.networkInterface,
                this.multicastAddress, this.multicast, this.peers, value, this.writeBatch,
                this.maxDatagramSize, this.heartbeatMaxInterval, this.nackRepeatInterval,
                this.announceInterval, this.maxParticipantsPerHost);
    }

    public ParticipantSettings withWriteBatch(Boolean value) {
        return new ParticipantSettings(this.domainId, this.binding, this.library, this.networkInterface,
                this.multicastAddress, this.multicast, this.peers, this.vendorConfig, value,
                this.maxDatagramSize, this.heartbeatMaxInterval, this.nackRepeatInterval,
                this.announceInterval, this.maxParticipantsPerHost);
    }

    public ParticipantSettings withMaxDatagramSize(Integer value) {
        return new ParticipantSettings(this.domainId, this.binding, this.library, this.networkInterface,
                this.multicastAddress, this.multicast, this.peers, this.vendorConfig, this.writeBatch, value,
                this.heartbeatMaxInterval, this.nackRepeatInterval,
                this.announceInterval, this.maxParticipantsPerHost);
    }

    public ParticipantSettings withHeartbeatMaxInterval(Duration value) {
        return new ParticipantSettings(this.domainId, this.binding, this.library, this.networkInterface,
                this.multicastAddress, this.multicast, this.peers, this.vendorConfig, this.writeBatch,
                this.maxDatagramSize, value, this.nackRepeatInterval, this.announceInterval,
                this.maxParticipantsPerHost);
    }

    public ParticipantSettings withNackRepeatInterval(Duration value) {
        return new ParticipantSettings(this.domainId, this.binding, this.library, this.networkInterface,
                this.multicastAddress, this.multicast, this.peers, this.vendorConfig, this.writeBatch,
                this.maxDatagramSize, this.heartbeatMaxInterval, value, this.announceInterval,
                this.maxParticipantsPerHost);
    }

    public ParticipantSettings withAnnounceInterval(Duration value) {
        return new ParticipantSettings(this.domainId, this.binding, this.library, this.networkInterface,
                this.multicastAddress, this.multicast, this.peers, this.vendorConfig, this.writeBatch,
                this.maxDatagramSize, this.heartbeatMaxInterval, this.nackRepeatInterval, value,
                this.maxParticipantsPerHost);
    }

    public ParticipantSettings withMaxParticipantsPerHost(Integer value) {
        return new ParticipantSettings(this.domainId, this.binding, this.library, this.networkInterface,
                this.multicastAddress, this.multicast, this.peers, this.vendorConfig, this.writeBatch,
                this.maxDatagramSize, this.heartbeatMaxInterval, this.nackRepeatInterval, this.announceInterval,
                value);
    }

    private static void positive(String name, Duration value) {
        if (value != null && (value.isNegative() || value.isZero())) {
            throw new IllegalArgumentException(name + " must be positive, was " + value);
        }
    }

    private static String blankToNull(String value) {
        return value == null || value.isBlank() ? null : value.strip();
    }
}
