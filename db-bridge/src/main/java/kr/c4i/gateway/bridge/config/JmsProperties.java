package kr.c4i.gateway.bridge.config;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

import kr.c4i.gateway.jms.BrokerMode;
import kr.c4i.gateway.jms.PairRole;

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
 *        (a bundle of up to 256 is not split)
 * @param bridgeMaxRetryInterval longest wait between a bridge's attempts to reach a peer that is
 *        down, so a returning peer gets its backlog within about this long
 * @param bridgeFailureCheckPeriod a bridge that has heard nothing from its peer for this long gives its connection up
 *        and makes a new one; longer than the link's worst queueing delay and retransmission pause, or a slow lossy
 *        link's connections are torn down while healthy
 * @param bridgeConnectionTtl how long a peer's broker keeps a bridge's connection that has sent nothing; at least
 *        {@code bridge-failure-check-period}
 * @param tls mutual TLS on the broker's acceptor, this node's connections and its bridges; required unless
 *        {@code tls.plain-tcp} is set
 * @param bundleMaxEnvelopes most messages of one precedence for one peer sent as one JMS message, 1 to 256; 1 sends
 *        each as a JMS message of its own with every field a property, for consumers that select on them
 */
@ConfigurationProperties("gateway.jms")
public record JmsProperties(@Nullable BrokerMode mode, @Nullable String url, @Nullable String user,
        @Nullable String password, @DefaultValue Embedded embedded, Map<String, Peer> peers,
        @DefaultValue("500") int receiveBatchSize, @DefaultValue("10s") Duration bridgeMaxRetryInterval,
        @DefaultValue("10s") Duration bridgeFailureCheckPeriod, @DefaultValue("30s") Duration bridgeConnectionTtl,
        @DefaultValue Tls tls, @DefaultValue("256") int bundleMaxEnvelopes) {

    public JmsProperties {
        peers = peers == null ? Map.of() : Map.copyOf(peers);
    }

    /**
     * The broker this node embeds.
     *
     * @param host address the broker's acceptor binds to
     * @param port port of the broker's acceptor (avoid 5672, often taken)
     * @param dataDirectory where the broker keeps its journal, so messages survive a restart
     * @param pair the broker as one of an Artemis primary/backup pair, one on each of the node's two machines; none
     *        (a lone broker) unless {@code pair.role} is set
     */
    public record Embedded(@DefaultValue("0.0.0.0") String host, @DefaultValue("61616") int port,
            @DefaultValue("data/artemis") Path dataDirectory, @Nullable Pair pair) {
    }

    /**
     * The embedded broker as one of a primary/backup pair by replication: the backup copies the primary's journal
     * and becomes active when it loses the primary; this node's clients and the peers that list both brokers follow
     * the active one.
     *
     * @param role {@code primary} or {@code backup}: what this broker is; its partner is the other. Setting it turns
     *        the pair on; the pair's other properties without it are refused
     * @param partner the other broker's acceptor as {@code host:port}, e.g. {@code node-a2:61616}
     * @param host the address the partner, this node's clients and the peers reach this broker at;
     *        {@code embedded.host} when unset, which must then not be a wildcard address
     * @param clusterUser user the two brokers connect to each other as; this node's {@code user} when unset
     * @param clusterPassword password of {@code cluster-user}; set with it, or neither for this node's password
     * @param failureCheckPeriod a connection between the two brokers, or from this node's clients, that has received
     *        nothing for this long is taken as lost; it bounds the backup's wait for a primary whose machine is gone
     *        without closing its connections
     * @param connectionTtl how long a broker keeps a silent connection of its partner or of a client; at least
     *        {@code failure-check-period}
     */
    public record Pair(@Nullable PairRole role, @Nullable String partner, @Nullable String host,
            @Nullable String clusterUser, @Nullable String clusterPassword,
            @DefaultValue("5s") Duration failureCheckPeriod, @DefaultValue("15s") Duration connectionTtl) {
    }

    /**
     * Mutual TLS on every broker connection: a client certificate is required on the acceptor, and every client
     * checks the broker's certificate and host name.
     *
     * @param keyStore PKCS #12 key store with this node's key and certificate, presented on both ends
     * @param keyStorePasswordFile file holding the key store's password
     * @param trustStore PKCS #12 trust store with the site's certificate authority
     * @param trustStorePasswordFile file holding the trust store's password; the key store's password file when unset
     * @param verifyHost whether clients check that a broker's certificate names the host they connect to
     * @param plainTcp true to run without TLS, credentials and messages in clear; a node with neither this nor the
     *        stores does not start
     */
    public record Tls(@Nullable Path keyStore, @Nullable Path keyStorePasswordFile, @Nullable Path trustStore,
            @Nullable Path trustStorePasswordFile, @DefaultValue("true") boolean verifyHost,
            @DefaultValue("false") boolean plainTcp) {
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
