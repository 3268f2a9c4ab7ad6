package kr.c4i.gateway.jms;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.apache.activemq.artemis.api.core.TransportConfiguration;
import org.apache.activemq.artemis.core.config.ClusterConnectionConfiguration;
import org.apache.activemq.artemis.core.config.HAPolicyConfiguration;
import org.apache.activemq.artemis.core.config.ha.ReplicaPolicyConfiguration;
import org.apache.activemq.artemis.core.config.ha.ReplicatedPolicyConfiguration;
import org.apache.activemq.artemis.core.config.impl.ConfigurationImpl;
import org.apache.activemq.artemis.core.remoting.impl.netty.NettyConnectorFactory;
import org.apache.activemq.artemis.core.remoting.impl.netty.TransportConstants;
import org.apache.activemq.artemis.core.server.cluster.impl.MessageLoadBalancingType;
import org.apache.activemq.artemis.jms.client.ActiveMQConnectionFactory;

/**
 * The embedded broker as one of a primary/backup pair ({@link JmsTransportSettings.Pair}): Artemis replication,
 * the HA policy, a connector per broker and a cluster connection to the partner, and the connection factory with which
 * this node's clients follow whichever broker is active.
 *
 * <p>Replication with quorum voting, not a pluggable lock manager: a lock manager needs a third party both machines
 * reach (ZooKeeper, or a directory both share for the file-based one), and a node has neither. With one pair there is
 * no one else to vote, so the backup takes over as soon as it loses the primary, and a cut between the two machines
 * alone leaves both active until an operator stops one (duplicates meanwhile are absorbed by the inbox's message id).
 * Quorum voting's other settings stay at Artemis's defaults: with one pair they decide nothing.
 */
final class EmbeddedBrokerPair {

    static final String CLUSTER = "kmtf-pair";

    // The brokers of a pair are on one site's network: a partner that does not answer a connect within this is down.
    private static final int CONNECT_TIMEOUT_MILLIS = 2_000;

    // The backup becomes active within a second or two of losing the primary; clients look for it this often.
    private static final long CLIENT_RETRY_INTERVAL_MILLIS = 200;

    private static final long CLIENT_MAX_RETRY_INTERVAL_MILLIS = 2_000;

    private final JmsTransportSettings settings;
    private final JmsTransportSettings.Pair pair;

    EmbeddedBrokerPair(JmsTransportSettings settings, JmsTransportSettings.Pair pair) {
        this.settings = settings;
        this.pair = pair;
    }

    /** The pair's broker in {@code role}. */
    static String connectorName(PairRole role) {
        return "kmtf-pair-" + role.label();
    }

    void configure(ConfigurationImpl configuration) {
        PairRole role = pair.role();
        configuration.addConnectorConfiguration(connectorName(role), connector(role));
        configuration.addConnectorConfiguration(connectorName(role.partner()), connector(role.partner()));
        configuration.addClusterConfiguration(new ClusterConnectionConfiguration().setName(CLUSTER)
                .setConnectorName(connectorName(role))
                .setStaticConnectors(List.of(connectorName(role.partner())))
                // Only one of the two is ever active, so there is nothing to balance.
                .setMessageLoadBalancingType(MessageLoadBalancingType.OFF)
                // Artemis retries an absent partner every 500 ms for ever; backing off to the clients' bound finds a
                // returning partner as soon as they do, at a quarter of the attempts.
                .setRetryIntervalMultiplier(2.0)
                .setMaxRetryInterval(CLIENT_MAX_RETRY_INTERVAL_MILLIS)
                .setClientFailureCheckPeriod(pair.failureCheckPeriod().toMillis())
                .setConnectionTTL(pair.connectionTtl().toMillis()));
        configuration.setClusterUser(settings.clusterUserFor(pair));
        configuration.setClusterPassword(settings.clusterPasswordFor(pair));
        configuration.setHAPolicyConfiguration(policy(role));
    }

    private HAPolicyConfiguration policy(PairRole role) {
        // A backup pairs only with a primary of its own node, whatever a wrong partner address reaches.
        String group = "kmtf-" + settings.nodeId().value();
        if (role == PairRole.PRIMARY) {
            // A primary restarted after a failover must not serve its stale journal beside the active backup: it
            // first looks for a broker active with its identity and takes over from it once it has its data.
            // Voting on a lost backup stays off: with no third broker the primary would have no one to vote with.
            return new ReplicatedPolicyConfiguration().setCheckForActiveServer(true)
                    .setVoteOnReplicationFailure(false)
                    .setClusterName(CLUSTER)
                    .setGroupName(group);
        }
        // After handing back to a restarted primary the backup starts again as a backup, so the pair is whole again.
        return new ReplicaPolicyConfiguration().setClusterName(CLUSTER)
                .setGroupName(group)
                .setAllowFailBack(true)
                .setRestartBackup(true);
    }

    /**
     * The connection factory of this node's own clients: both brokers, the primary first, following the active one
     * for ever. A failover keeps their sessions; a transaction it cut is rolled back and done again.
     */
    ActiveMQConnectionFactory createConnectionFactory() {
        ActiveMQConnectionFactory factory = new ActiveMQConnectionFactory(true, connector(PairRole.PRIMARY),
                connector(PairRole.BACKUP));
        factory.setUser(settings.user());
        factory.setPassword(settings.password());
        factory.setReconnectAttempts(-1);
        factory.setRetryInterval(CLIENT_RETRY_INTERVAL_MILLIS);
        factory.setRetryIntervalMultiplier(2.0);
        factory.setMaxRetryInterval(CLIENT_MAX_RETRY_INTERVAL_MILLIS);
        factory.setClientFailureCheckPeriod(pair.failureCheckPeriod().toMillis());
        factory.setConnectionTTL(pair.connectionTtl().toMillis());
        return factory;
    }

    /** What {@link #createConnectionFactory} connects to, as a URL for logs and health. */
    String clientUrl() {
        return "(" + url(PairRole.PRIMARY) + "," + url(PairRole.BACKUP) + ")?ha=true&reconnectAttempts=-1";
    }

    private String url(PairRole broker) {
        return "tcp://" + EmbeddedBrokerConfigurationFactory.connectHost(host(broker)) + ":" + port(broker);
    }

    /**
     * The broker in {@code broker}'s role as a connector. Artemis announces it, every parameter included, to the
     * partner (which replicates through it) and to every client that may fail over (peers' bridges too), so its TLS
     * is a context name, never a store or its password: each process connects with its own identity of that trust.
     */
    private TransportConfiguration connector(PairRole broker) {
        Map<String, Object> parameters = new HashMap<>();
        parameters.put(TransportConstants.HOST_PROP_NAME, host(broker));
        parameters.put(TransportConstants.PORT_PROP_NAME, port(broker));
        parameters.put(TransportConstants.NETTY_CONNECT_TIMEOUT, CONNECT_TIMEOUT_MILLIS);
        if (settings.tls() != null) {
            parameters.putAll(settings.tls().announcedConnectorParameters());
        }
        return new TransportConfiguration(NettyConnectorFactory.class.getName(), parameters, connectorName(broker));
    }

    private String host(PairRole broker) {
        return (broker == pair.role()) ? pair.hostOf(settings.embedded()) : pair.partnerHost();
    }

    private int port(PairRole broker) {
        return (broker == pair.role()) ? settings.embedded().port() : pair.partnerPort();
    }
}
