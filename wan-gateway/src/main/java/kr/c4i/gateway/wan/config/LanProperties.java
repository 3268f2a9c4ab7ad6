package kr.c4i.gateway.wan.config;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.NestedConfigurationProperty;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;

import kr.c4i.gateway.core.NodeId;
import kr.c4i.gateway.core.transport.InvalidSettingsException;
import kr.c4i.gateway.core.transport.TransportKind;
import kr.c4i.gateway.dds.ParticipantSettings;
import kr.c4i.gateway.dds.transport.DdsTransportSettings;

/**
 * The gateway on its site's LAN, as one more node there.
 *
 * @param transport the transport of the site's LAN, as its nodes run it: {@code jms} or {@code dds}
 * @param dds the site's DDS domain, when the transport is {@code dds}
 * @param jms the gateway's LAN broker and the site's nodes' brokers, when the transport is {@code jms}
 */
@ConfigurationProperties("gateway.wan.lan")
public record LanProperties(@DefaultValue("jms") TransportKind transport, @DefaultValue Dds dds,
        @DefaultValue Jms jms) {

    /**
     * @param domainId the site's DDS domain, as its nodes have it
     * @param networkInterface interface (name or address) facing the LAN; Cyclone's choice when unset
     * @param multicastAddress the site's multicast group for discovery and 1:N data, as its nodes have it
     *        ({@code gateway.dds.multicast-address}); DDS's 239.255.0.1 when unset
     * @param multicast false for unicast only (then list {@code peers}); Cyclone's default when unset
     * @param peers addresses to send unicast discovery to
     * @param maxDatagramSize the largest datagram sent on the LAN
     * @param lease how long the site's nodes keep the gateway's participant after last hearing from it, as
     *        {@code gateway.dds.lease} for a node: a gateway killed without leaving holds the nodes' RELIABLE
     *        writers that reach it for this long once their windows are full
     * @param writeTimeout how long a send may block on a RELIABLE topic whose readers do not keep up
     * @param bestEffortBacklog samples a BEST_EFFORT reader holds while the gateway is busy
     * @param maxBatch most messages taken off the LAN and stored in one transaction: each store commit waits for
     *        the disk, so a larger batch lets the gateway keep up with a faster site
     * @param resendAfter first wait before a relayed RELIABLE message a node of this site has not receipted is
     *        published again, doubled per attempt
     * @param resendMax the longest wait between such resends
     * @param library Cyclone's native library; libddsc.so.0debian, then libddsc.so.0 when unset
     * @param security DDS Security of the gateway's participant (docs/dds-security.md), its grant naming the nodes at
     *        other sites it relays for; required unless {@code security.plain} is set
     * @param handshakeRecovery with DDS Security: recreating the gateway's participant when an authentication
     *        handshake with a remote participant that is still there failed, which Cyclone 0.10 never tries again
     */
    public record Dds(@DefaultValue("0") int domainId, @Nullable String networkInterface,
            @Nullable String multicastAddress, @Nullable Boolean multicast, List<String> peers,
            @DefaultValue("1400B") DataSize maxDatagramSize,
            @DefaultValue(DdsTransportSettings.DEFAULT_NODE_LEASE) Duration lease,
            @DefaultValue("10s") Duration writeTimeout, @DefaultValue("4096") int bestEffortBacklog,
            @DefaultValue(DEFAULT_MAX_BATCH_TEXT) int maxBatch, @DefaultValue("2s") Duration resendAfter,
            @DefaultValue("30s") Duration resendMax,
            @Nullable String library, @NestedConfigurationProperty @DefaultValue DdsSecurityProperties security,
            @DefaultValue HandshakeRecovery handshakeRecovery) {

        /** The one statement of {@code max-batch}'s default, which the benchmark's gateways use too. */
        public static final int DEFAULT_MAX_BATCH = 2048;
        static final String DEFAULT_MAX_BATCH_TEXT = "" + DEFAULT_MAX_BATCH;

        public Dds {
            peers = peers == null ? List.of() : List.copyOf(peers);
        }

        /**
         * The gateway's transport on the site's domain, as participant {@code gateway}.
         *
         * @throws IllegalArgumentException naming each refused {@code gateway.wan.lan.dds.*} property
         */
        public DdsTransportSettings transportSettings(NodeId gateway) {
            try {
                ParticipantSettings participant = ParticipantSettings.builder().domainId(this.domainId)
                        .networkInterface(this.networkInterface).multicastAddress(this.multicastAddress)
                        .multicast(this.multicast).peers(this.peers)
                        .maxDatagramSize((int) Math.clamp(this.maxDatagramSize.toBytes(), Integer.MIN_VALUE,
                                Integer.MAX_VALUE))
                        .lease(this.lease).library(this.library)
                        .security(this.security.options().settings(gateway)).build();
                return DdsTransportSettings.builder(this.writeTimeout, this.bestEffortBacklog).participant(participant)
                        .maxBatch(this.maxBatch).handshakeRecovery(new DdsTransportSettings.HandshakeRecovery(
                                this.handshakeRecovery.enabled(), this.handshakeRecovery.delay(),
                                this.handshakeRecovery.maxDelay(), this.handshakeRecovery.minInterval()))
                        .build();
            }
            catch (InvalidSettingsException ex) {
                throw InvalidProperties.of("gateway.wan.lan.dds", ex);
            }
        }
    }

    /**
     * When the gateway recreates its participant on the site's domain after a failed DDS Security handshake
     * (docs/dds-security.md).
     *
     * @param enabled false to leave a pair whose handshake failed unmatched until either side restarts
     * @param delay how long a failed handshake with a remote participant that still announces itself lasts before
     *        the participant is recreated; doubled for each further recreation the same remote participant causes
     * @param maxDelay the longest that doubled wait gets
     * @param minInterval the least time between two recreations
     */
    public record HandshakeRecovery(@DefaultValue("true") boolean enabled, @DefaultValue("10s") Duration delay,
            @DefaultValue("10m") Duration maxDelay, @DefaultValue("1m") Duration minInterval) {
    }

    /**
     * @param url the gateway's LAN broker when it runs outside the gateway; embedded when unset
     * @param user broker user; required
     * @param password broker password; required
     * @param embedded the gateway's embedded LAN broker, where the site's nodes forward what is bound for remote
     *        nodes
     * @param peers the site's nodes' brokers by node id, which the gateway delivers to
     * @param receiveBatchSize most messages taken off a remote node's queue in one transaction
     *        (a bundle of up to 256 is not split)
     * @param bridgeMaxRetryInterval longest wait between a bridge's attempts to reach a node that is down
     * @param tls mutual TLS on the LAN broker, the gateway's connections to it and its bridges to the nodes' brokers;
     *        required unless {@code tls.plain-tcp} is set
     * @param bundleMaxEnvelopes most messages of one precedence for one node sent as one JMS message, 1 to 256; 1
     *        sends each as a JMS message of its own with every field a property, for consumers that select on them
     */
    public record Jms(@Nullable String url, @Nullable String user, @Nullable String password,
            @DefaultValue Embedded embedded, Map<String, Peer> peers, @DefaultValue("500") int receiveBatchSize,
            @DefaultValue("10s") Duration bridgeMaxRetryInterval,
            @NestedConfigurationProperty @DefaultValue BrokerTlsProperties tls,
            @DefaultValue("256") int bundleMaxEnvelopes) {

        public Jms {
            peers = peers == null ? Map.of() : Map.copyOf(peers);
        }
    }

    /**
     * @param host address the LAN broker's acceptor binds to
     * @param port port of the LAN broker's acceptor
     * @param dataDirectory where the LAN broker keeps its journal
     * @param pair the LAN broker as one of a primary/backup pair, one on each gateway of an active/standby pair; none
     *        (a lone broker) unless {@code pair.role} is set
     */
    public record Embedded(@DefaultValue("0.0.0.0") String host, @DefaultValue("61616") int port,
            @DefaultValue("data/artemis") Path dataDirectory,
            @NestedConfigurationProperty @Nullable BrokerPairProperties pair) {
    }

    /**
     * @param url the node's broker URL, e.g. {@code tcp://10.0.1.3:61616}
     * @param user user on that broker; the gateway's user when unset
     * @param password password on that broker; the gateway's password when unset
     */
    public record Peer(String url, @Nullable String user, @Nullable String password) {
    }
}
