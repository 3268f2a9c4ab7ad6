package kr.c4i.gateway.bridge.config;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;

import kr.c4i.gateway.core.NodeId;
import kr.c4i.gateway.core.transport.InvalidSettingsException;
import kr.c4i.gateway.dds.ParticipantSettings;
import kr.c4i.gateway.dds.security.DdsSecurityOptions;
import kr.c4i.gateway.dds.transport.DdsTransportSettings;

/**
 * The DDS transport: a topic per KMTF type on Cyclone DDS. Without {@code config}, Cyclone also
 * reads the standard {@code CYCLONEDDS_URI} environment variable; the typed settings here win.
 *
 * @param domainId DDS domain all nodes of one network share
 * @param networkInterface interface (name or address) DDS uses; Cyclone's choice when unset
 * @param multicastAddress multicast group for discovery and 1:N data; DDS's 239.255.0.1 when unset
 * @param multicast false for unicast only (then list {@code peers}); Cyclone's default when unset
 * @param peers addresses to send unicast discovery to, e.g. across a WAN or on an interface without multicast
 * @param config raw Cyclone XML configuration (or file:// URI), applied before the settings above
 * @param library Cyclone's native library (file name or path); libddsc.so.0debian, then libddsc.so.0 when unset
 * @param writeTimeout how long a send may block on a RELIABLE topic whose readers do not keep up
 * @param maxDatagramSize the largest datagram DDS sends; the default fits one Ethernet frame with room for a tunnel
 *        header, because a datagram split into IP fragments is lost when any fragment is (on a 10%-loss link
 *        Cyclone's default of 14,720 bytes, ten fragments, gets through 35% of the time). Overrides
 *        {@code MaxMessageSize} in {@code config}.
 * @param heartbeatMaxInterval the longest a writer with unacknowledged data waits between heartbeats (Cyclone's
 *        own back-off when unset, up to 8 s); shorter repairs the last losses of a burst sooner on a fast lossy link
 *        but, on a slow one whose queue holds seconds, makes readers ask again for data still queued (see
 *        docs/benchmarks.md). Overrides {@code Internal/HeartbeatInterval} in {@code config}.
 * @param nackRepeatInterval how soon a reader asks again for data whose retransmit was lost too (Cyclone's 1 s
 *        when unset). Overrides {@code Internal/AutoReschedNackDelay} in {@code config}.
 * @param announceInterval how often the node announces itself; after a cut, peers find it again at its next
 *        announcement at the latest (0.8 {@code lease} when unset). Each announcement is a few hundred bytes to the
 *        multicast group and to every participant index of every peer ({@code maxParticipantsPerHost}), so short
 *        intervals cost slow links (see docs/benchmarks.md).
 *        Overrides {@code Discovery/SPDPInterval} in {@code config}.
 * @param lease how long other nodes keep this one, its readers and writers, after last hearing from it; Cyclone
 *        announces a node every 0.8 lease unless {@code announceInterval} is set. A node killed without leaving
 *        holds every RELIABLE writer that reaches it for this long once the writer's window is full, so shorter
 *        frees the others sooner, and a node restarted within it finds its old readers still holding its data
 *        back (docs/results.md, issue 30's recovery). 1..60 s. Overrides {@code Discovery/LeaseDuration} in
 *        {@code config}.
 * @param maxParticipantsPerHost with {@code peers}: how many DDS participants each peer host may run and still be
 *        found by unicast discovery. Every announcement is sent to each of them on every peer, so
 *        on a slow link set it to what the peer hosts really run (see docs/benchmarks.md).
 * @param matchTimeout how long a publishing node waits at start, before it publishes and reports READY, for the
 *        readers of every route's destinations (routing table) to match its writers; after it, the node starts
 *        anyway and names the unmatched routes in a log line and in the {@code transport} health details
 * @param bestEffortBacklog samples a BEST_EFFORT type's reader holds while the node is busy with earlier ones
 *        before it rejects more (counted in {@code gateway.dds.samples.dropped{reason=rejected}}); a burst of one
 *        type up to this size is never dropped on a loss-free link
 * @param security DDS Security (authentication, encryption, per-node permissions; see docs/dds-security.md);
 *        required unless {@code security.plain} is set
 * @param handshakeRecovery with DDS Security: recreating the node's participant when an authentication handshake
 *        with a remote participant that is still there failed, which Cyclone 0.10 never tries again
 * @param startAnnouncements announcements the node adds to the periodic ones when it starts, so peers whose link
 *        comes back in its first moments find it at once (their cost: docs/results.md, issue 30's section)
 */
@ConfigurationProperties("gateway.dds")
public record DdsProperties(@DefaultValue("0") int domainId, @Nullable String networkInterface,
        @Nullable String multicastAddress, @Nullable Boolean multicast, List<String> peers, @Nullable String config,
        @Nullable String library, @DefaultValue("10s") Duration writeTimeout,
        @DefaultValue("1400B") DataSize maxDatagramSize, @Nullable Duration heartbeatMaxInterval,
        @Nullable Duration nackRepeatInterval, @Nullable Duration announceInterval,
        @DefaultValue(DdsTransportSettings.DEFAULT_NODE_LEASE) Duration lease,
        @DefaultValue("32") int maxParticipantsPerHost, @DefaultValue("10s") Duration matchTimeout,
        @DefaultValue("4096") int bestEffortBacklog, @DefaultValue Security security,
        @DefaultValue HandshakeRecovery handshakeRecovery, @DefaultValue StartAnnouncements startAnnouncements) {

    public DdsProperties {
        peers = peers == null ? List.of() : List.copyOf(peers);
    }

    /**
     * DDS Security's files. Each file left unset is taken from {@code directory}, laid out as the site's DDS
     * Security set is written ({@code authority/ca.crt}, {@code dds/governance.p7s}, {@code dds/permissions.p7s},
     * {@code <node>/identity.crt}, {@code <node>/identity.key}: the site's PKI directory of {@code gateway pki}).
     *
     * @param directory the site's DDS Security set, from which unset files are taken
     * @param identityCertificate this node's certificate (PEM)
     * @param privateKey its private key (PEM)
     * @param identityCa the CA every participant's certificate must chain to (PEM)
     * @param permissionsCa the CA that signed the governance and permissions documents (PEM)
     * @param governance the signed governance document
     * @param permissions the signed permissions document
     * @param plain true to run DDS without security, any participant of the domain reading and writing every topic;
     *        a DDS node with neither this nor {@code directory} or {@code identity-certificate} does not start
     */
    public record Security(@Nullable Path directory, @Nullable Path identityCertificate, @Nullable Path privateKey,
            @Nullable Path identityCa, @Nullable Path permissionsCa, @Nullable Path governance,
            @Nullable Path permissions, @DefaultValue("false") boolean plain) {

        /** The files as the DDS adapter resolves them, for a node as for a WAN gateway's LAN side. */
        DdsSecurityOptions options() {
            return new DdsSecurityOptions(this.directory, this.identityCertificate, this.privateKey, this.identityCa,
                    this.permissionsCa, this.governance, this.permissions, this.plain);
        }
    }

    /**
     * When the node recreates its participant after a failed DDS Security handshake (docs/dds-security.md).
     *
     * @param enabled false to leave a pair whose handshake failed unmatched until either side restarts
     * @param delay how long a failed handshake with a remote participant that still announces itself lasts before
     *        the participant is recreated; doubled for each further recreation the same remote participant causes
     * @param maxDelay the longest that doubled wait gets
     * @param minInterval the least time between two recreations
     */
    public record HandshakeRecovery(@DefaultValue("true") boolean enabled, @DefaultValue("10s") Duration delay,
            @DefaultValue("10m") Duration maxDelay, @DefaultValue("1m") Duration minInterval) {

        DdsTransportSettings.HandshakeRecovery settings() {
            return new DdsTransportSettings.HandshakeRecovery(this.enabled, this.delay, this.maxDelay,
                    this.minInterval);
        }
    }

    /**
     * Announcements the node adds to its periodic ones ({@code announceInterval}) right after it joins the domain,
     * and again after each recreation of its participant.
     *
     * @param count how many, one every {@code interval}; 0 for none
     * @param interval the time between two
     */
    public record StartAnnouncements(@DefaultValue("8") int count, @DefaultValue("250ms") Duration interval) {

        DdsTransportSettings.StartAnnouncements settings() {
            return new DdsTransportSettings.StartAnnouncements(this.count, this.interval);
        }
    }

    /**
     * The transport's settings: every value from here, so a new setting is mapped beside its property.
     *
     * @throws InvalidSettingsException naming the setting the transport refuses
     */
    public DdsTransportSettings transportSettings(NodeId node) {
        ParticipantSettings participant = ParticipantSettings.builder().domainId(this.domainId)
                .networkInterface(this.networkInterface).multicastAddress(this.multicastAddress)
                .multicast(this.multicast).peers(this.peers)
                .maxDatagramSize((int) Math.clamp(this.maxDatagramSize.toBytes(), Integer.MIN_VALUE, Integer.MAX_VALUE))
                .announceInterval(this.announceInterval).lease(this.lease)
                .maxParticipantsPerHost(this.maxParticipantsPerHost)
                .heartbeatMaxInterval(this.heartbeatMaxInterval).nackRepeatInterval(this.nackRepeatInterval)
                .library(this.library).vendorConfig(this.config)
                .security(this.security.options().settings(node)).build();
        return DdsTransportSettings.builder(this.writeTimeout, this.bestEffortBacklog).participant(participant)
                .handshakeRecovery(this.handshakeRecovery.settings())
                .startAnnouncements(this.startAnnouncements.settings()).build();
    }
}
