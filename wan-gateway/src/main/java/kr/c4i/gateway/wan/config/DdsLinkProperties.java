package kr.c4i.gateway.wan.config;

import java.time.Duration;
import java.util.Map;

import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;

/**
 * The {@code dds} WAN link: Cyclone DDS unicast between the site gateways on a WAN domain of its own.
 *
 * @param domainId the WAN domain; must differ from the site LAN's
 * @param peers peer site id to its gateway's address (host or IP), e.g. {@code gateway.wan.dds.peers.s2=10.0.2.1},
 *        or to both addresses of an active/standby pair, comma-separated: {@code 10.0.2.1,10.0.2.2}
 * @param networkInterface the interface (name or address) facing the WAN; Cyclone's choice when unset
 * @param maxDatagramSize the largest datagram sent; frames larger than this are fragmented by Cyclone
 * @param peerTimeout how long frames may stay unacknowledged before the peer counts as lost
 * @param lease how long the peer sites keep this gateway's DDS participant after last hearing from it (1s..60s): a
 *        gateway that dies stays matched, and their frames to this site wait for it, that long; it announces itself
 *        every 0.8 lease, so a shorter one costs WAN bandwidth
 * @param writeTimeout how long a send may block on a peer that does not keep up before it is refused
 * @param library Cyclone's native library; libddsc.so.0debian, then libddsc.so.0 when unset
 */
@ConfigurationProperties("gateway.wan.dds")
public record DdsLinkProperties(@DefaultValue("100") int domainId, Map<String, String> peers,
        @Nullable String networkInterface, @DefaultValue("1400B") DataSize maxDatagramSize,
        @DefaultValue("15s") Duration peerTimeout, @DefaultValue("5s") Duration lease,
        @DefaultValue("100ms") Duration writeTimeout,
        @Nullable String library) {

    public DdsLinkProperties {
        peers = peers == null ? Map.of() : Map.copyOf(peers);
    }
}
