package kr.c4i.gateway.scenarios.node;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import kr.c4i.gateway.pki.SiteDirectory;
import kr.c4i.gateway.pki.TlsStores;

import kr.c4i.gateway.scenarios.net.Topology;
import kr.c4i.gateway.scenarios.net.WanTopology;
import kr.c4i.gateway.tools.node.GatewayLaunch;
import kr.c4i.gateway.tools.node.Launch;
import kr.c4i.gateway.tools.node.NodeLaunch;

/**
 * Pure functions from the {@code wan} experiment's topology and link to its processes: per site, nodes on the
 * first hosts and a WAN gateway (the tools jar's {@code wan}) on the gateway host. Node ids run across the sites
 * ({@code n1, n2} at site {@code s1}, {@code n4, n5} at {@code s2}) so one routing table serves both. A node reaches
 * a remote node exactly as a local one: over JMS its store-and-forward route to a remote node ends at its site
 * gateway's LAN broker; over DDS the gateway subscribes on the site's domain to what the other site subscribes to.
 *
 * <p>Given each site's PKI, JMS nodes and the gateways' brokers use mutual TLS, DDS nodes and the gateway's DDS LAN
 * side join their site's domain under DDS Security (each its own identity, the gateway's grant naming the other
 * site's nodes), and the gateways seal their WAN frames.
 */
public final class WanDeploymentPlan {

    /** The gateways' WAN broker port (the {@code jms} link); their LAN broker uses the nodes' port. */
    public static final int WAN_JMS_PORT = 61716;
    /** The gateways' UDP port on the {@code norm} link (the link's default). */
    public static final int WAN_NORM_PORT = 6010;

    private WanDeploymentPlan() {
    }

    /**
     * A node of the experiment.
     *
     * @param site 1 or 2
     * @param spec its id, its host in the site's topology, its launch
     */
    public record SiteNode(int site, NodeSpec spec) {
    }

    /**
     * A site's WAN gateway.
     *
     * @param site 1 or 2
     * @param launch its properties, secrets apart
     */
    public record Gateway(int site, GatewayLaunch launch) {

        /** The site id ({@code s1}, {@code s2}). */
        public String id() {
            return launch.site();
        }
    }

    public static String siteId(int site) {
        return "s" + site;
    }

    /** A site's gateway's identity in the site's PKI: {@code gw-s<site>}. */
    public static String gatewayId(int site) {
        return "gw-" + siteId(site);
    }

    /** The id of the node on a site's host: {@code n<global host>}, the sites' hosts numbered one after the other. */
    public static String nodeId(int site, int host) {
        return NodeSpec.idOf((site - 1) * WanTopology.SITE_HOSTS + host);
    }

    /** The DDS domain of a site's LAN (each site its own), and of the WAN ({@code site 0}). */
    public static int ddsDomain(NodeSettings settings, int site) {
        return settings.ddsDomain() + (site == 0 ? 2 : site - 1);
    }

    /**
     * The nodes of both sites: hosts {@code 1..nodesPerSite} of each.
     *
     * @param subscriptions node id to the KMTF types it receives (every node gets the same table)
     * @param pki site (1, 2) to its PKI, with an identity per node (and on a DDS LAN the site's DDS Security set);
     *        empty runs every process plain
     */
    public static List<SiteNode> nodes(WanTopology t, WanLinkKind link, int nodesPerSite,
            Map<String, List<String>> subscriptions, NodeSettings settings, Map<Integer, SitePki> pki) {
        if (nodesPerSite < 1 || nodesPerSite >= WanTopology.SITE_HOSTS) {
            throw new IllegalArgumentException("nodes per site must be between 1 and " + (WanTopology.SITE_HOSTS - 1)
                    + ", was " + nodesPerSite);
        }
        List<SiteNode> nodes = new ArrayList<>();
        for (int site = 1; site <= 2; site++) {
            Topology lan = t.site(site);
            for (int host = 1; host <= nodesPerSite; host++) {
                String id = nodeId(site, host);
                NodeLaunch.Builder launch = NodeLaunch.builder(id, link.lanTransport());
                subscriptions.forEach((subscriber, types) -> launch.subscription(subscriber, String.join(",", types)));
                switch (link.lanTransport()) {
                    case JMS -> {
                        launch.jmsCredentials(NodeSettings.JMS_USER, NodeSettings.JMS_PASSWORD)
                                .embeddedBroker(lan.hostAddress(host), NodeSettings.JMS_PORT)
                                .bridgeMaxRetryInterval(settings.jmsRetryInterval());
                        DeploymentPlan.jmsSecurity(launch, pki.get(site), id);
                        for (int other = 1; other <= 2; other++) {
                            for (int peer = 1; peer <= nodesPerSite; peer++) {
                                if (other == site && peer == host) {
                                    continue;
                                }
                                // A remote node's route ends at this site's gateway.
                                String address = other == site ? lan.hostAddress(peer) : t.gatewayLanAddress(site);
                                launch.jmsPeer(nodeId(other, peer), "tcp://" + address + ":" + NodeSettings.JMS_PORT);
                            }
                        }
                    }
                    case DDS -> {
                        // As shipped: the site's nodes and gateway find each other by multicast, no unicast peers.
                        launch.ddsDomain(ddsDomain(settings, site)).ddsNetworkInterface(lan.hostInterface())
                                .ddsMulticastAddress(settings.multicastAddress());
                        @Nullable SitePki own = pki.get(site);
                        if (own == null) {
                            launch.ddsPlain();
                        }
                        else {
                            SiteDirectory.HolderFiles identity = own.holder(id);
                            launch.ddsSecurity(own.directory(), identity.certificate(), identity.privateKey());
                        }
                    }
                }
                launch.properties(settings.extraProperties());
                nodes.add(new SiteNode(site, new NodeSpec(id, host, lan.hostAddress(host), link.lanTransport(),
                        launch.build())));
            }
        }
        return nodes;
    }

    /**
     * A site's gateway.
     *
     * @param budgetBitsPerSecond {@code gateway.wan.schedule.budget-bits-per-second}
     * @param workDir the {@code wan} command's work dir; the gateway keeps its database and journals under
     *        {@code <workDir>/<site>-gw}
     * @param pki site (1, 2) to its PKI, with an identity per gateway ({@link #gatewayId}) and on a DDS LAN the
     *        site's DDS Security set with the gateway's grant; empty runs it plain
     * @param extraProperties more gateway properties (tuning), applied last
     */
    public static Gateway gateway(WanTopology t, int site, WanLinkKind link, int nodesPerSite,
            Map<String, List<String>> subscriptions, long budgetBitsPerSecond, NodeSettings settings, Path workDir,
            Map<Integer, SitePki> pki, Map<String, String> extraProperties) {
        int peer = 3 - site;
        String id = siteId(site);
        @Nullable SitePki own = pki.get(site);
        @Nullable SitePki other = pki.get(peer);
        if ((own == null) != (other == null)) {
            throw new IllegalArgumentException("both sites or neither need a PKI, was given " + pki.keySet());
        }
        @Nullable TlsStores tls = own == null ? null : own.holder(gatewayId(site)).tls();
        Path home = workDir.resolve(id + "-gw");
        GatewayLaunch.Builder launch = GatewayLaunch.builder(id);
        for (int s = 1; s <= 2; s++) {
            List<String> ids = new ArrayList<>();
            for (int host = 1; host <= nodesPerSite; host++) {
                ids.add(nodeId(s, host));
            }
            launch.site(siteId(s), ids);
        }
        subscriptions.forEach((node, types) -> launch.subscription(node, String.join(",", types)));
        launch.budgetBitsPerSecond(budgetBitsPerSecond);
        Topology lan = t.site(site);
        switch (link.lanTransport()) {
            case JMS -> {
                launch.jmsLan(NodeSettings.JMS_USER, NodeSettings.JMS_PASSWORD, t.gatewayLanAddress(site),
                        NodeSettings.JMS_PORT, home.resolve("artemis-lan"));
                launch.property("gateway.wan.lan.jms.bridge-max-retry-interval", settings.jmsRetryInterval());
                if (tls == null) {
                    launch.jmsLanPlainTcp();
                }
                else {
                    launch.jmsLanTls(tls.keyStore(), tls.passwordFile(), tls.trustStore());
                }
                for (int host = 1; host <= nodesPerSite; host++) {
                    launch.jmsLanNode(nodeId(site, host),
                            "tcp://" + lan.hostAddress(host) + ":" + NodeSettings.JMS_PORT);
                }
            }
            case DDS -> {
                // On the nodes' multicast group, which finds them as they find each other.
                launch.ddsLan(ddsDomain(settings, site), true, List.of())
                        .ddsLanMulticastAddress(settings.multicastAddress());
                launch.property("gateway.wan.lan.dds.network-interface", lan.hostInterface());
                if (own == null) {
                    launch.ddsLanPlain();
                }
                else {
                    // Its identity is the directory's under its node id, gw-<site>: gatewayId.
                    launch.ddsLanSecurity(own.directory());
                }
            }
        }
        switch (link) {
            case JMS -> {
                launch.jmsLink(NodeSettings.JMS_USER, NodeSettings.JMS_PASSWORD, t.gatewayWanAddress(site),
                        WAN_JMS_PORT, home.resolve("artemis-wan"));
                launch.jmsLinkPeer(siteId(peer), "tcp://" + t.gatewayWanAddress(peer) + ":" + WAN_JMS_PORT);
                if (tls == null) {
                    launch.jmsLinkPlainTcp();
                }
                else {
                    // The gateway's trust store holds the peer site's authority too.
                    launch.jmsLinkTls(tls.keyStore(), tls.passwordFile(), tls.trustStore());
                }
            }
            case DDS -> {
                launch.ddsLink(ddsDomain(settings, 0));
                launch.property("gateway.wan.dds.network-interface", WanTopology.WAN_INTERFACE);
                launch.ddsLinkPeer(siteId(peer), t.gatewayWanAddress(peer));
            }
            // Bound to the WAN address, so NORM's unicast never leaves by a LAN; its rate is the budget above.
            case NORM -> {
                launch.normLink(t.gatewayWanAddress(site), WAN_NORM_PORT);
                launch.normLinkPeer(siteId(peer), t.gatewayWanAddress(peer) + ":" + WAN_NORM_PORT);
            }
        }
        if (own != null && other != null) {
            SiteDirectory.HolderFiles identity = own.holder(gatewayId(site));
            launch.wanSecurity(identity.certificate(), identity.privateKey(),
                    List.of(own.authorityCertificate(), other.authorityCertificate()),
                    Map.of(siteId(peer), other.holder(gatewayId(peer)).certificate()));
        }
        launch.properties(extraProperties);
        return new Gateway(site, launch.build());
    }

    /**
     * Where the {@code wan} command keeps the password it made for a gateway's management endpoints (a new one each
     * start): {@code <workDir>/<site>-gw/management-password}. They listen at {@code 127.0.0.1:}{@value
     * NodeSettings#HTTP_PORT} in the gateway's host.
     */
    public static Path managementPasswordFile(Path workDir, int site) {
        return workDir.resolve(siteId(site) + "-gw").resolve(Launch.MANAGEMENT_PASSWORD_FILE);
    }

    /** The gateway property that sends its frames uncompressed, to measure the link's own efficiency. */
    public static final Map<String, String> UNCOMPRESSED_FRAMES = Map.of("gateway.wan.compress-frames", "false");

    /**
     * The command that runs a gateway in its site's gateway host: the tools jar's {@code wan}, with its own embedded
     * PostgreSQL (the relay store).
     */
    public static List<String> gatewayCommand(WanTopology t, Gateway gateway, NodeSettings settings, Path workDir,
            Path socketDir) {
        List<String> argv = new ArrayList<>(List.of("ip", "netns", "exec", t.gatewayNamespace(gateway.site()),
                settings.java().toString(), "--sun-misc-unsafe-memory-access=allow",
                "--enable-native-access=ALL-UNNAMED", "-Xmx" + settings.heap(), "-jar", settings.jar().toString(),
                "wan", "--site", gateway.id(), "--work-dir", workDir.toString(), "--http-port",
                Integer.toString(NodeSettings.HTTP_PORT), "--pg-socket-dir", socketDir.toString(), "--"));
        argv.addAll(gateway.launch().arguments());
        return argv;
    }

    /** The command that runs a node in its site's host, as {@link DeploymentPlan#command}. */
    public static List<String> nodeCommand(WanTopology t, SiteNode node, NodeSettings settings, Path workDir,
            Path socketDir) {
        return DeploymentPlan.command(t.site(node.site()), node.spec(), settings, workDir, socketDir);
    }
}
