package kr.c4i.gateway.jms;

import org.apache.activemq.artemis.jms.client.ActiveMQConnectionFactory;

/**
 * Turns the settings into the JMS connection factory of this node's own broker: the external URL, with the node's TLS
 * identity when the settings have one, or the embedded broker's in-VM acceptor. Either way the node's credentials
 * are used.
 */
final class JmsConnectionFactoryFactory {

    private final JmsTransportSettings settings;

    JmsConnectionFactoryFactory(JmsTransportSettings settings) {
        this.settings = settings;
    }

    ActiveMQConnectionFactory createConnectionFactory() {
        if (settings.effectiveMode() == BrokerMode.EMBEDDED) {
            // The broker runs in this JVM: its in-VM acceptor spares the node's own sends and receives the TLS and
            // the network stack that only the hop between brokers needs. The node's credentials are still checked.
            return new ActiveMQConnectionFactory(EmbeddedBrokerConfigurationFactory.inVmUrl(settings.embedded()),
                    settings.user(), settings.password());
        }
        // Artemis' default of no client reconnect suits the transport, which rebuilds a failed
        // connection on its next call instead of blocking the caller; an external URL may still set it.
        return BrokerTls.secure(new ActiveMQConnectionFactory(brokerUrl(), settings.user(), settings.password()),
                settings.tls());
    }

    /** Where this node's broker is reached over the network: the external URL, or the embedded broker's acceptor. */
    String brokerUrl() {
        if (settings.effectiveMode() == BrokerMode.EXTERNAL) {
            return settings.brokerUrl();
        }
        JmsTransportSettings.Embedded embedded = settings.embedded();
        return "tcp://" + EmbeddedBrokerConfigurationFactory.connectHost(embedded.host()) + ":" + embedded.port();
    }
}
