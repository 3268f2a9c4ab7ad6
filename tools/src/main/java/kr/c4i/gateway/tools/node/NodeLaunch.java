package kr.c4i.gateway.tools.node;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

import org.jspecify.annotations.Nullable;

import kr.c4i.gateway.core.transport.TransportKind;
import kr.c4i.gateway.jms.PairRole;

/**
 * What one node is started with: its identity and roles, routing, transport settings, database and management
 * credentials, logging. It renders as a {@link Launch}: a property map (a bridge in this JVM), {@code --key=value}
 * arguments (a bridge as a process) and environment variables for its secrets, the passwords of its database, its
 * brokers and its management endpoints.
 */
public final class NodeLaunch extends Launch {

    /** The secret properties; each is read from the environment variable Spring Boot's relaxed binding names. */
    static final Set<String> SECRETS = Set.of("spring.datasource.password", "gateway.jms.password",
            "gateway.jms.embedded.pair.cluster-password", "spring.security.user.password",
            "gateway.reports.password");

    private NodeLaunch(Map<String, String> properties) {
        super(properties, SECRETS::contains);
    }

    /**
     * @param id the node id ({@code gateway.node.id})
     * @param transport {@code gateway.node.transport}
     */
    public static Builder builder(String id, TransportKind transport) {
        return new Builder(id, transport);
    }

    public String id() {
        return Objects.requireNonNull(properties().get("gateway.node.id"));
    }

    /** Collects a node's settings; each method sets the properties of one concern. */
    public static final class Builder extends Launch.Builder<NodeLaunch.Builder> {

        private Builder(String id, TransportKind transport) {
            set("gateway.node.id", id);
            set("gateway.node.transport", transport.label());
        }

        /** Whether the node publishes its outbox and delivers into its inbox. */
        public Builder roles(boolean outbox, boolean inbox) {
            set("gateway.outbox.enabled", Boolean.toString(outbox));
            return set("gateway.inbox.enabled", Boolean.toString(inbox));
        }

        /** Node {@code subscriber} receives these KMTF types ({@code *}: all). */
        public Builder subscription(String subscriber, String types) {
            return set("gateway.routing.subscriptions." + subscriber, types);
        }

        /** Node {@code node} may receive messages classified up to {@code level} (e.g. {@code CONFIDENTIAL}). */
        public Builder clearance(String node, String level) {
            return set("gateway.routing.clearances." + node, level);
        }

        /** The credentials of the brokers (the node's own embedded broker and its peers'). */
        public Builder jmsCredentials(String user, String password) {
            set("gateway.jms.user", user);
            return set("gateway.jms.password", password);
        }

        /** Broker connections in plain TCP, credentials and messages in clear: the explicit choice a node needs. */
        public Builder jmsPlainTcp() {
            return set("gateway.jms.tls.plain-tcp", "true");
        }

        /** Mutual TLS on every broker connection (docs/configuration.md, "Broker TLS"). */
        public Builder jmsTls(Path keyStore, Path passwordFile, Path trustStore) {
            set("gateway.jms.tls.key-store", keyStore.toString());
            set("gateway.jms.tls.key-store-password-file", passwordFile.toString());
            return set("gateway.jms.tls.trust-store", trustStore.toString());
        }

        /**
         * DDS Security from a site's PKI directory ({@code gateway pki --dds-domain}), with the participant's
         * certificate and key given (the node's own unless several nodes share one process: see
         * docs/dds-security.md).
         */
        public Builder ddsSecurity(Path directory, Path certificate, Path privateKey) {
            set("gateway.dds.security.directory", directory.toString());
            set("gateway.dds.security.identity-certificate", certificate.toString());
            return set("gateway.dds.security.private-key", privateKey.toString());
        }

        /** The node's own embedded Artemis broker. */
        public Builder embeddedBroker(String host, int port) {
            set("gateway.jms.embedded.host", host);
            return set("gateway.jms.embedded.port", Integer.toString(port));
        }

        /**
         * The embedded broker as one of the node's primary/backup pair (docs/configuration.md, "A node on two
         * machines over JMS").
         *
         * @param partner the other broker's acceptor as {@code host:port}
         * @param host where the partner, this node's clients and peers reach this broker; {@code null} for the
         *        broker's own address, which must then not be a wildcard
         */
        public Builder brokerPair(PairRole role, String partner, @Nullable String host) {
            set("gateway.jms.embedded.pair.role", role.label());
            set("gateway.jms.embedded.pair.partner", partner);
            return (host != null) ? set("gateway.jms.embedded.pair.host", host) : this;
        }

        /** Where the embedded broker keeps its journal. */
        public Builder brokerDataDirectory(Path directory) {
            return set("gateway.jms.embedded.data-directory", directory.toString());
        }

        /** A peer node's broker. */
        public Builder jmsPeer(String peer, String url) {
            return set("gateway.jms.peers." + peer + ".url", url);
        }

        /** How soon a store-and-forward bridge tries a peer that was away, at the longest (e.g. {@code 1s}). */
        public Builder bridgeMaxRetryInterval(String interval) {
            return set("gateway.jms.bridge-max-retry-interval", interval);
        }

        public Builder ddsDomain(int domain) {
            return set("gateway.dds.domain-id", Integer.toString(domain));
        }

        public Builder ddsNetworkInterface(String networkInterface) {
            return set("gateway.dds.network-interface", networkInterface);
        }

        public Builder ddsMulticastAddress(String address) {
            return set("gateway.dds.multicast-address", address);
        }

        /** Whether DDS discovery uses multicast ({@code false} on loopback, which has none). */
        public Builder ddsMulticast(boolean multicast) {
            return set("gateway.dds.multicast", Boolean.toString(multicast));
        }

        /** Unicast discovery addresses; none leaves the property unset. */
        public Builder ddsPeers(List<String> addresses) {
            if (!addresses.isEmpty()) {
                set("gateway.dds.peers", String.join(",", addresses));
            }
            return this;
        }

        /** When an unreceipted RELIABLE message is sent again, and the longest wait between resends. */
        public Builder resend(String after, String max) {
            set("gateway.outbox.resend-after", after);
            return set("gateway.outbox.resend-max", max);
        }

        /** Delivery reports from this site's WAN gateway, at its management address, with its credential. */
        public Builder deliveryReports(String gatewayUrl, String user, String password) {
            set("gateway.reports.gateway", gatewayUrl);
            set("gateway.reports.user", user);
            return set("gateway.reports.password", password);
        }

        /** Nothing on the console (a node in this JVM must not write over the tool's own output). */
        public Builder quietConsole() {
            return set("logging.threshold.console", "OFF");
        }

        /** DDS without DDS Security ({@code gateway.dds.security.plain}): the explicit choice such a node needs. */
        public Builder ddsPlain() {
            return set("gateway.dds.security.plain", "true");
        }

        /**
         * The node; a DDS node without DDS Security ({@code gateway.dds.security.plain}) unless a
         * {@code gateway.dds.security.*} property was set: a DDS node with neither does not start.
         */
        public NodeLaunch build() {
            if (!TransportKind.DDS.label().equals(settings().get("gateway.node.transport"))) {
                return new NodeLaunch(settings());
            }
            return new NodeLaunch(withDefaults(Map.of("gateway.dds.security.",
                    Map.entry("gateway.dds.security.plain", "true"))));
        }
    }
}
