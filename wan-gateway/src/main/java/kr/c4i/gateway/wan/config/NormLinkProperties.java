package kr.c4i.gateway.wan.config;

import java.time.Duration;
import java.util.Map;

import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

import kr.c4i.gateway.kmtf.catalogue.Precedence;
import kr.c4i.gateway.norm.link.NormLinkSettings;

/**
 * The {@code norm} WAN link: NORM (RFC 5740) unicast to each peer gateway at the WAN budget
 * ({@code gateway.wan.schedule.budget-bits-per-second}, less IP and UDP headers), congestion control off, losses
 * repaired with FEC parity. The defaults are {@link NormLinkSettings}' constants, the settings the measurements of
 * NORM-LINK.md found best on lossy links.
 *
 * @param peers peer site id to its gateway as {@code host} or {@code host:port}, e.g.
 *        {@code gateway.wan.norm.peers.s2=10.0.2.1}
 * @param bindAddress the local address the gateway receives on; every address when unset
 * @param port the UDP port the gateway receives on, and the peers' port when their address names none
 * @param segmentSize the payload of one NORM packet, and the largest frame; with headers it must fit the WAN's MTU
 * @param blockSize source segments per FEC block
 * @param parity parity segments NORM may compute per block to repair any lost segments of it
 * @param autoParity parity segments sent with each frame of {@code parity-precedence} or more urgent, ahead of any
 *        NACK: {@code adaptive} sends as many as the loss the link measures calls for, up to {@code parity}; a number
 *        (0 to {@code parity}) sends that many whatever the loss (0: repair on request only)
 * @param parityTarget with adaptive parity, the percentage of frames that may still need a repair round: it sends
 *        the fewest parity segments k for which the measured loss p gives p^(k+1) under it
 * @param parityPrecedence the least urgent precedence whose frames go with proactive parity: a frame carrying a
 *        message of it or a more urgent one does, the others are repaired on request only; such messages go in
 *        frames of their own, so the parity is not spent on less urgent ones; {@code ROUTINE} sends parity with
 *        every frame
 * @param grttEstimate the round-trip estimate NORM starts with; it measures the real one from there
 * @param peerTimeout how long frames may stay unacknowledged before the peer counts as lost; the link adds 10 to 60
 *        of NORM's round trips (more the more loss it measures) and the time to send the unacknowledged bytes once at
 *        its rate
 * @param bufferSize memory for the repair state per peer, sending and receiving
 * @param txLoss percentage of its packets the link drops on purpose (NORM's test hook), for demonstrations; 0 in
 *        operation
 * @param library libnorm's file name or path; Debian's libnorm.so.1 when unset
 * @param multicastGroup {@code address:port} of a multicast group that every gateway of the link joins, instead of
 *        unicast to each peer (then the peers' addresses are not used and may be empty); unicast when unset
 * @param multicastInterface the network interface the group is joined and sent on, by name; the system's choice
 *        when unset
 * @param multicastTtl hops the group's packets may take: 1 keeps them on the shared net
 */
@ConfigurationProperties("gateway.wan.norm")
public record NormLinkProperties(Map<String, String> peers, @Nullable String bindAddress,
        @DefaultValue("" + NormLinkSettings.DEFAULT_PORT) int port,
        @DefaultValue("" + NormLinkSettings.DEFAULT_SEGMENT_BYTES) int segmentSize,
        @DefaultValue("" + NormLinkSettings.DEFAULT_BLOCK_SEGMENTS) int blockSize,
        @DefaultValue("" + NormLinkSettings.DEFAULT_PARITY_SEGMENTS) int parity,
        @DefaultValue(NormLinkProperties.ADAPTIVE) String autoParity,
        @DefaultValue("" + NormLinkSettings.DEFAULT_PARITY_TARGET_PERCENT) double parityTarget,
        @DefaultValue(NormLinkSettings.DEFAULT_PARITY_PRECEDENCE) Precedence parityPrecedence,
        @DefaultValue("" + NormLinkSettings.DEFAULT_GRTT_ESTIMATE_MILLIS + "ms") Duration grttEstimate,
        @DefaultValue("" + NormLinkSettings.DEFAULT_PEER_TIMEOUT_MILLIS + "ms") Duration peerTimeout,
        @DefaultValue("" + NormLinkSettings.DEFAULT_BUFFER_BYTES) int bufferSize,
        @DefaultValue("0") double txLoss, @Nullable String library, @Nullable String multicastGroup,
        @Nullable String multicastInterface,
        @DefaultValue("" + NormLinkSettings.DEFAULT_MULTICAST_TTL) int multicastTtl) {

    /** The {@code auto-parity} that chooses the parity from the measured loss. */
    public static final String ADAPTIVE = "adaptive";

    public NormLinkProperties {
        peers = peers == null ? Map.of() : Map.copyOf(peers);
    }

    /** The fixed auto parity {@code auto-parity} names, or null for {@value #ADAPTIVE}. */
    public @Nullable Integer fixedAutoParity() {
        String value = this.autoParity.strip();
        if (ADAPTIVE.equalsIgnoreCase(value)) {
            return null;
        }
        try {
            return Integer.valueOf(value);
        }
        catch (NumberFormatException ex) {
            throw new IllegalArgumentException("gateway.wan.norm.auto-parity is '" + this.autoParity + "': use "
                    + ADAPTIVE + ", or a number of parity segments from 0 to gateway.wan.norm.parity", ex);
        }
    }

    /** The multicast group the settings name, or null for unicast. */
    public NormLinkSettings.@Nullable Multicast toMulticast() {
        if (this.multicastGroup == null || this.multicastGroup.isBlank()) {
            return null;
        }
        try {
            return NormLinkSettings.Multicast.parse(this.multicastGroup,
                    this.multicastInterface == null || this.multicastInterface.isBlank() ? null
                            : this.multicastInterface,
                    this.multicastTtl);
        }
        catch (IllegalArgumentException ex) {
            throw new IllegalArgumentException("gateway.wan.norm.multicast-group, -interface, -ttl: "
                    + ex.getMessage(), ex);
        }
    }
}
