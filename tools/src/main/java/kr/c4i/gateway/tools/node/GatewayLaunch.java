package kr.c4i.gateway.tools.node;

import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

import org.jspecify.annotations.Nullable;

/**
 * What one site's WAN gateway is started with: its site, the sites and subscriptions, its LAN side, its WAN link,
 * its database and management credentials, logging. As {@link NodeLaunch} for a node, it renders as a property map
 * (a gateway in this JVM), as {@code --key=value} arguments and as environment variables holding the secrets (every
 * {@code *.password} property), which never go on a command line.
 */
public final class GatewayLaunch {

    private final Map<String, String> properties;

    private GatewayLaunch(Map<String, String> properties) {
        this.properties = Collections.unmodifiableMap(new LinkedHashMap<>(properties));
    }

    /** @param site this gateway's site ({@code gateway.wan.site}) */
    public static Builder builder(String site) {
        return new Builder(site);
    }

    public String site() {
        return Objects.requireNonNull(properties.get("gateway.wan.site"));
    }

    /** Every property, secrets included, in the order given: for a gateway started in this JVM. */
    public Map<String, String> properties() {
        return properties;
    }

    /** The properties without the secrets, in order. */
    public Map<String, String> publicProperties() {
        Map<String, String> open = new LinkedHashMap<>(properties);
        open.keySet().removeIf(GatewayLaunch::isSecret);
        return Collections.unmodifiableMap(open);
    }

    /** The properties but the secrets as {@code --key=value}: a process's command line. */
    public List<String> arguments() {
        return publicProperties().entrySet().stream().map(e -> "--" + e.getKey() + "=" + e.getValue()).toList();
    }

    /**
     * The secrets as the environment variables Spring Boot binds them from ({@code gateway.wan.jms.password} as
     * {@code GATEWAY_WAN_JMS_PASSWORD}): a process's environment.
     */
    public Map<String, String> environment() {
        Map<String, String> environment = new LinkedHashMap<>();
        properties.forEach((key, value) -> {
            if (isSecret(key)) {
                environment.put(variable(key), value);
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
        return "GatewayLaunch" + publicProperties();
    }

    static boolean isSecret(String key) {
        return key.endsWith(".password");
    }

    /** Spring Boot's relaxed binding from the environment: dots become underscores, dashes go, upper case. */
    static String variable(String key) {
        return key.replace("-", "").replace('.', '_').toUpperCase(Locale.ROOT);
    }

    /** Collects a gateway's settings; each method sets the properties of one concern. */
    public static final class Builder {

        private final Map<String, String> p = new LinkedHashMap<>();

        private Builder(String site) {
            p.put("gateway.wan.site", site);
        }

        /** The nodes at {@code site} ({@code gateway.routing.sites}), this gateway's site and the others. */
        public Builder site(String site, List<String> nodes) {
            p.put("gateway.routing.sites." + site, String.join(",", nodes));
            return this;
        }

        /** Node {@code subscriber} receives these KMTF types ({@code *}: all), as in the nodes' routing table. */
        public Builder subscription(String subscriber, String types) {
            p.put("gateway.routing.subscriptions." + subscriber, types);
            return this;
        }

        /** The WAN link: {@code jms} or {@code dds}. */
        public Builder link(String link) {
            p.put("gateway.wan.link", link);
            return this;
        }

        /** The WAN budget the scheduler paces the link to. */
        public Builder budgetBitsPerSecond(long bitsPerSecond) {
            p.put("gateway.wan.schedule.budget-bits-per-second", Long.toString(bitsPerSecond));
            return this;
        }

        /** A JMS LAN: the gateway's embedded LAN broker and its credentials. */
        public Builder jmsLan(String user, String password, String host, int port, Path dataDirectory) {
            p.put("gateway.wan.lan.transport", "jms");
            p.put("gateway.wan.lan.jms.user", user);
            p.put("gateway.wan.lan.jms.password", password);
            p.put("gateway.wan.lan.jms.embedded.host", host);
            p.put("gateway.wan.lan.jms.embedded.port", Integer.toString(port));
            p.put("gateway.wan.lan.jms.embedded.data-directory", dataDirectory.toString());
            return this;
        }

        /** A node of this site, on a JMS LAN: its broker, which the gateway delivers to. */
        public Builder jmsLanNode(String node, String url) {
            p.put("gateway.wan.lan.jms.peers." + node + ".url", url);
            return this;
        }

        /** A DDS LAN: the site's domain, unicast discovery to these addresses when {@code multicast} is false. */
        public Builder ddsLan(int domain, boolean multicast, List<String> peers) {
            p.put("gateway.wan.lan.transport", "dds");
            p.put("gateway.wan.lan.dds.domain-id", Integer.toString(domain));
            p.put("gateway.wan.lan.dds.multicast", Boolean.toString(multicast));
            if (!peers.isEmpty()) {
                p.put("gateway.wan.lan.dds.peers", String.join(",", peers));
            }
            return this;
        }

        /** The {@code jms} link: this site's embedded WAN broker and its credentials. */
        public Builder jmsLink(String user, String password, String host, int port, Path dataDirectory) {
            p.put("gateway.wan.link", "jms");
            p.put("gateway.wan.jms.user", user);
            p.put("gateway.wan.jms.password", password);
            p.put("gateway.wan.jms.embedded.host", host);
            p.put("gateway.wan.jms.embedded.port", Integer.toString(port));
            p.put("gateway.wan.jms.embedded.data-directory", dataDirectory.toString());
            return this;
        }

        /** A peer site's gateway's WAN broker, on the {@code jms} link. */
        public Builder jmsLinkPeer(String site, String url) {
            p.put("gateway.wan.jms.peers." + site + ".url", url);
            return this;
        }

        /** The {@code dds} link: its WAN domain. */
        public Builder ddsLink(int domain) {
            p.put("gateway.wan.link", "dds");
            p.put("gateway.wan.dds.domain-id", Integer.toString(domain));
            return this;
        }

        /** A peer site's gateway's address, on the {@code dds} link. */
        public Builder ddsLinkPeer(String site, String address) {
            p.put("gateway.wan.dds.peers." + site, address);
            return this;
        }

        /** The gateway's own database (its store). */
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

        /** Any other gateway property (tuning), applied after, and over, the ones above. */
        public Builder property(String key, String value) {
            p.put(key, value);
            return this;
        }

        /** More gateway properties, as {@link #property}. */
        public Builder properties(Map<String, ?> more) {
            more.forEach((key, value) -> p.put(key, String.valueOf(value)));
            return this;
        }

        public GatewayLaunch build() {
            return new GatewayLaunch(p);
        }
    }
}
