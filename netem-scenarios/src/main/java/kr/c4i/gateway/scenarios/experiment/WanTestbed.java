package kr.c4i.gateway.scenarios.experiment;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Consumer;

import kr.c4i.gateway.core.transport.TransportKind;
import kr.c4i.gateway.scenarios.net.WanNetwork;
import kr.c4i.gateway.scenarios.net.WanTopology;
import kr.c4i.gateway.scenarios.node.GatewayNode;
import kr.c4i.gateway.scenarios.node.NodeSettings;
import kr.c4i.gateway.scenarios.node.NodeSpec;
import kr.c4i.gateway.scenarios.node.NodeStartException;
import kr.c4i.gateway.scenarios.node.SitePki;
import kr.c4i.gateway.scenarios.node.WanDeploymentPlan;
import kr.c4i.gateway.scenarios.node.WanLinkKind;
import kr.c4i.gateway.tools.node.Launch;
import kr.c4i.gateway.tools.node.NodeLaunch;

/**
 * The {@code wan} experiment's processes for one link: the nodes of both sites and the two WAN gateways, started
 * together (each in its host's namespace) and stopped together; their work dirs are deleted on close.
 */
final class WanTestbed implements AutoCloseable {

    private final WanLinkKind link;
    private final Map<String, GatewayNode> nodes = new LinkedHashMap<>();
    private final List<GatewayNode> gateways = new ArrayList<>();
    private final Path workDir;
    private final Consumer<String> log;

    private final WanNetwork network;
    private final int nodesPerSite;
    private final Map<String, List<String>> subscriptions;
    private final NodeSettings settings;
    private final Path logDir;
    private final Map<Integer, SitePki> pki;
    private long budget;
    private boolean compressed;

    /**
     * @param subscriptions node id to the types it receives
     * @param budgetBitsPerSecond the gateways' first WAN budget
     * @param compressed whether the gateways first compress their frames
     * @param secured whether the sites run with PKIs made in the work dir (TLS, sealed WAN frames) or plain
     */
    WanTestbed(WanNetwork network, WanLinkKind link, int nodesPerSite, Map<String, List<String>> subscriptions,
            long budgetBitsPerSecond, boolean compressed, NodeSettings settings, Path workRoot, Path logDir,
            boolean secured, Consumer<String> log) {
        this.network = network;
        this.link = link;
        this.nodesPerSite = nodesPerSite;
        this.subscriptions = Map.copyOf(subscriptions);
        this.settings = settings;
        this.logDir = logDir;
        this.log = log;
        this.workDir = workRoot.resolve("wan-" + link.label());
        WanTopology t = network.topology();
        this.pki = secured ? HarnessPki.wan(workDir.resolve("pki"), t, link, nodesPerSite, subscriptions, settings)
                : Map.of();
        log.accept("wan " + link.label() + ": " + (!secured ? "security off (--plain)"
                : "WAN frames sealed per site, " + (link.lanTransport() == TransportKind.JMS
                        ? "brokers in mutual TLS" : "DDS Security on the LANs (the gateways granted the other site's "
                                + "nodes)")
                        + ", an identity per node and gateway from " + workDir.resolve("pki")));
        for (WanDeploymentPlan.SiteNode node : WanDeploymentPlan.nodes(t, link, nodesPerSite, subscriptions,
                settings, pki)) {
            NodeSpec spec = node.spec();
            Path sockets = workDir.resolve("sockets").resolve(spec.id());
            List<String> command = WanDeploymentPlan.nodeCommand(t, node, settings, workDir, sockets);
            nodes.put(spec.id(), new GatewayNode(spec, command, logDir.resolve("wan-" + link.label() + "-" + spec.id()
                    + ".log"), sockets, workDir.resolve(spec.id()).resolve("postgres.password"),
                    network.site(node.site())));
        }
        createGateways(budgetBitsPerSecond, compressed);
    }

    /**
     * The gateways' processes at a budget, compressing their frames or not; they keep their work dirs (the relay
     * store) from one setting to the next.
     */
    private void createGateways(long budgetBitsPerSecond, boolean compressing) {
        gateways.clear();
        budget = budgetBitsPerSecond;
        compressed = compressing;
        WanTopology t = network.topology();
        Map<String, String> extra = new LinkedHashMap<>(compressing ? Map.of() : WanDeploymentPlan.UNCOMPRESSED_FRAMES);
        extra.putAll(settings.gatewayProperties());
        for (int site = 1; site <= 2; site++) {
            String id = WanDeploymentPlan.siteId(site);
            WanDeploymentPlan.Gateway gateway = WanDeploymentPlan.gateway(t, site, link, nodesPerSite, subscriptions,
                    budgetBitsPerSecond, settings, workDir, pki, extra);
            Path sockets = workDir.resolve("sockets").resolve("gw-" + id);
            List<String> command = WanDeploymentPlan.gatewayCommand(t, gateway, settings, workDir, sockets);
            // The harness's process handle wants a NodeSpec: the gateway's id and host, no bridge properties.
            NodeSpec spec = new NodeSpec("gw-" + id, WanTopology.GATEWAY_HOST, t.gatewayLanAddress(site),
                    link.lanTransport(), NodeLaunch.builder("gw-" + id, link.lanTransport()).build());
            gateways.add(GatewayNode.withoutInterfaceDatabase(spec, command, gateway.launch().environment(),
                    logDir.resolve("wan-" + link.label() + "-gateway-" + id + ".log"), sockets, network.site(site)));
        }
    }

    /**
     * Restarts both gateways with another WAN budget or compression (both are read at start), unless they run with
     * them already.
     *
     * @return whether they were restarted
     */
    boolean useGateways(long budgetBitsPerSecond, boolean compressing, Duration timeout) throws NodeStartException {
        if (budgetBitsPerSecond == budget && compressing == compressed) {
            return false;
        }
        stopAll(gateways);
        createGateways(budgetBitsPerSecond, compressing);
        startAll(gateways, timeout);
        log.accept("wan " + link.label() + ": gateways restarted with a budget of " + budgetBitsPerSecond + " bit/s, "
                + (compressing ? "frames compressed" : "frames uncompressed"));
        return true;
    }

    long budget() {
        return budget;
    }

    WanLinkKind link() {
        return link;
    }

    GatewayNode node(String id) {
        GatewayNode node = nodes.get(id);
        if (node == null) {
            throw new IllegalArgumentException("no node " + id + " in the wan deployment");
        }
        return node;
    }

    /** Starts every node and both gateways at once and waits until all are READY. */
    void start(Duration timeout) throws NodeStartException {
        Instant begin = Instant.now();
        List<GatewayNode> all = new ArrayList<>(nodes.values());
        all.addAll(gateways);
        startAll(all, timeout);
        log.accept("wan " + link.label() + ": " + nodes.size() + " nodes and " + gateways.size()
                + " gateways ready in " + Duration.between(begin, Instant.now()).toMillis() + " ms, frames "
                + (compressed ? "compressed" : "uncompressed"));
    }

    private static void startAll(List<GatewayNode> all, Duration timeout) throws NodeStartException {
        try (ExecutorService starters = Executors.newThreadPerTaskExecutor(Thread.ofPlatform().daemon().factory())) {
            List<Future<?>> started = new ArrayList<>();
            for (GatewayNode node : all) {
                started.add(starters.submit(() -> {
                    node.start(timeout);
                    return null;
                }));
            }
            for (Future<?> f : started) {
                try {
                    f.get();
                }
                catch (ExecutionException ex) {
                    if (ex.getCause() instanceof NodeStartException nse) {
                        throw nse;
                    }
                    throw new NodeStartException("Unable to start the wan deployment: " + ex.getCause(), ex.getCause());
                }
                catch (InterruptedException ex) {
                    Thread.currentThread().interrupt();
                    throw new NodeStartException("Interrupted while the wan deployment started", ex);
                }
            }
        }
    }

    /**
     * What both gateways have counted so far of the DATA frames they sent, read from their management endpoints
     * ({@code /actuator/prometheus}, with the password each made at its start). The counters start at zero with
     * each start of the gateways.
     *
     * @throws IOException if a gateway's management password cannot be read
     * @throws kr.c4i.gateway.scenarios.net.ShellException if a gateway does not answer
     * @throws IllegalArgumentException if it answers what is not Prometheus text
     */
    WanFrameCounters frameCounters() throws IOException {
        WanFrameCounters sum = WanFrameCounters.ZERO;
        for (int site = 1; site <= 2; site++) {
            String password = Files.readString(WanDeploymentPlan.managementPasswordFile(workDir, site)).strip();
            sum = sum.plus(WanFrameCounters.parse(network.gatewayHttpGet(site, NodeSettings.HTTP_PORT,
                    "/actuator/prometheus", Launch.DEFAULT_MANAGEMENT_USER, password)));
        }
        return sum;
    }

    /** Polls a node's inbox until it has {@code expected} messages of the tag or the deadline passes. */
    long awaitInbox(String node, String tag, long expected, Instant deadline) throws InterruptedException {
        long count = 0;
        while (true) {
            try {
                count = node(node).database().inboxCount(tag);
            }
            catch (java.sql.SQLException | IllegalStateException ex) {
                // briefly busy; keep polling until the deadline
            }
            if (count >= expected || Instant.now().isAfter(deadline)) {
                return count;
            }
            Thread.sleep(50);
        }
    }

    @Override
    public void close() {
        List<GatewayNode> all = new ArrayList<>(nodes.values());
        all.addAll(gateways);
        stopAll(all);
        Testbed.deleteTree(workDir, log);
    }

    private static void stopAll(List<GatewayNode> all) {
        try (ExecutorService stoppers = Executors.newThreadPerTaskExecutor(Thread.ofPlatform().daemon().factory())) {
            all.forEach(node -> stoppers.submit(node::stop));
        }
    }
}
