package kr.c4i.gateway.bridge.config;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

import kr.c4i.gateway.jms.BrokerMode;

/**
 * The JMS transport: this node's Artemis broker and the peers it forwards to.
 *
 * @param mode embedded or external broker; deduced when unset (a {@code url} means external)
 * @param url URL of an external broker, e.g. {@code tcp://broker-a:61616}
 * @param user broker user; required, the broker allows no anonymous access
 * @param password broker password; required
 * @param embedded the embedded broker, when this node runs its own
 * @param peers other nodes' brokers by node id, which this node's broker forwards to
 * @param receiveBatchSize most messages written to the inbox in one transaction
 * @param bridgeMaxRetryInterval longest wait between a bridge's attempts to reach a peer that is
 *        down, so a returning peer gets its backlog within about this long
 */
@ConfigurationProperties("gateway.jms")
public record JmsProperties(@Nullable BrokerMode mode, @Nullable String url, @Nullable String user,
        @Nullable String password, @DefaultValue Embedded embedded, Map<String, Peer> peers,
        @DefaultValue("500") int receiveBatchSize, @DefaultValue("10s") Duration bridgeMaxRetryInterval) {

    public JmsProperties {
        peers = peers == null ? Map.of() : Map.copyOf(peers);
    }

    /**
     * The broker this node embeds.
     *
     * @param host address the broker's acceptor binds to
     * @param port port of the broker's acceptor (avoid 5672, often taken)
     * @param dataDirectory where the broker keeps its journal, so messages survive a restart
     */
    public record Embedded(@DefaultValue("0.0.0.0") String host, @DefaultValue("61616") int port,
            @DefaultValue("data/artemis") Path dataDirectory) {
    }

    /**
     * Another node's broker.
     *
     * @param url the peer broker's URL, e.g. {@code tcp://10.0.0.2:61616}
     * @param user user on the peer broker; this node's user when unset
     * @param password password on the peer broker; this node's password when unset
     */
    public record Peer(String url, @Nullable String user, @Nullable String password) {
    }
}
