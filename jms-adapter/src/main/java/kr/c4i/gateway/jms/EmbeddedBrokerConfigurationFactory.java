package kr.c4i.gateway.jms;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import kr.c4i.gateway.core.NodeId;
import org.apache.activemq.artemis.api.core.QueueConfiguration;
import org.apache.activemq.artemis.api.core.RoutingType;
import org.apache.activemq.artemis.api.core.SimpleString;
import org.apache.activemq.artemis.api.core.TransportConfiguration;
import org.apache.activemq.artemis.core.config.BridgeConfiguration;
import org.apache.activemq.artemis.core.config.Configuration;
import org.apache.activemq.artemis.core.config.ConfigurationUtils;
import org.apache.activemq.artemis.core.config.CoreAddressConfiguration;
import org.apache.activemq.artemis.core.config.impl.ConfigurationImpl;
import org.apache.activemq.artemis.core.config.impl.SecurityConfiguration;
import org.apache.activemq.artemis.core.remoting.impl.netty.TransportConstants;
import org.apache.activemq.artemis.core.security.Role;
import org.apache.activemq.artemis.core.server.ComponentConfigurationRoutingType;
import org.apache.activemq.artemis.core.server.JournalType;
import org.apache.activemq.artemis.core.settings.impl.AddressSettings;
import org.apache.activemq.artemis.spi.core.security.ActiveMQJAASSecurityManager;
import org.apache.activemq.artemis.spi.core.security.jaas.InVMLoginModule;
import org.jspecify.annotations.Nullable;

/**
 * Turns the settings into the embedded broker's Artemis configuration: a persistent NIO journal, one
 * CORE acceptor (TLS with a client certificate required, when the settings have TLS), security with the node's
 * single user, a queue per known node, and a store-and-forward bridge per peer (over TLS likewise; to both brokers
 * when the peer is a pair). A site's WAN gateway also gets a queue, without a bridge, per remote node it relays for.
 * A broker that is one of a pair also gets what {@link EmbeddedBrokerPair} adds.
 */
final class EmbeddedBrokerConfigurationFactory {

    static final String ROLE = "gateway";
    static final String ACCEPTOR = "kmtf-core";
    static final String MATCH_ALL = "#";

    private final JmsTransportSettings settings;
    private final Set<NodeId> relayed;

    EmbeddedBrokerConfigurationFactory(JmsTransportSettings settings) {
        this(settings, Set.of());
    }

    /** @param relayed nodes whose queues this broker holds for the gateway to consume; neither it nor its peers */
    EmbeddedBrokerConfigurationFactory(JmsTransportSettings settings, Set<NodeId> relayed) {
        this.settings = settings;
        this.relayed = Set.copyOf(relayed);
    }

    static String bridgeName(NodeId peer) {
        return "kmtf-bridge-to-" + peer.value();
    }

    private static final int PEER_CONNECT_TIMEOUT_MILLIS = 2_000;

    static String connectorName(NodeId peer) {
        return "kmtf-peer-" + peer.value();
    }

    Configuration createConfiguration() {
        JmsTransportSettings.Embedded embedded = settings.embedded();
        Path data = embedded.dataDirectory();
        ConfigurationImpl configuration = new ConfigurationImpl();
        configuration.setName("kmtf-" + settings.nodeId().value());
        configuration.setPersistenceEnabled(true);
        configuration.setJournalType(JournalType.NIO);
        configuration.setJournalDirectory(data.resolve("journal").toString());
        configuration.setBindingsDirectory(data.resolve("bindings").toString());
        configuration.setPagingDirectory(data.resolve("paging").toString());
        configuration.setLargeMessagesDirectory(data.resolve("large-messages").toString());
        configuration.setNodeManagerLockDirectory(data.toString());
        configuration.setJournalSyncTransactional(embedded.journalSyncTransactional());
        configuration.setJournalSyncNonTransactional(true);
        configuration.setIDCacheSize(embedded.duplicateIdCacheSize());
        configuration.setPersistIDCache(true);
        configuration.setJMXManagementEnabled(false);
        configuration.setSecurityEnabled(true);
        configuration.putSecurityRoles(MATCH_ALL, Set.of(allPermissions()));
        addAcceptor(configuration, embedded, settings.tls());
        addQueue(configuration, settings.queueName(settings.nodeId()));
        addQueue(configuration, settings.invalidQueue());
        settings.peers().forEach((id, peer) -> addPeer(configuration, id, peer));
        // Created with the broker, before any sender's bridge can forward to it: a bridge's message for an
        // address without a queue would be dropped.
        this.relayed.forEach((id) -> addQueue(configuration, settings.queueName(id)));
        if (embedded.pair() != null) {
            new EmbeddedBrokerPair(settings, embedded.pair()).configure(configuration);
        }
        return configuration;
    }

    /** The single user of the embedded broker; with no default user, anonymous connections are refused. */
    ActiveMQJAASSecurityManager createSecurityManager() {
        SecurityConfiguration users = new SecurityConfiguration();
        users.addUser(settings.user(), settings.password());
        users.addRole(settings.user(), ROLE);
        return new ActiveMQJAASSecurityManager(InVMLoginModule.class.getName(), users);
    }

    private static Role allPermissions() {
        return new Role(ROLE, true, true, true, true, true, true, true, true, true, true, true, true);
    }

    private static void addAcceptor(ConfigurationImpl configuration, JmsTransportSettings.Embedded embedded,
            @Nullable BrokerTls tls) {
        try {
            configuration.addAcceptorConfiguration(ACCEPTOR,
                    "tcp://" + uriHost(embedded.host()) + ":" + embedded.port() + "?protocols=CORE");
            if (tls != null) {
                configuration.getAcceptorConfigurations().stream()
                        .filter((acceptor) -> ACCEPTOR.equals(acceptor.getName()))
                        .forEach((acceptor) -> acceptor.getParams().putAll(tls.acceptorParameters()));
            }
        }
        catch (Exception ex) {
            throw new IllegalStateException("Unable to configure the acceptor on " + embedded.host() + ":"
                    + embedded.port() + ": " + ex.getMessage(), ex);
        }
    }

    // A receiving node's outage must never lose messages, so nothing is dead-lettered: rolled-back
    // messages come back after a growing delay, for ever. Should a customizer allow dead-lettering, or
    // a foreign sender set a time-to-live, messages go to the invalid queue instead of vanishing.
    private AddressSettings addressSettings(String queue) {
        JmsTransportSettings.Embedded embedded = settings.embedded();
        AddressSettings addressSettings = new AddressSettings().setMaxDeliveryAttempts(-1)
                .setRedeliveryDelay(embedded.redeliveryDelay().toMillis())
                .setRedeliveryMultiplier(2.0)
                .setMaxRedeliveryDelay(embedded.maxRedeliveryDelay().toMillis())
                .setDefaultAddressRoutingType(RoutingType.ANYCAST)
                .setDefaultQueueRoutingType(RoutingType.ANYCAST);
        if (!queue.equals(settings.invalidQueue())) {
            SimpleString invalid = SimpleString.of(settings.invalidQueue());
            addressSettings.setDeadLetterAddress(invalid).setExpiryAddress(invalid);
        }
        return addressSettings;
    }

    // Address settings are set per queue, not by a wildcard, so they hold whatever prefix is configured.
    private void addQueue(ConfigurationImpl configuration, String name) {
        addQueue(configuration, name, addressSettings(name));
    }

    private void addQueue(ConfigurationImpl configuration, String name, AddressSettings addressSettings) {
        configuration.addAddressSetting(name, addressSettings);
        configuration.addAddressConfiguration(new CoreAddressConfiguration().setName(name)
                .addRoutingType(RoutingType.ANYCAST)
                .addQueueConfiguration(QueueConfiguration.of(name).setAddress(name)
                        .setRoutingType(RoutingType.ANYCAST)
                        .setDurable(true)));
    }

    private void addPeer(ConfigurationImpl configuration, NodeId id, JmsTransportSettings.Peer peer) {
        String queue = settings.queueName(id);
        // Only the bridge consumes a peer's queue. A bridge that loses its connection hands back the messages it had
        // in flight, and Artemis would hold them for the redelivery delay while those behind them cross: a FLASH
        // message overtaken by a ROUTINE burst. They go again at once, in order; the bridge's reconnect back-off
        // paces a peer that keeps failing.
        addQueue(configuration, queue, addressSettings(queue).setRedeliveryDelay(0));
        List<String> connectors = new ArrayList<>();
        boolean ha;
        try {
            List<TransportConfiguration> brokers = ConfigurationUtils.parseConnectorURI(connectorName(id), peer.url());
            // A peer that is a pair lists both brokers: the bridge follows the active one.
            ha = brokers.size() > 1;
            for (int i = 0; i < brokers.size(); i++) {
                TransportConfiguration broker = brokers.get(i);
                // What a client's URL says about failing over is the bridge's to decide, not the connector's.
                Map<String, Object> clientOptions = broker.getExtraParams();
                ha |= Boolean.parseBoolean(String.valueOf(clientOptions.remove("ha")));
                clientOptions.remove("reconnectAttempts");
                String name = (i == 0) ? connectorName(id) : connectorName(id) + "-" + (i + 1);
                TransportConfiguration connector = new TransportConfiguration(broker.getFactoryClassName(),
                        broker.getParams(), name, clientOptions);
                // A peer that was cut off must be noticed, and found again, in seconds: Netty's default connect
                // timeout lets each attempt during an outage hang in TCP SYN back-off. The URL may set its own.
                connector.getParams().putIfAbsent(TransportConstants.NETTY_CONNECT_TIMEOUT, PEER_CONNECT_TIMEOUT_MILLIS);
                if (settings.tls() != null) {
                    settings.tls().applyToConnector(connector);
                }
                configuration.addConnectorConfiguration(name, connector);
                connectors.add(name);
            }
        }
        catch (Exception ex) {
            throw new IllegalStateException("Unable to configure the connector to peer " + id + " at " + peer.url()
                    + ": " + ex.getMessage(), ex);
        }
        JmsTransportSettings.Bridge bridge = settings.bridge();
        configuration.addBridgeConfiguration(new BridgeConfiguration().setName(bridgeName(id))
                .setQueueName(queue)
                .setForwardingAddress(queue)
                .setRoutingType(ComponentConfigurationRoutingType.ANYCAST)
                .setStaticConnectors(connectors)
                .setUser(settings.userFor(peer))
                .setPassword(settings.passwordFor(peer))
                .setHA(ha)
                .setInitialConnectAttempts(-1)
                .setReconnectAttempts(-1)
                .setRetryInterval(bridge.retryInterval().toMillis())
                .setRetryIntervalMultiplier(bridge.retryIntervalMultiplier())
                .setMaxRetryInterval(bridge.maxRetryInterval().toMillis())
                .setUseDuplicateDetection(true)
                .setConfirmationWindowSize(bridge.confirmationWindowSize())
                // Artemis's defaults (30 s check, 60 s TTL) keep a bridge writing into a dead peer for a minute.
                .setClientFailureCheckPeriod(bridge.failureCheckPeriod().toMillis())
                .setConnectionTTL(bridge.connectionTtl().toMillis()));
    }

    /** Where a local client reaches the acceptor: a wildcard bind address is reached through loopback. */
    static String connectHost(String host) {
        return switch (host.strip()) {
            case "0.0.0.0", "" -> "127.0.0.1";
            case "::", "[::]", "::0" -> "[::1]";
            default -> uriHost(host.strip());
        };
    }

    private static String uriHost(String host) {
        return host.contains(":") && !host.startsWith("[") ? "[" + host + "]" : host;
    }
}
