package kr.c4i.gateway.jms;

import org.apache.activemq.artemis.jms.client.ActiveMQConnectionFactory;
import org.jspecify.annotations.Nullable;

/**
 * Turns the settings into the JMS connection factory of this node's own broker: the external URL, the embedded
 * broker's acceptor over loopback, or both brokers of an embedded {@linkplain JmsTransportSettings.Pair pair}. Either
 * way the node's credentials are used, and its TLS identity when the settings have one.
 */
final class JmsConnectionFactoryFactory {

    private final JmsTransportSettings settings;

    JmsConnectionFactoryFactory(JmsTransportSettings settings) {
        this.settings = settings;
    }

    ActiveMQConnectionFactory createConnectionFactory() {
        EmbeddedBrokerPair pair = pair();
        if (pair != null) {
            return pair.createConnectionFactory();
        }
        // Artemis' default of no client reconnect suits the transport, which rebuilds a failed
        // connection on its next call instead of blocking the caller; an external URL may still set it.
        return BrokerTls.secure(new ActiveMQConnectionFactory(brokerUrl(), settings.user(), settings.password()),
                settings.tls());
    }

    /** The URL this node's clients connect to. */
    String brokerUrl() {
        if (settings.effectiveMode() == BrokerMode.EXTERNAL) {
            return settings.brokerUrl();
        }
        EmbeddedBrokerPair pair = pair();
        if (pair != null) {
            return pair.clientUrl();
        }
        JmsTransportSettings.Embedded embedded = settings.embedded();
        return "tcp://" + EmbeddedBrokerConfigurationFactory.connectHost(embedded.host()) + ":" + embedded.port();
    }

    private @Nullable EmbeddedBrokerPair pair() {
        JmsTransportSettings.Pair pair = settings.embedded().pair();
        return (settings.effectiveMode() == BrokerMode.EMBEDDED && pair != null)
                ? new EmbeddedBrokerPair(settings, pair) : null;
    }
}
