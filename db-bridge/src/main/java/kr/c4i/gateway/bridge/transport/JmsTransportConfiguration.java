package kr.c4i.gateway.bridge.transport;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.micrometer.core.instrument.MeterRegistry;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;

import kr.c4i.gateway.bridge.config.InvalidPropertiesException;
import kr.c4i.gateway.bridge.config.JmsProperties;
import kr.c4i.gateway.core.NodeId;
import kr.c4i.gateway.core.transport.InvalidSettingsException;
import kr.c4i.gateway.core.transport.InvalidSettingsException.Problem;
import kr.c4i.gateway.core.transport.Transport;
import kr.c4i.gateway.jms.BrokerTls;
import kr.c4i.gateway.jms.EmbeddedBrokerCustomizer;
import kr.c4i.gateway.jms.JmsTransport;
import kr.c4i.gateway.jms.JmsTransportSettings;
import kr.c4i.gateway.jms.JmsTransportSettings.Bridge;
import kr.c4i.gateway.jms.JmsTransportSettings.Embedded;
import kr.c4i.gateway.jms.JmsTransportSettings.Pair;
import kr.c4i.gateway.jms.JmsTransportSettings.Peer;
import kr.c4i.gateway.jms.JmsTransportSettings.Receive;
import kr.c4i.gateway.jms.JmsTransportSettings.Send;

/** {@code gateway.node.transport=jms} (the default): point-to-point JMS over a broker per node. */
@AutoConfiguration
@ConditionalOnProperty(name = "gateway.node.transport", havingValue = "jms", matchIfMissing = true)
public final class JmsTransportConfiguration {

    /**
     * The settings whose property is not named after them. The rest, the pair's among them
     * ({@code embedded.pair.clusterUser}: {@code gateway.jms.embedded.pair.cluster-user}), are in dashed form.
     */
    private static final Map<String, String> RENAMES = Map.of("nodeId", "gateway.node.id", "brokerUrl",
            "gateway.jms.url", "receive.batchSize", "gateway.jms.receive-batch-size", "bridge.maxRetryInterval",
            "gateway.jms.bridge-max-retry-interval", "bridge.failureCheckPeriod",
            "gateway.jms.bridge-failure-check-period", "bridge.connectionTtl", "gateway.jms.bridge-connection-ttl",
            "send.bundleMaxEnvelopes", "gateway.jms.bundle-max-envelopes");

    @Bean
    @ConditionalOnMissingBean
    JmsTransportSettings jmsTransportSettings(NodeId node, JmsProperties jms, Environment environment) {
        Map<NodeId, Peer> peers = new LinkedHashMap<>();
        jms.peers().forEach((id, peer) -> peers.put(NodeId.of(id), new Peer(peer.url(), peer.user(), peer.password())));
        Embedded embedded = Embedded.at(jms.embedded().host(), jms.embedded().port(),
                jms.embedded().dataDirectory().resolve(node.value())).withPair(pair(jms.embedded().pair()));
        JmsProperties.Tls tls = jms.tls();
        List<Problem> problems = new ArrayList<>();
        BrokerTls brokerTls = null;
        try {
            brokerTls = BrokerTls.choose(tls.keyStore(), tls.keyStorePasswordFile(), tls.trustStore(),
                    tls.trustStorePasswordFile(), tls.verifyHost(), tls.plainTcp());
        }
        catch (InvalidSettingsException ex) {
            problems.addAll(ex.problems());
        }
        try {
            JmsTransportSettings settings = new JmsTransportSettings(node, jms.mode(), jms.url(), jms.user(),
                    jms.password(), embedded, peers, JmsTransportSettings.DEFAULT_QUEUE_PREFIX,
                    JmsTransportSettings.DEFAULT_INVALID_QUEUE, Receive.of(jms.receiveBatchSize()),
                    Bridge.of(jms.bridgeMaxRetryInterval()).withLiveness(jms.bridgeFailureCheckPeriod(),
                            jms.bridgeConnectionTtl()), brokerTls, new Send(jms.bundleMaxEnvelopes()));
            if (problems.isEmpty()) {
                return settings;
            }
        }
        catch (InvalidSettingsException ex) {
            problems.addAll(0, ex.problems());
        }
        // Every refused property at once, the TLS choice among them.
        throw InvalidPropertiesException.of(new InvalidSettingsException("Invalid JMS transport settings: ", problems),
                "gateway.jms", RENAMES, environment);
    }

    @Bean
    @ConditionalOnMissingBean(Transport.class)
    JmsTransport jmsTransport(JmsTransportSettings settings, ObjectProvider<EmbeddedBrokerCustomizer> customizers) {
        return new JmsTransport(settings, customizers.orderedStream().toList());
    }

    /** Artemis's own meters (queue depths among them) beside the node's, for the JMS dashboard. */
    @Bean
    EmbeddedBrokerCustomizer artemisMeters(MeterRegistry registry) {
        return new ArtemisMeters(registry);
    }

    /**
     * The broker as one of a pair, or alone; checked with the other settings, so a pair property set without a role
     * is refused as a missing role.
     */
    private static @Nullable Pair pair(JmsProperties.@Nullable Pair pair) {
        return (pair == null) ? null : new Pair(pair.role(), pair.partner(), pair.host(), pair.clusterUser(),
                pair.clusterPassword(), pair.failureCheckPeriod(), pair.connectionTtl());
    }
}
