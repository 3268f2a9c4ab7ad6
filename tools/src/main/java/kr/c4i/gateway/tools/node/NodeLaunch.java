package kr.c4i.gateway.tools.node;

import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import org.jspecify.annotations.Nullable;

import kr.c4i.gateway.core.transport.TransportKind;

/**
 * What one node is started with: its identity and roles, routing, transport settings, database and management
 * credentials, logging. It renders as a property map (a bridge in this JVM), as {@code --key=value} arguments (a
 * bridge as a process) and as environment variables for the secrets, which never go on a command line that every
 * local user can read with {@code ps}.
 */
public final class NodeLaunch {

    /** Secret properties and the environment variable Spring Boot's relaxed binding reads each from. */
    static final Map<String, String> SECRETS = Map.of(
            "spring.datasource.password", "SPRING_DATASOURCE_PASSWORD",
            "gateway.jms.password", "GATEWAY_JMS_PASSWORD",
            "spring.security.user.password", "SPRING_SECURITY_USER_PASSWORD");

    private final Map<String, String> properties;

    private NodeLaunch(Map<String, String> properties) {
        this.properties = Collections.unmodifiableMap(new LinkedHashMap<>(properties));
    }

    /**
     * @param id the node id ({@code gateway.node.id})
     * @param transport {@code gateway.node.transport}
     */
    public static Builder builder(String id, TransportKind transport) {
        return new Builder(id, transport);
    }

    public String id() {
        return Objects.requireNonNull(properties.get("gateway.node.id"));
    }

    /** Every property, secrets included, in the order given: for a bridge started in this JVM. */
    public Map<String, String> properties() {
        return properties;
    }

    /** The properties without the secrets, in order. */
    public Map<String, String> publicProperties() {
        Map<String, String> open = new LinkedHashMap<>(properties);
        open.keySet().removeAll(SECRETS.keySet());
        return Collections.unmodifiableMap(open);
    }

    /** The properties but the secrets as {@code --key=value}: a process's command line. */
    public List<String> arguments() {
        return publicProperties().entrySet().stream().map(e -> "--" + e.getKey() + "=" + e.getValue()).toList();
    }

    /** The secrets as the environment variables Spring Boot binds them from: a process's environment. */
    public Map<String, String> environment() {
        Map<String, String> environment = new LinkedHashMap<>();
        properties.forEach((key, value) -> {
            String variable = SECRETS.get(key);
            if (variable != null) {
                environment.put(variable, value);
            }
        });
        return Collections.unmodifiableMap(environment);
    }

    /** The management endpoints' password, if one was given. */
    public @Nullable String managementPassword() {
        return properties.get("spring.security.user.password");
    }

    @Override
    public String toString() {
        return "NodeLaunch" + publicProperties();
    }

    /** Collects a node's settings; each method sets the properties of one concern. */
    public static final class Builder {

        private final Map<String, String> p = new LinkedHashMap<>();

        private Builder(String id, TransportKind transport) {
            p.put("gateway.node.id", id);
            p.put("gateway.node.transport", transport.label());
        }

        /** Whether the node publishes its outbox and delivers into its inbox. */
        public Builder roles(boolean outbox, boolean inbox) {
            p.put("gateway.outbox.enabled", Boolean.toString(outbox));
            p.put("gateway.inbox.enabled", Boolean.toString(inbox));
            return this;
        }

        /** Node {@code subscriber} receives these KMTF types ({@code *}: all). */
        public Builder subscription(String subscriber, String types) {
            p.put("gateway.routing.subscriptions." + subscriber, types);
            return this;
        }

        /** The credentials of the brokers (the node's own embedded broker and its peers'). */
        public Builder jmsCredentials(String user, String password) {
            p.put("gateway.jms.user", user);
            p.put("gateway.jms.password", password);
            return this;
        }

        /** The node's own embedded Artemis broker. */
        public Builder embeddedBroker(String host, int port) {
            p.put("gateway.jms.embedded.host", host);
            p.put("gateway.jms.embedded.port", Integer.toString(port));
            return this;
        }

        /** Where the embedded broker keeps its journal. */
        public Builder brokerDataDirectory(Path directory) {
            p.put("gateway.jms.embedded.data-directory", directory.toString());
            return this;
        }

        /** A peer node's broker. */
        public Builder jmsPeer(String peer, String url) {
            p.put("gateway.jms.peers." + peer + ".url", url);
            return this;
        }

        /** How soon a store-and-forward bridge tries a peer that was away, at the longest (e.g. {@code 1s}). */
        public Builder bridgeMaxRetryInterval(String interval) {
            p.put("gateway.jms.bridge-max-retry-interval", interval);
            return this;
        }

        public Builder ddsDomain(int domain) {
            p.put("gateway.dds.domain-id", Integer.toString(domain));
            return this;
        }

        public Builder ddsNetworkInterface(String networkInterface) {
            p.put("gateway.dds.network-interface", networkInterface);
            return this;
        }

        public Builder ddsMulticastAddress(String address) {
            p.put("gateway.dds.multicast-address", address);
            return this;
        }

        /** Whether DDS discovery uses multicast ({@code false} on loopback, which has none). */
        public Builder ddsMulticast(boolean multicast) {
            p.put("gateway.dds.multicast", Boolean.toString(multicast));
            return this;
        }

        /** Unicast discovery addresses; none leaves the property unset. */
        public Builder ddsPeers(List<String> addresses) {
            if (!addresses.isEmpty()) {
                p.put("gateway.dds.peers", String.join(",", addresses));
            }
            return this;
        }

        /** When an unreceipted RELIABLE message is sent again, and the longest wait between resends. */
        public Builder resend(String after, String max) {
            p.put("gateway.outbox.resend-after", after);
            p.put("gateway.outbox.resend-max", max);
            return this;
        }

        /** The interface database. */
        public Builder datasource(String url, String user, String password) {
            p.put("spring.datasource.url", url);
            p.put("spring.datasource.username", user);
            p.put("spring.datasource.password", password);
            return this;
        }

        /** The management endpoints' port. */
        public Builder managementPort(int port) {
            p.put("management.server.port", Integer.toString(port));
            return this;
        }

        /** The management endpoints' password (user {@code user}). */
        public Builder managementPassword(String password) {
            p.put("spring.security.user.password", password);
            return this;
        }

        /** Logs to this file; no banner. */
        public Builder logFile(Path file) {
            p.put("spring.main.banner-mode", "off");
            p.put("logging.file.name", file.toString());
            return this;
        }

        /** Nothing on the console (a node in this JVM must not write over the tool's own output). */
        public Builder quietConsole() {
            p.put("logging.threshold.console", "OFF");
            return this;
        }

        /** Any other bridge property (tuning), applied after, and over, the ones above. */
        public Builder property(String key, String value) {
            p.put(key, value);
            return this;
        }

        /** More bridge properties, as {@link #property}. */
        public Builder properties(Map<String, ?> more) {
            more.forEach((key, value) -> p.put(key, String.valueOf(value)));
            return this;
        }

        public NodeLaunch build() {
            return new NodeLaunch(p);
        }
    }
}
