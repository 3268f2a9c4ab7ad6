package kr.c4i.gateway.tools.node;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import org.jspecify.annotations.Nullable;

/**
 * What one site's WAN gateway is started with: its site, the sites and subscriptions, its LAN side, its WAN link,
 * its database and management credentials, logging. As {@link NodeLaunch} for a node, it renders as a {@link Launch}:
 * a property map (a gateway in this JVM), {@code --key=value} arguments and environment variables holding the secrets
 * (every {@code *.password} property), which never go on a command line.
 */
public final class GatewayLaunch extends Launch {

    /** The JMS LAN's settings: the gateway's LAN broker and the nodes it delivers to. */
    private static final String LAN_JMS = "gateway.wan.lan.jms.";
    /** The DDS LAN side's DDS Security. */
    private static final String LAN_DDS_SECURITY = "gateway.wan.lan.dds.security.";
    /** The {@code jms} link's settings: the site's WAN broker and the peer sites'. */
    private static final String LINK_JMS = "gateway.wan.jms.";

    private GatewayLaunch(Map<String, String> properties) {
        super(properties, GatewayLaunch::isSecret);
    }

    /** @param site this gateway's site ({@code gateway.wan.site}) */
    public static Builder builder(String site) {
        return new Builder(site);
    }

    public String site() {
        return Objects.requireNonNull(properties().get("gateway.wan.site"));
    }

    static boolean isSecret(String key) {
        return key.endsWith(".password");
    }

    /** Collects a gateway's settings; each method sets the properties of one concern. */
    public static final class Builder extends Launch.Builder<GatewayLaunch.Builder> {

        private Builder(String site) {
            set("gateway.wan.site", site);
        }

        /** The nodes at {@code site} ({@code gateway.routing.sites}), this gateway's site and the others. */
        public Builder site(String site, List<String> nodes) {
            return set("gateway.routing.sites." + site, String.join(",", nodes));
        }

        /** Node {@code subscriber} receives these KMTF types ({@code *}: all), as in the nodes' routing table. */
        public Builder subscription(String subscriber, String types) {
            return set("gateway.routing.subscriptions." + subscriber, types);
        }

        /** The WAN link: {@code jms} or {@code dds}. */
        public Builder link(String link) {
            return set("gateway.wan.link", link);
        }

        /** The WAN budget the scheduler paces the link to. */
        public Builder budgetBitsPerSecond(long bitsPerSecond) {
            return set("gateway.wan.schedule.budget-bits-per-second", Long.toString(bitsPerSecond));
        }

        /** A JMS LAN: the gateway's embedded LAN broker and its credentials. */
        public Builder jmsLan(String user, String password, String host, int port, Path dataDirectory) {
            set("gateway.wan.lan.transport", "jms");
            return jmsBroker(LAN_JMS, user, password, host, port, dataDirectory);
        }

        /** A node of this site, on a JMS LAN: its broker, which the gateway delivers to. */
        public Builder jmsLanNode(String node, String url) {
            return jmsPeer(LAN_JMS, node, url);
        }

        /** A DDS LAN: the site's domain, unicast discovery to these addresses when {@code multicast} is false. */
        public Builder ddsLan(int domain, boolean multicast, List<String> peers) {
            set("gateway.wan.lan.transport", "dds");
            set("gateway.wan.lan.dds.domain-id", Integer.toString(domain));
            set("gateway.wan.lan.dds.multicast", Boolean.toString(multicast));
            if (!peers.isEmpty()) {
                set("gateway.wan.lan.dds.peers", String.join(",", peers));
            }
            return this;
        }

        /** The DDS LAN's multicast group, when its nodes use one other than DDS's 239.255.0.1. */
        public Builder ddsLanMulticastAddress(String group) {
            return set("gateway.wan.lan.dds.multicast-address", group);
        }

        /**
         * DDS Security on the DDS LAN side from the site's PKI directory, as {@code gateway pki --dds-domain
         * --gateway} writes it: the gateway's identity is the directory's under its node id, and its grant names the
         * nodes at other sites it relays for. A gateway is a process of its own, so unlike a node's
         * ({@link NodeLaunch.Builder#ddsSecurity}) its certificate is never another's.
         */
        public Builder ddsLanSecurity(Path directory) {
            return set(LAN_DDS_SECURITY + "directory", directory.toString());
        }

        /** The {@code jms} link: this site's embedded WAN broker and its credentials. */
        public Builder jmsLink(String user, String password, String host, int port, Path dataDirectory) {
            set("gateway.wan.link", "jms");
            return jmsBroker(LINK_JMS, user, password, host, port, dataDirectory);
        }

        /** A peer site's gateway's WAN broker, on the {@code jms} link. */
        public Builder jmsLinkPeer(String site, String url) {
            return jmsPeer(LINK_JMS, site, url);
        }

        /** The {@code dds} link: its WAN domain. */
        public Builder ddsLink(int domain) {
            set("gateway.wan.link", "dds");
            return set("gateway.wan.dds.domain-id", Integer.toString(domain));
        }

        /** A peer site's gateway's address, on the {@code dds} link. */
        public Builder ddsLinkPeer(String site, String address) {
            return set("gateway.wan.dds.peers." + site, address);
        }

        /** The {@code norm} link: the address (every one when null) and UDP port this gateway receives on. */
        public Builder normLink(@Nullable String bindAddress, int port) {
            set("gateway.wan.link", "norm");
            if (bindAddress != null) {
                set("gateway.wan.norm.bind-address", bindAddress);
            }
            return set("gateway.wan.norm.port", Integer.toString(port));
        }

        /** A peer site's gateway as {@code host} or {@code host:port}, on the {@code norm} link. */
        public Builder normLinkPeer(String site, String address) {
            return set("gateway.wan.norm.peers." + site, address);
        }

        /**
         * WAN frames sealed per peer site (docs/wan-gateway.md, "Security"): this gateway's certificate and key, the
         * authorities its and the peers' certificates chain to, and each peer site's gateway certificate.
         */
        public Builder wanSecurity(Path certificate, Path privateKey, List<Path> trustedAuthorities,
                Map<String, Path> peers) {
            set("gateway.wan.security.certificate", certificate.toString());
            set("gateway.wan.security.private-key", privateKey.toString());
            set("gateway.wan.security.trusted-authorities",
                    String.join(",", trustedAuthorities.stream().map(Path::toString).toList()));
            peers.forEach((site, peer) -> set("gateway.wan.security.peers." + site, peer.toString()));
            return this;
        }

        // The JMS LAN and the jms link are set alike, each under its own prefix.
        /** The JMS LAN side's broker connections in plain TCP: the explicit choice such a gateway needs. */
        public Builder jmsLanPlainTcp() {
            return jmsPlainTcp(LAN_JMS);
        }

        /** The {@code jms} link's broker connections in plain TCP: the explicit choice such a gateway needs. */
        public Builder jmsLinkPlainTcp() {
            return jmsPlainTcp(LINK_JMS);
        }

        /** Mutual TLS on the JMS LAN side's broker connections (docs/wan-gateway.md, "Broker TLS"). */
        public Builder jmsLanTls(Path keyStore, Path passwordFile, Path trustStore) {
            return jmsTls(LAN_JMS, keyStore, passwordFile, trustStore);
        }

        /** Mutual TLS on the {@code jms} link's connections; the trust store holds the peer sites' authorities. */
        public Builder jmsLinkTls(Path keyStore, Path passwordFile, Path trustStore) {
            return jmsTls(LINK_JMS, keyStore, passwordFile, trustStore);
        }

        private Builder jmsPlainTcp(String prefix) {
            return set(prefix + "tls.plain-tcp", "true");
        }

        private Builder jmsTls(String prefix, Path keyStore, Path passwordFile, Path trustStore) {
            set(prefix + "tls.key-store", keyStore.toString());
            set(prefix + "tls.key-store-password-file", passwordFile.toString());
            return set(prefix + "tls.trust-store", trustStore.toString());
        }

        private Builder jmsBroker(String prefix, String user, String password, String host, int port,
                Path dataDirectory) {
            set(prefix + "user", user);
            set(prefix + "password", password);
            set(prefix + "embedded.host", host);
            set(prefix + "embedded.port", Integer.toString(port));
            return set(prefix + "embedded.data-directory", dataDirectory.toString());
        }

        private Builder jmsPeer(String prefix, String peer, String url) {
            return set(prefix + "peers." + peer + ".url", url);
        }

        /** The DDS LAN side without DDS Security ({@code gateway.wan.lan.dds.security.plain}). */
        public Builder ddsLanPlain() {
            return set(LAN_DDS_SECURITY + "plain", "true");
        }

        /**
         * The gateway, its WAN frames in clear ({@code gateway.wan.security.plain}) unless a
         * {@code gateway.wan.security.*} property was set, and a DDS LAN side without DDS Security
         * ({@code gateway.wan.lan.dds.security.plain}) unless one of those was: a gateway with neither does not start.
         */
        public GatewayLaunch build() {
            Map<String, Map.Entry<String, String>> defaults = new LinkedHashMap<>();
            if ("dds".equals(settings().get("gateway.wan.lan.transport"))) {
                defaults.put(LAN_DDS_SECURITY, Map.entry(LAN_DDS_SECURITY + "plain", "true"));
            }
            defaults.put("gateway.wan.security.", Map.entry("gateway.wan.security.plain", "true"));
            return new GatewayLaunch(withDefaults(defaults));
        }
    }
}
