package kr.c4i.gateway.wan.config;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.NestedConfigurationProperty;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The {@code jms} WAN link: each site gateway's broker takes the frames for its site; a gateway produces its frames
 * straight to the peer gateways' brokers, with windows of about one second of the WAN budget.
 *
 * @param url this site's WAN broker when it runs outside the gateway; embedded when unset
 * @param user user on this site's WAN broker; required
 * @param password password of {@code user}; required
 * @param embedded the embedded WAN broker
 * @param peers peer site id to its gateway's WAN broker
 * @param reconnectBackoff first wait before reconnecting to a lost broker, doubled after each failure
 * @param maxReconnectBackoff the longest such wait
 * @param tls mutual TLS on the WAN broker and every connection to it and to the peers' brokers; required unless
 *        {@code tls.plain-tcp} is set
 */
@ConfigurationProperties("gateway.wan.jms")
public record JmsLinkProperties(@Nullable String url, @Nullable String user, @Nullable String password,
        @DefaultValue Embedded embedded, Map<String, Peer> peers, @DefaultValue("500ms") Duration reconnectBackoff,
        @DefaultValue("10s") Duration maxReconnectBackoff,
        @NestedConfigurationProperty @DefaultValue BrokerTlsProperties tls) {

    public JmsLinkProperties {
        peers = peers == null ? Map.of() : Map.copyOf(peers);
    }

    /**
     * @param host address the WAN broker's acceptor binds to
     * @param port port of the WAN broker's acceptor
     * @param dataDirectory where the WAN broker keeps its journal
     * @param pair the WAN broker as one of a primary/backup pair, one on each gateway of an active/standby pair; none
     *        (a lone broker) unless {@code pair.role} is set. The peer sites then list both brokers, which their
     *        link tries in turn: {@code (tcp://gw-s1a:61716,tcp://gw-s1b:61716)}
     */
    public record Embedded(@DefaultValue("0.0.0.0") String host, @DefaultValue("61716") int port,
            @DefaultValue("data/artemis-wan") Path dataDirectory,
            @NestedConfigurationProperty @Nullable BrokerPairProperties pair) {
    }

    /**
     * @param url the peer gateway's WAN broker, e.g. {@code tcp://10.0.2.1:61716}
     * @param user user on that broker; this site's {@code user} when unset
     * @param password password on that broker; this site's {@code password} when unset
     */
    public record Peer(String url, @Nullable String user, @Nullable String password) {
    }
}
