package kr.c4i.gateway.scenarios.experiment;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Consumer;
import java.util.stream.Stream;

import org.jspecify.annotations.Nullable;

import kr.c4i.gateway.scenarios.net.EmulatedNetwork;
import kr.c4i.gateway.scenarios.net.PortCounters;
import kr.c4i.gateway.scenarios.net.ShellException;
import kr.c4i.gateway.scenarios.node.DeploymentPlan;
import kr.c4i.gateway.scenarios.node.GatewayNode;
import kr.c4i.gateway.scenarios.node.KmtfBodies;
import kr.c4i.gateway.scenarios.node.NodeSettings;
import kr.c4i.gateway.scenarios.node.NodeSpec;
import kr.c4i.gateway.scenarios.node.NodeStartException;
import kr.c4i.gateway.scenarios.node.SitePki;
import kr.c4i.gateway.core.transport.TransportKind;
import kr.c4i.gateway.tools.node.Launch;

/**
 * The nodes of one deployment (one transport, some hosts, one routing table), started together and stopped
 * together; their databases and broker journals live in a work dir that is deleted on close.
 */
final class Testbed implements AutoCloseable {

    private static final Duration POLL = Duration.ofMillis(20);

    private final String name;
    private final TransportKind transport;
    private final Map<Integer, GatewayNode> nodes = new LinkedHashMap<>();
    private final Path workDir;
    private final EmulatedNetwork network;
    private final Consumer<String> log;
    private final Duration settleWindow;
    private Map<Integer, Double> steadyRates = Map.of();

    /**
     * @param name short name of the deployment, part of its directories ({@code pair}, {@code fanout})
     * @param workRoot where the deployment's work dir is made
     * @param logDir where each node's console log goes
     * @param secured whether the nodes run with a site PKI made in the work dir (TLS, DDS Security) or plain
     * @throws IllegalArgumentException if the nodes' announcement interval is set in a form
     *         {@link SettleCheck#window} does not read
     */
    Testbed(String name, EmulatedNetwork network, TransportKind transport, List<Integer> hosts,
            Map<Integer, List<String>> routing, NodeSettings settings, Path workRoot, Path logDir, boolean secured,
            Consumer<String> log) {
        this.name = name;
        this.transport = transport;
        this.network = network;
        this.log = log;
        this.workDir = workRoot.resolve(transport.label());
        this.settleWindow = SettleCheck.window(transport, settings.extraProperties());
        @Nullable SitePki pki = secured ? HarnessPki.lan(workDir.resolve("pki"), network.topology(),
                transport == TransportKind.DDS, settings.ddsDomain(), hosts, routing) : null;
        log.accept(transport.label() + " " + name + ": " + (pki == null ? "security off (--plain)"
                : transport == TransportKind.JMS ? "brokers in mutual TLS, an identity per node from " + pki.directory()
                : "DDS Security, an identity and grant per node from " + pki.directory()));
        for (NodeSpec spec : DeploymentPlan.nodes(network.topology(), transport, hosts, routing, settings, pki)) {
            Path sockets = workDir.resolve("sockets").resolve(spec.id());
            List<String> command = DeploymentPlan.command(network.topology(), spec, settings, workDir, sockets);
            Path console = logDir.resolve(transport.label() + "-" + spec.id() + ".log");
            nodes.put(spec.host(), new GatewayNode(spec, command, console, sockets,
                    workDir.resolve(spec.id()).resolve("postgres.password"), network));
        }
    }

    String name() {
        return name;
    }

    int hostCount() {
        return nodes.size();
    }

    TransportKind transport() {
        return transport;
    }

    GatewayNode node(int host) {
        GatewayNode node = nodes.get(host);
        if (node == null) {
            throw new IllegalArgumentException("no node on host " + host + " in deployment " + name);
        }
        return node;
    }

    java.util.Collection<GatewayNode> nodes() {
        return nodes.values();
    }

    /** Lifts any cut left on the deployment's hosts (after a repetition failed half-way). */
    void uncutAll() {
        nodes.keySet().forEach(network::uncut);
    }

    /** Starts every node at once and waits until all are READY. */
    void start(Duration timeout) throws NodeStartException {
        Instant begin = Instant.now();
        try (ExecutorService starters = Executors.newThreadPerTaskExecutor(Thread.ofPlatform().daemon().factory())) {
            List<Future<?>> started = new ArrayList<>();
            for (GatewayNode node : nodes.values()) {
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
                    throw new NodeStartException("Unable to start the " + name + " deployment: " + ex.getCause(),
                            ex.getCause());
                }
                catch (InterruptedException ex) {
                    Thread.currentThread().interrupt();
                    throw new NodeStartException("Interrupted while the " + name + " deployment started", ex);
                }
            }
        }
        log.accept(transport.label() + " " + name + ": " + nodes.size() + " nodes ready in "
                + Duration.between(begin, Instant.now()).toMillis() + " ms");
    }

    /**
     * Sends messages of each type from host 1 and waits until every subscriber has them: JIT, connections and
     * DDS discovery are warm before anything is measured.
     */
    void warmUp(Map<String, List<Integer>> subscribersByType, int messages, int size, Duration timeout)
            throws SQLException, InterruptedException {
        String run = Long.toString(System.nanoTime() % 1_000_000, 36);
        for (Map.Entry<String, List<Integer>> e : subscribersByType.entrySet()) {
            String tag = "warm-" + e.getKey().toLowerCase() + "-" + run;
            node(1).database().insertNumbered(tag, e.getKey(), KmtfBodies.of(e.getKey(), size, messages));
            Map<Integer, Long> got = awaitInboxes(tag, e.getValue(), messages, Instant.now().plus(timeout));
            if (got.values().stream().anyMatch(n -> n < messages)) {
                throw new IllegalStateException("Warm-up of " + e.getKey() + " on " + transport.label()
                        + " did not reach every subscriber within " + timeout.toSeconds() + " s: " + got + " of " + messages);
            }
        }
    }

    /**
     * Polls the subscribers' inboxes until each has {@code expected} messages of the tag or the deadline passes.
     *
     * @return per subscriber host, how many it has
     */
    Map<Integer, Long> awaitInboxes(String tag, List<Integer> subscribers, long expected, Instant deadline)
            throws InterruptedException {
        Map<Integer, Long> counts = new LinkedHashMap<>();
        subscribers.forEach(h -> counts.put(h, 0L));
        while (true) {
            boolean all = true;
            for (int host : subscribers) {
                if (counts.get(host) < expected) {
                    try {
                        counts.put(host, node(host).database().inboxCount(tag));
                    }
                    catch (SQLException | IllegalStateException ex) {
                        // a node still starting or briefly busy; keep polling until the deadline
                    }
                    all &= counts.get(host) >= expected;
                }
            }
            if (all || Instant.now().isAfter(deadline)) {
                return counts;
            }
            Thread.sleep(POLL);
        }
    }

    /**
     * Waits until the deployment is settled for a cell that measures steady transfer (see {@link SettleCheck}): every
     * node's routes up and every host's link quiet, or steady since the window before (for the first look, the last
     * window found steady). Logs each look that is not, and how long it took.
     *
     * @param cell what comes next, for the log and the timeout's message
     * @return how long it waited
     * @throws IllegalStateException naming what did not settle, if the timeout passes first
     */
    Duration awaitSettled(String cell, Duration timeout) throws InterruptedException {
        Instant begin = Instant.now();
        Instant deadline = begin.plus(timeout);
        Map<Integer, Double> earlier = steadyRates;
        while (true) {
            Map<Integer, PortCounters> before = hostCounters();
            Instant from = Instant.now();
            Thread.sleep(settleWindow);
            Map<Integer, Double> last = SettleCheck.sentPerSecond(before, hostCounters(),
                    Duration.between(from, Instant.now()));
            SettleCheck check = new SettleCheck(routesDown(), earlier, last);
            earlier = last;
            Duration waited = Duration.between(begin, Instant.now());
            String when = String.format(Locale.ROOT, " for %s in %.1f s (windows of %.1f s)", cell,
                    waited.toMillis() / 1e3, settleWindow.toMillis() / 1e3);
            if (check.settled()) {
                steadyRates = last;
                log.accept(String.format(Locale.ROOT, "%s %s settled%s: routes up, links steady, at most %,.0f B/s "
                        + "a host", transport.label(), name, when, check.loudest()));
                return waited;
            }
            if (Instant.now().isAfter(deadline)) {
                throw new IllegalStateException(transport.label() + " " + name + " not settled for " + cell
                        + " within " + timeout.toSeconds() + " s: " + check.unsettled());
            }
            log.accept(transport.label() + " " + name + " not settled" + when + " yet: " + check.unsettled());
        }
    }

    private Map<Integer, PortCounters> hostCounters() {
        Map<String, PortCounters> ports = network.switchCounters();
        Map<Integer, PortCounters> byHost = new LinkedHashMap<>();
        nodes.keySet().forEach(host -> byHost.put(host, ports.get(network.topology().switchPort(host))));
        return byHost;
    }

    /** Per node, what its transport's health names as down; a node that does not answer is down as a whole. */
    private Map<String, List<String>> routesDown() {
        Map<String, List<String>> down = new LinkedHashMap<>();
        for (GatewayNode node : nodes.values()) {
            try {
                String password = Files.readString(DeploymentPlan.managementPasswordFile(workDir, node.id())).strip();
                down.put(node.id(), SettleCheck.routesDown(network.hostHttpGet(node.host(), NodeSettings.HTTP_PORT,
                        "/actuator/health/transport", Launch.DEFAULT_MANAGEMENT_USER, password)));
            }
            catch (IOException | ShellException | IllegalArgumentException ex) {
                down.put(node.id(), List.of("health not readable: " + ex.getMessage()));
            }
        }
        return down;
    }

    @Override
    public void close() {
        try (ExecutorService stoppers = Executors.newThreadPerTaskExecutor(Thread.ofPlatform().daemon().factory())) {
            nodes.values().forEach(node -> stoppers.submit(node::stop));
        }
        deleteTree(workDir, log);
    }

    static void deleteTree(Path root, Consumer<String> log) {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
        catch (IOException | java.io.UncheckedIOException ex) {
            log.accept("Unable to delete " + root + ": " + ex.getMessage());
        }
    }
}
