package kr.c4i.gateway.dds;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

import org.jspecify.annotations.Nullable;

import kr.c4i.gateway.core.transport.InvalidSettingsException;
import kr.c4i.gateway.core.transport.Ipv4Multicast;

/**
 * Where and how a participant joins the DDS network, grouped by what the settings are about. Values left
 * {@code null} (or empty) keep the binding's own configuration: for Cyclone, the raw XML in {@link Vendor#config()}
 * or else the {@code CYCLONEDDS_URI} environment variable. A changed copy is made with {@link #toBuilder()}, e.g.
 * {@code settings.toBuilder().maxDatagramSize(1400).build()}. A setting out of range is refused with an
 * {@link InvalidSettingsException} that names it.
 *
 * @param domainId the DDS domain, 0..232; participants only meet within one domain
 * @param network the interface, multicast and unicast peers, and datagram size
 * @param discovery how long a participant stays known unheard, how often participants announce themselves, and how
 *        many unicast discovery reaches per host
 * @param reliability how soon a RELIABLE writer and its readers repair losses
 * @param writeBatch {@code true} to let writers of this domain pack many samples into one datagram (Cyclone:
 *        {@code Internal/WriteBatch}): far higher throughput for small samples, but a sample written to remote
 *        readers may then wait until {@link DataWriter#flush()}, so whoever writes must flush after each burst;
 *        {@code false} sends every sample as it is written; {@code null} for the vendor configuration's setting
 *        (Cyclone's default: off). Applies per domain: participants of one domain in one process must agree.
 * @param vendor which binding and native library, and the binding's raw configuration
 * @param security the participant's DDS Security (OMG DDS-Security 1.1) identity and documents; {@code null} for
 *        an unsecured participant, which secured participants neither discover nor exchange data with
 */
public record ParticipantSettings(int domainId, Network network, Discovery discovery, Reliability reliability,
        @Nullable Boolean writeBatch, Vendor vendor, @Nullable Security security) {

    /** The highest domain id RTPS port arithmetic allows with default port settings. */
    public static final int MAX_DOMAIN_ID = 232;

    /** The smallest {@code maxDatagramSize}: room for a fragment of useful size after the RTPS headers. */
    public static final int MIN_DATAGRAM_SIZE = 512;

    /** The largest {@code maxDatagramSize}: what one UDP datagram can carry. */
    public static final int MAX_DATAGRAM_SIZE = 65_507;

    /** Participants per peer host unicast discovery reaches when not set: room for tools beside the gateway. */
    public static final int DEFAULT_PARTICIPANTS_PER_HOST = 32;

    /** How long a participant stays known without being heard from when {@code lease} is unset: Cyclone's default. */
    public static final Duration DEFAULT_LEASE = Duration.ofSeconds(10);

    /** The shortest {@code lease}: shorter, announcements come under a second apart and a brief stall expires peers. */
    public static final Duration MIN_LEASE = Duration.ofSeconds(1);

    /** The longest {@code lease}: a dead peer stays matched, and RELIABLE data waits for it, that long. */
    public static final Duration MAX_LEASE = Duration.ofSeconds(60);

    public ParticipantSettings {
        Objects.requireNonNull(network, "network");
        Objects.requireNonNull(discovery, "discovery");
        Objects.requireNonNull(reliability, "reliability");
        Objects.requireNonNull(vendor, "vendor");
        if (domainId < 0 || domainId > MAX_DOMAIN_ID) {
            throw invalid("domainId", "domainId must be 0.." + MAX_DOMAIN_ID + ", was " + domainId);
        }
    }

    /** Domain 0, the first binding found, and its own configuration. */
    public static ParticipantSettings defaults() {
        return builder().build();
    }

    /** Starts from {@link #defaults()}. */
    public static Builder builder() {
        return new Builder();
    }

    /** A builder holding these settings, to derive a changed copy. */
    public Builder toBuilder() {
        return new Builder().domainId(this.domainId).networkInterface(this.network.networkInterface())
                .multicastAddress(this.network.multicastAddress()).multicast(this.network.multicast())
                .peers(this.network.peers()).maxDatagramSize(this.network.maxDatagramSize())
                .announceInterval(this.discovery.announceInterval())
                .maxParticipantsPerHost(this.discovery.maxParticipantsPerHost()).lease(this.discovery.lease())
                .heartbeatMaxInterval(this.reliability.heartbeatMaxInterval())
                .nackRepeatInterval(this.reliability.nackRepeatInterval()).writeBatch(this.writeBatch)
                .binding(this.vendor.binding()).library(this.vendor.library()).vendorConfig(this.vendor.config())
                .security(this.security);
    }

    /**
     * Where the participant sends and listens.
     *
     * @param networkInterface the interface to use, by name ({@code eth0}) or address; {@code null} lets the binding
     *        choose
     * @param multicastAddress the IPv4 multicast group for discovery and 1:N data, {@code null} for the DDS default
     *        239.255.0.1
     * @param multicast {@code false} to use unicast only (then list {@code peers}), {@code true} to use multicast,
     *        {@code null} for the binding's default (multicast where the interface supports it)
     * @param peers addresses (host or IP) to send unicast discovery to, e.g. across a WAN or on an interface without
     *        multicast; empty for none
     * @param maxDatagramSize the largest UDP payload a participant sends, in bytes; larger samples are fragmented
     *        and batches are split to fit. A datagram over the link's MTU becomes several IP fragments and is lost
     *        when any one is, so on lossy links this should fit one frame. {@code null} for the vendor
     *        configuration's setting (Cyclone's default: 14,720 bytes, ten frames on Ethernet).
     */
    public record Network(@Nullable String networkInterface, @Nullable String multicastAddress,
            @Nullable Boolean multicast, List<String> peers, @Nullable Integer maxDatagramSize) {

        public Network {
            networkInterface = blankToNull(networkInterface);
            multicastAddress = blankToNull(multicastAddress);
            if (multicastAddress != null && !Ipv4Multicast.isGroup(multicastAddress)) {
                // Cyclone would refuse it only when the participant is created, in its own log.
                throw invalid("multicastAddress", "multicastAddress must be an IPv4 multicast group, 224.0.0.0 to "
                        + "239.255.255.255 (a site's own: 239.255.x.y), was '" + multicastAddress + "'");
            }
            peers = peers == null ? List.of() : List.copyOf(peers);
            for (String peer : peers) {
                if (peer.isBlank()) {
                    throw invalid("peers", "peers must not contain a blank entry");
                }
            }
            if (maxDatagramSize != null
                    && (maxDatagramSize < MIN_DATAGRAM_SIZE || maxDatagramSize > MAX_DATAGRAM_SIZE)) {
                throw invalid("maxDatagramSize", "maxDatagramSize must be " + MIN_DATAGRAM_SIZE + ".."
                        + MAX_DATAGRAM_SIZE + " bytes, was " + maxDatagramSize);
            }
        }
    }

    /**
     * How participants find each other.
     *
     * @param announceInterval how often a participant announces itself (Cyclone: {@code Discovery/SPDPInterval}); a
     *        peer that missed it, say behind a cut, finds it at the next announcement at the latest. Shorter than the
     *        lease; {@code null} for the vendor configuration's setting (Cyclone: 0.8 lease, so 8 s by default)
     * @param maxParticipantsPerHost with {@code peers}: how many participants of the domain each peer host may run
     *        and still be found by unicast discovery. Every announcement goes to each of them on every peer, so this
     *        multiplies discovery traffic; {@code null} for {@link #DEFAULT_PARTICIPANTS_PER_HOST}
     * @param lease how long peers keep this participant, and its readers and writers, after last hearing from it
     *        (Cyclone: {@code Discovery/LeaseDuration}): a participant that dies without leaving stays matched, and
     *        RELIABLE writers wait for its readers, that long. {@link #MIN_LEASE}..{@link #MAX_LEASE}; {@code null}
     *        for the vendor configuration's setting (Cyclone: {@link #DEFAULT_LEASE}). Applies per domain, like
     *        {@code writeBatch}
     */
    public record Discovery(@Nullable Duration announceInterval, @Nullable Integer maxParticipantsPerHost,
            @Nullable Duration lease) {

        public Discovery {
            positive("announceInterval", announceInterval);
            // RTPS port arithmetic leaves each domain room for 120 participant indices (0..119), and Cyclone may
            // assign one index more than the participants it announces to (CycloneConfig).
            if (maxParticipantsPerHost != null && (maxParticipantsPerHost < 1 || maxParticipantsPerHost > 119)) {
                throw invalid("maxParticipantsPerHost",
                        "maxParticipantsPerHost must be 1..119, was " + maxParticipantsPerHost);
            }
            positive("lease", lease);
            if (lease != null && (lease.compareTo(MIN_LEASE) < 0 || lease.compareTo(MAX_LEASE) > 0)) {
                throw invalid("lease", "lease must be " + MIN_LEASE.toSeconds() + ".." + MAX_LEASE.toSeconds()
                        + " s, was " + lease);
            }
            // The fields are not set yet in a compact constructor, so effectiveLease() would not see lease.
            Duration effectiveLease = lease != null ? lease : DEFAULT_LEASE;
            if (announceInterval != null && announceInterval.compareTo(effectiveLease) >= 0) {
                throw invalid("announceInterval", "announceInterval must be shorter than the lease ("
                        + effectiveLease + "), or peers expire between announcements; was " + announceInterval);
            }
        }

        /** {@link #lease()}, or Cyclone's default. */
        public Duration effectiveLease() {
            return this.lease != null ? this.lease : DEFAULT_LEASE;
        }

        /** {@link #maxParticipantsPerHost()}, or its default. */
        public int participantsPerHost() {
            return this.maxParticipantsPerHost != null ? this.maxParticipantsPerHost : DEFAULT_PARTICIPANTS_PER_HOST;
        }
    }

    /**
     * How soon losses of RELIABLE data are repaired.
     *
     * @param heartbeatMaxInterval the longest a RELIABLE writer with unacknowledged data waits between heartbeats,
     *        which ask readers what they miss; {@code null} for the vendor configuration's setting (Cyclone: backs off
     *        to 8 s, so the last losses of a burst can wait seconds for repair)
     * @param nackRepeatInterval how soon a reader asks again for data it asked for and did not get (the retransmit
     *        itself lost); {@code null} for the vendor configuration's setting (Cyclone: 1 s)
     */
    public record Reliability(@Nullable Duration heartbeatMaxInterval, @Nullable Duration nackRepeatInterval) {

        public Reliability {
            positive("heartbeatMaxInterval", heartbeatMaxInterval);
            positive("nackRepeatInterval", nackRepeatInterval);
        }
    }

    /**
     * The DDS implementation and its own configuration.
     *
     * @param binding the binding to use by {@link kr.c4i.gateway.dds.spi.DdsBinding#name() name}, {@code null} for
     *        the first one found on the class path
     * @param library the binding's native library, as a file name or path; {@code null} for the binding's default
     *        lookup (Cyclone: the {@code kr.c4i.gateway.dds.cyclone.library} system property, then
     *        {@code libddsc.so.0debian}, then {@code libddsc.so.0})
     * @param config the binding's raw configuration (Cyclone: an XML fragment or {@code file://} URI list), applied
     *        before the typed settings; {@code null} to use the vendor's standard environment variable instead
     */
    public record Vendor(@Nullable String binding, @Nullable String library, @Nullable String config) {

        public Vendor {
            binding = blankToNull(binding);
            library = blankToNull(library);
            config = blankToNull(config);
        }
    }

    /**
     * The files of a participant's DDS Security (OMG DDS-Security 1.1, builtin plugins): PEM certificates and key,
     * and S/MIME-signed XML documents. {@link #checkFiles()} runs when the participant is created, so settings can
     * be built before the files are written.
     *
     * @param identityCertificate the participant's X.509 certificate (PEM), issued by {@code identityCa}
     * @param privateKey the certificate's private key (PEM, unencrypted)
     * @param identityCa the CA (PEM) every participant's certificate must chain to, this one's and its peers'
     * @param permissionsCa the CA (PEM) that signed the governance and permissions documents
     * @param governance the domain's signed governance document: what is protected and how
     * @param permissions the signed permissions document: which topics and partitions each subject may use
     */
    public record Security(Path identityCertificate, Path privateKey, Path identityCa, Path permissionsCa,
            Path governance, Path permissions) {

        public Security {
            Objects.requireNonNull(identityCertificate, "identityCertificate");
            Objects.requireNonNull(privateKey, "privateKey");
            Objects.requireNonNull(identityCa, "identityCa");
            Objects.requireNonNull(permissionsCa, "permissionsCa");
            Objects.requireNonNull(governance, "governance");
            Objects.requireNonNull(permissions, "permissions");
        }

        /** @throws InvalidSettingsException naming the first file that is missing or unreadable */
        public void checkFiles() {
            check("identityCertificate", this.identityCertificate);
            check("privateKey", this.privateKey);
            check("identityCa", this.identityCa);
            check("permissionsCa", this.permissionsCa);
            check("governance", this.governance);
            check("permissions", this.permissions);
        }

        private static void check(String setting, Path file) {
            if (!Files.isRegularFile(file) || !Files.isReadable(file)) {
                throw invalid("security." + setting, "DDS Security file " + setting + " " + file.toAbsolutePath()
                        + (Files.exists(file) ? " is not a readable file" : " does not exist"));
            }
        }
    }

    /** Collects settings by name; {@link #build()} groups and checks them. */
    public static final class Builder {

        private int domainId;
        private @Nullable String networkInterface;
        private @Nullable String multicastAddress;
        private @Nullable Boolean multicast;
        private List<String> peers = List.of();
        private @Nullable Integer maxDatagramSize;
        private @Nullable Duration announceInterval;
        private @Nullable Integer maxParticipantsPerHost;
        private @Nullable Duration lease;
        private @Nullable Duration heartbeatMaxInterval;
        private @Nullable Duration nackRepeatInterval;
        private @Nullable Boolean writeBatch;
        private @Nullable String binding;
        private @Nullable String library;
        private @Nullable String vendorConfig;
        private @Nullable Security security;

        private Builder() {
        }

        public Builder domainId(int value) {
            this.domainId = value;
            return this;
        }

        public Builder networkInterface(@Nullable String value) {
            this.networkInterface = value;
            return this;
        }

        public Builder multicastAddress(@Nullable String value) {
            this.multicastAddress = value;
            return this;
        }

        public Builder multicast(@Nullable Boolean value) {
            this.multicast = value;
            return this;
        }

        public Builder peers(List<String> value) {
            this.peers = value;
            return this;
        }

        public Builder maxDatagramSize(@Nullable Integer value) {
            this.maxDatagramSize = value;
            return this;
        }

        public Builder announceInterval(@Nullable Duration value) {
            this.announceInterval = value;
            return this;
        }

        public Builder maxParticipantsPerHost(@Nullable Integer value) {
            this.maxParticipantsPerHost = value;
            return this;
        }

        public Builder lease(@Nullable Duration value) {
            this.lease = value;
            return this;
        }

        public Builder heartbeatMaxInterval(@Nullable Duration value) {
            this.heartbeatMaxInterval = value;
            return this;
        }

        public Builder nackRepeatInterval(@Nullable Duration value) {
            this.nackRepeatInterval = value;
            return this;
        }

        public Builder writeBatch(@Nullable Boolean value) {
            this.writeBatch = value;
            return this;
        }

        public Builder binding(@Nullable String value) {
            this.binding = value;
            return this;
        }

        public Builder library(@Nullable String value) {
            this.library = value;
            return this;
        }

        public Builder vendorConfig(@Nullable String value) {
            this.vendorConfig = value;
            return this;
        }

        public Builder security(@Nullable Security value) {
            this.security = value;
            return this;
        }

        /** @throws InvalidSettingsException naming the first setting out of range */
        public ParticipantSettings build() {
            return new ParticipantSettings(this.domainId,
                    new Network(this.networkInterface, this.multicastAddress, this.multicast, this.peers,
                            this.maxDatagramSize),
                    new Discovery(this.announceInterval, this.maxParticipantsPerHost, this.lease),
                    new Reliability(this.heartbeatMaxInterval, this.nackRepeatInterval), this.writeBatch,
                    new Vendor(this.binding, this.library, this.vendorConfig), this.security);
        }
    }

    private static void positive(String name, @Nullable Duration value) {
        if (value != null && (value.isNegative() || value.isZero())) {
            throw invalid(name, name + " must be positive, was " + value);
        }
    }

    private static InvalidSettingsException invalid(String setting, String message) {
        return InvalidSettingsException.of(setting, message);
    }

    private static @Nullable String blankToNull(@Nullable String value) {
        return value == null || value.isBlank() ? null : value.strip();
    }
}
