package kr.c4i.gateway.e2e;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.jspecify.annotations.Nullable;
import picocli.CommandLine;

import kr.c4i.gateway.core.NodeId;
import kr.c4i.gateway.core.routing.RoutingTable;
import kr.c4i.gateway.core.transport.TransportKind;
import kr.c4i.gateway.dds.ParticipantSettings;
import kr.c4i.gateway.dds.security.DdsSecurityFiles;
import kr.c4i.gateway.dds.security.NodeGrant;
import kr.c4i.gateway.dds.transport.DdsTransportSettings;
import kr.c4i.gateway.interfacedb.InterfaceDatabaseClient;
import kr.c4i.gateway.kmtf.catalogue.KmtfCatalogue;
import kr.c4i.gateway.pki.SiteAuthority;
import kr.c4i.gateway.ports.LoopbackPorts;
import kr.c4i.gateway.tools.ExitCode;
import kr.c4i.gateway.tools.embedded.EmbeddedDatabase;
import kr.c4i.gateway.tools.node.GatewayLaunch;
import kr.c4i.gateway.tools.node.Launch;
import kr.c4i.gateway.tools.node.NodeLaunch;
import kr.c4i.gateway.tools.trace.TraceCommand;

/**
 * Sites joined by their WAN gateways, all on this machine: each node a bridge process with its own PostgreSQL, each
 * site's gateway a wan-gateway process (the executable jar users deploy) with its own PostgreSQL. The test JVM runs
 * every database, so a test can kill -9 a bridge or a gateway and find its data as a real server would keep them.
 * <p>
 * {@link Variant#JMS}: the site LANs are the nodes' brokers plus the gateway's LAN broker, and the gateways talk over
 * the {@code jms} link, each peer's WAN broker reached through a {@link TcpProxy} the test can cut. {@link Variant#DDS}:
 * each site its own DDS domain, and the gateways on a WAN domain of their own over the {@code dds} link, unicast to
 * 127.0.0.1 (loopback has no multicast). {@link Variant#NORM}: DDS LANs as for {@code DDS}, and the gateways over the
 * {@code norm} link, each receiving on a UDP port of its own on 127.0.0.1 and sending to the others' (loopback has no
 * loss and no cut: the jms variant's proxy stands for the outage). The DDS LANs run DDS Security, each site with its
 * own authority: every node and the gateway under an identity of their own, the gateway's grant naming the nodes at
 * the other sites it relays for.
 */
final class WanCluster implements AutoCloseable {

    /** The sites' LAN transport and the WAN link between their gateways. */
    enum Variant {
        JMS, DDS, NORM;

        TransportKind transport() {
            return this == JMS ? TransportKind.JMS : TransportKind.DDS;
        }

        String link() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    // Five or six JVMs starting at once on a shared machine: minutes, not seconds, when it is busy.
    static final Duration STARTUP = Duration.ofMinutes(5);
    static final String LAN_USER = "gateway";
    static final String WAN_USER = "wan";
    private static final Duration PKI_VALIDITY = Duration.ofDays(1);

    /** Database and process are cells: a restart replaces them. */
    record Node(String id, String site, int pgPort, NodeDatabase[] database, int httpPort, int brokerPort,
            NodeProcess[] process) {
    }

    record Gateway(String site, Path home, int siteDomain, DatabaseCell database, int httpPort, int lanPort,
            int wanPort, TcpProxy[] proxy, NodeProcess[] process) {
    }

    /** The second gateway of a site's pair: over JMS its LAN and WAN brokers, the first's backups, on ports of their own. */
    record Standby(int lanPort, int wanPort) {
    }

    private final Path dir;
    private final Variant variant;
    private final Map<String, List<String>> sites;
    private final Map<String, String> gatewayProperties;
    private final Map<String, Node> nodes = new LinkedHashMap<>();
    private final Map<String, Gateway> gateways = new LinkedHashMap<>();
    private final List<NodeProcess> standbys = new ArrayList<>();
    private final Map<String, Standby> pairs = new LinkedHashMap<>();
    private final int wanDomain;
    private final String managementPassword = HexFormat.of().formatHex(new SecureRandom().generateSeed(12));
    private final String lanPassword = HexFormat.of().formatHex(new SecureRandom().generateSeed(12));
    private final String wanPassword = HexFormat.of().formatHex(new SecureRandom().generateSeed(12));

    /**
     * @param sites site id to its nodes, e.g. {@code s1 -> [a, b]}; every node subscribes to every type
     * @param gatewayProperties more properties for every gateway (over the cluster's)
     */
    WanCluster(Path dir, Variant variant, Map<String, List<String>> sites, Map<String, String> gatewayProperties)
            throws IOException {
        this.dir = dir;
        this.variant = variant;
        this.sites = sites;
        this.gatewayProperties = gatewayProperties;
        // One DDS domain per site and one for the WAN.
        int base = TestDomains.take(sites.size() + 1);
        wanDomain = base + sites.size();
        int index = 0;
        for (Map.Entry<String, List<String>> site : sites.entrySet()) {
            for (String id : site.getValue()) {
                Node node = new Node(id, site.getKey(), LoopbackPorts.freeTcp(), new NodeDatabase[1],
                        LoopbackPorts.freeTcp(), LoopbackPorts.freeTcp(), new NodeProcess[1]);
                startDatabase(node);
                nodes.put(id, node);
            }
            Path home = dir.resolve(site.getKey() + "-gw");
            DatabaseCell database = DatabaseCell.start(home.resolve("postgres"), home.resolve("postgres.password"),
                    LoopbackPorts.freeTcp());
            gateways.put(site.getKey(), new Gateway(site.getKey(), home, base + index++, database,
                    LoopbackPorts.freeTcp(), LoopbackPorts.freeTcp(),
                    variant == Variant.NORM ? LoopbackPorts.freeUdp() : LoopbackPorts.freeTcp(), new TcpProxy[1],
                    new NodeProcess[1]));
        }
        if (variant == Variant.JMS) {
            for (Gateway gateway : gateways.values()) {
                gateway.proxy()[0] = new TcpProxy(LoopbackPorts.freeTcp(), gateway.wanPort());
            }
        }
        else {
            gateways.keySet().forEach(this::writeDdsSecurity);
        }
    }

    /**
     * Site {@code site}'s PKI with its DDS Security set, as {@code gateway pki --dds-domain --subscribe ... --gateway
     * gw-<site> --remote ...} writes it: each node of the site granted as itself, the gateway as itself and every
     * node at the other sites.
     */
    private void writeDdsSecurity(String site) {
        KmtfCatalogue catalogue = KmtfCatalogue.loadDefault();
        Map<NodeId, List<String>> everything = new LinkedHashMap<>();
        nodes.keySet().forEach(id -> everything.put(NodeId.of(id), List.of(RoutingTable.ALL)));
        RoutingTable routing = RoutingTable.of(everything, catalogue);
        List<NodeGrant> grants = new ArrayList<>(NodeGrant.forNodes(
                sites.get(site).stream().map(NodeId::of).toList(), routing, catalogue));
        grants.add(NodeGrant.forGateway(gatewayNodeId(site), nodes.values().stream()
                .filter(node -> !node.site().equals(site)).map(node -> NodeId.of(node.id())).toList(), routing,
                catalogue));
        DdsSecurityFiles.write(ddsSecurity(site), SiteAuthority.create(site, PKI_VALIDITY),
                gateways.get(site).siteDomain(), DdsTransportSettings.DEFAULT_RECEIPTS_TOPIC, grants, PKI_VALIDITY);
    }

    /** Site {@code site}'s PKI directory, with its DDS Security set on DDS LANs. */
    Path ddsSecurity(String site) {
        return dir.resolve("pki").resolve(site);
    }

    /** A site's gateway's node id on its LAN: the gateway's default, {@code gw-<site>}. */
    static NodeId gatewayNodeId(String site) {
        return NodeId.of("gw-" + site);
    }

    private void startDatabase(Node node) throws IOException {
        Path data = dir.resolve(node.id() + "-pg");
        node.database()[0] = NodeDatabase.start(data, data.resolveSibling(node.id() + "-pg.password"), node.pgPort());
    }

    /** Starts every gateway and every node, and waits until each answers. */
    void startAll() throws IOException {
        for (String site : sites.keySet()) {
            startGateway(site);
        }
        for (String id : nodes.keySet()) {
            startNode(id);
        }
        for (Gateway gateway : gateways.values()) {
            gateway.process()[0].awaitAnswering(STARTUP);
        }
        for (Node node : nodes.values()) {
            node.process()[0].awaitUp(STARTUP);
        }
    }

    /** Node {@code id}'s launch: its local peers at their brokers, every remote node at its site gateway's broker. */
    NodeLaunch nodeLaunch(String id) {
        Node node = nodes.get(id);
        Gateway gateway = gateways.get(node.site());
        NodeLaunch.Builder launch = NodeLaunch.builder(id, variant.transport()).roles(true, true)
                .datasource(node.database()[0].jdbcUrl(), EmbeddedDatabase.USER, node.database()[0].password());
        for (Node other : nodes.values()) {
            launch.subscription(other.id(), "*");
            if (!other.id().equals(id)) {
                launch.jmsPeer(other.id(), other.site().equals(node.site()) ? "tcp://127.0.0.1:" + other.brokerPort()
                        : brokers(gateway.lanPort(), pairs.containsKey(node.site())
                                ? pairs.get(node.site()).lanPort() : null, "?ha=true"));
            }
        }
        if (variant != Variant.JMS) {
            ParticipantSettings.Security own = DdsSecurityFiles.security(ddsSecurity(node.site()), NodeId.of(id));
            launch.ddsSecurity(ddsSecurity(node.site()), own.identityCertificate(), own.privateKey());
        }
        return launch.jmsCredentials(LAN_USER, lanPassword).managementPassword(managementPassword)
                .deliveryReports("http://127.0.0.1:" + gateway.httpPort(), Launch.DEFAULT_MANAGEMENT_USER,
                        managementPassword)
                .embeddedBroker("127.0.0.1", node.brokerPort()).brokerDataDirectory(dir.resolve("artemis"))
                .jmsPlainTcp()
                .bridgeMaxRetryInterval("1s").ddsDomain(gateway.siteDomain()).ddsMulticast(false)
                .ddsPeers(List.of("127.0.0.1")).resend("2s", "4s").managementPort(node.httpPort()).build();
    }

    /** Site {@code site}'s gateway's launch: every site and subscription, its LAN, its link to every other site. */
    GatewayLaunch gatewayLaunch(String site) {
        return gatewayLaunch(site, gateways.get(site).httpPort(), false);
    }

    /**
     * {@link #gatewayLaunch(String)} with its management endpoints on {@code httpPort}; over JMS the second gateway
     * of a pair ({@code standby}) has brokers of its own, each the backup of the first gateway's.
     */
    private GatewayLaunch gatewayLaunch(String site, int httpPort, boolean standby) {
        Gateway gateway = gateways.get(site);
        GatewayLaunch.Builder launch = GatewayLaunch.builder(site);
        sites.forEach(launch::site);
        nodes.keySet().forEach(id -> launch.subscription(id, "*"));
        if (variant == Variant.JMS) {
            Standby pair = pairs.get(site);
            int lanPort = standby ? pair.lanPort() : gateway.lanPort();
            int wanPort = standby ? pair.wanPort() : gateway.wanPort();
            Path brokerHome = standby ? gateway.home().resolve("standby") : gateway.home();
            launch.jmsLan(LAN_USER, lanPassword, "127.0.0.1", lanPort, brokerHome.resolve("artemis-lan"));
            sites.get(site).forEach(id -> launch.jmsLanNode(id, "tcp://127.0.0.1:" + nodes.get(id).brokerPort()));
            launch.jmsLink(WAN_USER, wanPassword, "127.0.0.1", wanPort, brokerHome.resolve("artemis-wan"));
            gateways.values().stream().filter(other -> !other.site().equals(site))
                    .forEach(other -> launch.jmsLinkPeer(other.site(), linkPeer(other)));
            if (pair != null) {
                String role = standby ? "backup" : "primary";
                launch.property("gateway.wan.lan.jms.embedded.pair.role", role)
                        .property("gateway.wan.lan.jms.embedded.pair.partner", "127.0.0.1:"
                                + (standby ? gateway.lanPort() : pair.lanPort()))
                        .property("gateway.wan.jms.embedded.pair.role", role)
                        .property("gateway.wan.jms.embedded.pair.partner", "127.0.0.1:"
                                + (standby ? gateway.wanPort() : pair.wanPort()));
            }
            launch.property("gateway.wan.jms.max-reconnect-backoff", "2s");
            launch.jmsLanPlainTcp().jmsLinkPlainTcp();
        }
        else if (variant == Variant.DDS) {
            launch.ddsLan(gateway.siteDomain(), false, List.of("127.0.0.1")).ddsLanSecurity(ddsSecurity(site))
                    .ddsLink(wanDomain);
            gateways.keySet().stream().filter(other -> !other.equals(site))
                    .forEach(other -> launch.ddsLinkPeer(other, "127.0.0.1"));
        }
        else {
            launch.ddsLan(gateway.siteDomain(), false, List.of("127.0.0.1")).ddsLanSecurity(ddsSecurity(site))
                    .normLink("127.0.0.1", gateway.wanPort());
            gateways.values().stream().filter(other -> !other.site().equals(site))
                    .forEach(other -> launch.normLinkPeer(other.site(), "127.0.0.1:" + other.wanPort()));
        }
        return launch.budgetBitsPerSecond(256_000)
                .datasource(gateway.database().jdbcUrl(), EmbeddedDatabase.USER,
                        gateway.database().database().password())
                .managementPort(httpPort).managementPassword(managementPassword)
                .properties(gatewayProperties).build();
    }

    NodeProcess startNode(String id) throws IOException {
        Node node = nodes.get(id);
        node.process()[0] = new NodeProcess(nodeLaunch(id), node.httpPort(), dir.resolve(id + ".log"))
                .start();
        return node.process()[0];
    }

    /** Starts site {@code site}'s gateway (again: its log goes on), without waiting for it. */
    NodeProcess startGateway(String site) throws IOException {
        Gateway gateway = gateways.get(site);
        gateway.process()[0] = NodeProcess.gateway(gatewayLaunch(site), gateway.httpPort(),
                dir.resolve(site + "-gw.log")).start();
        return gateway.process()[0];
    }

    NodeProcess gateway(String site) {
        return gateways.get(site).process()[0];
    }

    /** Site {@code site}'s store gets a streaming standby in synchronous replication; before its gateway starts. */
    void standbyStore(String site) throws Exception {
        gateways.get(site).database().addStandby();
    }

    /**
     * The primary of site {@code site}'s store dies (SIGKILL) and its standby is promoted; the gateway is left
     * running, reaching the promoted standby through its multi-host URL.
     *
     * @return when the promotion was done (System.nanoTime)
     */
    long failoverStore(String site) throws Exception {
        return gateways.get(site).database().failover("SELECT count(*) FROM relay_copy").promotedAt();
    }

    /**
     * Site {@code site}'s gateway runs as a pair ({@code gateway.wan.pair.enabled} among the cluster's gateway
     * properties); before the gateways start. Over JMS its LAN and WAN brokers become primary/backup pairs, the
     * site's nodes and the other sites list both; the other sites reach its WAN brokers directly, not through the
     * proxy ({@link #cutWan} does not cut them): a proxy accepts a connection even while its broker is down, which a
     * broker's address does not, so a peer would wait for an answer where it would otherwise try the other broker.
     */
    void pair(String site) {
        pairs.put(site, new Standby(LoopbackPorts.freeTcp(), LoopbackPorts.freeTcp()));
    }

    /**
     * Starts the second gateway of site {@code site}'s {@linkplain #pair pair}: the same launch and store, its
     * management endpoints on a port of their own. Over DDS and NORM the two share the LAN and link ports too, which
     * only the leader opens; over JMS its brokers run from the start, as backups, on ports of their own.
     */
    NodeProcess startStandby(String site) throws IOException {
        if (!pairs.containsKey(site)) {
            throw new IllegalStateException("site " + site + " is not a pair: call pair(\"" + site + "\") first");
        }
        int httpPort = LoopbackPorts.freeTcp();
        NodeProcess standby = NodeProcess.gateway(gatewayLaunch(site, httpPort, true), httpPort,
                dir.resolve(site + "-gw-standby.log")).start();
        standbys.add(standby);
        return standby;
    }

    NodeProcess node(String id) {
        return nodes.get(id).process()[0];
    }

    /**
     * Where the other sites send to {@code gateway}'s site: its WAN broker through the proxy, or both brokers of a
     * pair, which the link tries in turn on each reconnect.
     */
    private String linkPeer(Gateway gateway) {
        Standby pair = pairs.get(gateway.site());
        return pair == null ? "tcp://127.0.0.1:" + gateway.proxy()[0].port()
                : brokers(gateway.wanPort(), pair.wanPort(), "");
    }

    /** A broker on loopback, or both brokers of a pair for clients that follow the active one. */
    private static String brokers(int port, @Nullable Integer pairedPort, String query) {
        return pairedPort == null ? "tcp://127.0.0.1:" + port
                : "(tcp://127.0.0.1:" + port + ",tcp://127.0.0.1:" + pairedPort + ")" + query;
    }

    /** The WAN is down: every gateway's WAN broker unreachable, every connection to one reset. */
    void cutWan() throws IOException {
        for (Gateway gateway : gateways.values()) {
            gateway.proxy()[0].sever();
        }
    }

    void restoreWan() throws IOException {
        for (Gateway gateway : gateways.values()) {
            gateway.proxy()[0].restore();
        }
    }

    /** Node {@code id}'s interface database as its C4I application sees it. */
    InterfaceDatabaseClient client(String id) {
        return new InterfaceDatabaseClient(nodes.get(id).database()[0].pool());
    }

    List<String> inboxIds(String id) throws SQLException {
        return client(id).strings("SELECT message_id FROM inbox ORDER BY 1");
    }

    Variant variant() {
        return variant;
    }

    List<String> nodeIds() {
        return new ArrayList<>(nodes.keySet());
    }

    /**
     * What {@code gateway trace} prints of message {@code messageId}, asked of every node's and every gateway's
     * database, as an operator who reaches them all would ask.
     */
    String trace(String messageId) {
        List<String> args = new ArrayList<>(List.of(messageId, "--user", EmbeddedDatabase.USER));
        for (Node node : nodes.values()) {
            NodeDatabase database = node.database()[0];
            args.addAll(List.of("--database", withPassword(database.jdbcUrl(), database.password())));
        }
        for (Gateway gateway : gateways.values()) {
            args.addAll(List.of("--database", withPassword(gateway.database().jdbcUrl(),
                    gateway.database().database().password())));
        }
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exitCode = new CommandLine(new TraceCommand()).setOut(new PrintWriter(out, true))
                .setErr(new PrintWriter(err, true)).execute(args.toArray(String[]::new));
        if (exitCode != ExitCode.OK.code()) {
            throw new IllegalStateException("gateway trace " + messageId + " exited with " + exitCode + ":\n" + err
                    + out);
        }
        return out.toString();
    }

    /** Each database its own password, which the trace takes from the URL (the test cannot set PGPASSWORD). */
    private static String withPassword(String jdbcUrl, String password) {
        return NodeDatabase.withParameter(jdbcUrl, "password", password);
    }

    /** A counter or gauge of a process's Prometheus page, summed over the lines that start with {@code prefix}. */
    static double metric(NodeProcess process, String prefix) throws Exception {
        return process.get("/actuator/prometheus").body().lines().filter(line -> line.startsWith(prefix))
                .mapToDouble(line -> Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1))).sum();
    }

    @Override
    public void close() throws Exception {
        for (Node node : nodes.values()) {
            if (node.process()[0] != null) {
                node.process()[0].close();
            }
        }
        for (NodeProcess standby : standbys) {
            standby.close();
        }
        for (Gateway gateway : gateways.values()) {
            if (gateway.process()[0] != null) {
                gateway.process()[0].close();
            }
            if (gateway.proxy()[0] != null) {
                gateway.proxy()[0].close();
            }
        }
        for (Node node : nodes.values()) {
            node.database()[0].close();
        }
        for (Gateway gateway : gateways.values()) {
            gateway.database().close();
        }
    }
}
