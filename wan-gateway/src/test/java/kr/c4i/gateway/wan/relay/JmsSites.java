package kr.c4i.gateway.wan.relay;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Supplier;
import java.util.stream.Collectors;

import javax.sql.DataSource;

import com.zaxxer.hikari.HikariDataSource;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.flywaydb.core.Flyway;

import kr.c4i.gateway.core.Envelope;
import kr.c4i.gateway.core.NodeId;
import kr.c4i.gateway.core.link.SiteId;
import kr.c4i.gateway.core.metrics.MetricNames;
import kr.c4i.gateway.core.routing.Clearances;
import kr.c4i.gateway.core.routing.RoutingTable;
import kr.c4i.gateway.core.transport.Outbound;
import kr.c4i.gateway.core.transport.TransportException;
import kr.c4i.gateway.core.transport.TransportHealth;
import kr.c4i.gateway.jms.JmsTransport;
import kr.c4i.gateway.jms.JmsTransportSettings;
import kr.c4i.gateway.jms.link.JmsLinkSettings;
import kr.c4i.gateway.jms.link.JmsWanLink;
import kr.c4i.gateway.kmtf.catalogue.KmtfCatalogue;
import kr.c4i.gateway.ports.LoopbackPorts;
import kr.c4i.gateway.wan.frame.FrameCodec;
import kr.c4i.gateway.wan.lan.JmsLanSide;
import kr.c4i.gateway.wan.lan.LanDelivery;
import kr.c4i.gateway.wan.lan.LanIngest;
import kr.c4i.gateway.wan.lan.LanSide;
import kr.c4i.gateway.wan.metrics.RelayMetrics;
import kr.c4i.gateway.wan.policy.RelayPolicy;
import kr.c4i.gateway.wan.schedule.ExpiryRule;
import kr.c4i.gateway.wan.site.SiteMap;
import kr.c4i.gateway.wan.store.RelayStore;
import kr.c4i.gateway.wan.store.StoreLimits;

/**
 * Sites on one machine, each with one node (a real JMS transport with its own embedded broker, standing in for a
 * db-bridge node) and one WAN gateway (the real engine: its own database, JMS LAN side with its LAN broker, jms link
 * with its WAN broker), every gateway peered with every other. One PostgreSQL server holds each gateway's database.
 */
final class JmsSites implements AutoCloseable {

    static final KmtfCatalogue CATALOGUE = KmtfCatalogue.loadDefault();

    /** One site: its node, its gateway's ports and database, and the running gateway (null while stopped). */
    final class Site {

        final SiteId id;
        final NodeId node;
        final int nodePort = LoopbackPorts.freeTcp();
        final int lanPort = LoopbackPorts.freeTcp();
        final int wanPort = LoopbackPorts.freeTcp();
        final HikariDataSource database;
        final SimpleMeterRegistry registry = new SimpleMeterRegistry();
        /** Message id to every copy the node's inbox handler was given, in arrival order. */
        final Map<String, List<Envelope>> inbox = new ConcurrentHashMap<>();
        final List<String> arrivals = new CopyOnWriteArrayList<>();
        /** Message id to the envelope the gateway last handed its LAN side: what the LAN transport is to carry. */
        final Map<String, Envelope> handedToLan = new ConcurrentHashMap<>();
        /** Message id to how many times the gateway handed it to its LAN side. */
        final Map<String, Integer> handings = new ConcurrentHashMap<>();
        JmsTransport transport;
        RelayEngine engine;

        Site(SiteId id, NodeId node) throws SQLException {
            this.id = id;
            this.node = node;
            this.database = database("gw_" + id.value());
        }

        long received() {
            return inbox.size();
        }

        /** Copies beyond the first, over every message the node had more than once. */
        long duplicates() {
            return duplicated().values().stream().mapToLong(copies -> copies - 1).sum();
        }

        /**
         * The gateway's counter of that name, summed over the tags not given.
         *
         * @param tags key and value pairs the counted meters must have, e.g. {@code "direction", "sent"}
         */
        double counted(String name, String... tags) {
            return registry.find(name).tags(tags).counters().stream().mapToDouble(Counter::count).sum();
        }

        /** Message ids this node had more than once, each to how many copies, in id order. */
        Map<String, Integer> duplicated() {
            return inbox.entrySet().stream().filter(e -> e.getValue().size() > 1).collect(Collectors.toMap(
                    Map.Entry::getKey, e -> e.getValue().size(), (x, y) -> x, TreeMap::new));
        }

        /**
         * What tells a second handing by the gateway from a redelivery after it: the first messages the node had
         * more than once, each with its copies and how often the gateway handed it to its LAN side, and the
         * gateway's counters of the relay, its frames and its store.
         */
        String duplicatesReport() {
            String twice = duplicated().entrySet().stream().limit(8).map(e -> e.getKey() + " x" + e.getValue()
                    + " (handed " + handings.getOrDefault(e.getKey(), 0) + ")").collect(Collectors.joining(", "));
            Map<String, Long> counters = registry.getMeters().stream()
                    .filter(m -> m instanceof Counter && REPORTED.contains(m.getId().getName()))
                    .collect(Collectors.groupingBy(m -> m.getId().getName().substring("gateway.wan.".length())
                            + m.getId().getTags().stream().filter(t -> !SUMMED_OVER.contains(t.getKey()))
                                    .map(t -> t.getKey() + "=" + t.getValue())
                                    .collect(Collectors.joining(",", "{", "}")),
                            TreeMap::new, Collectors.summingLong(m -> (long) ((Counter) m).count())));
            return "site " + id + ": node " + node + " had " + duplicates() + " more copies than messages: " + twice
                    + "; its gateway's counters: " + counters;
        }
    }

    /** The counters {@link Site#duplicatesReport} names, summed over the tags it leaves out. */
    private static final Set<String> REPORTED = Set.of(MetricNames.WAN_RELAYED, MetricNames.WAN_FRAMES,
            MetricNames.WAN_FRAMES_RESENT, MetricNames.WAN_STORE_DUPLICATES, MetricNames.WAN_STORE_REFUSED);
    private static final Set<String> SUMMED_OVER = Set.of(MetricNames.TAG_PRECEDENCE, MetricNames.TAG_TYPE);

    private final Path dir;
    private final EmbeddedPostgres postgres;
    private final Map<SiteId, Site> sites = new LinkedHashMap<>();
    private final RoutingTable routing;
    private final long budgetBitsPerSecond;
    private final Duration receiptTimeout;
    private final double floor;
    private final FrameCodec codec;
    private final Clearances nodeClearances;
    private final Clearances siteClearances;

    /**
     * @param nodesBySite site to its one node, e.g. s1 to a
     * @param subscriptions the routing table
     * @param floor the share each lower precedence gets at least (0: strict precedence)
     */
    JmsSites(Path dir, Map<SiteId, NodeId> nodesBySite, Map<NodeId, List<String>> subscriptions,
            long budgetBitsPerSecond, Duration receiptTimeout, double floor) throws Exception {
        this(dir, nodesBySite, subscriptions, budgetBitsPerSecond, receiptTimeout, floor, Clearances.unrestricted(),
                Clearances.unrestricted());
    }

    /** @param nodeClearances and {@code siteClearances}: every gateway's, as gateway.routing.*clearances set them */
    JmsSites(Path dir, Map<SiteId, NodeId> nodesBySite, Map<NodeId, List<String>> subscriptions,
            long budgetBitsPerSecond, Duration receiptTimeout, double floor, Clearances nodeClearances,
            Clearances siteClearances) throws Exception {
        this(dir, nodesBySite, subscriptions, budgetBitsPerSecond, receiptTimeout, floor, nodeClearances,
                siteClearances, FrameCodec.standard());
    }

    /** @param codec every gateway's, as gateway.wan.compress-frames makes it */
    JmsSites(Path dir, Map<SiteId, NodeId> nodesBySite, Map<NodeId, List<String>> subscriptions,
            long budgetBitsPerSecond, Duration receiptTimeout, double floor, Clearances nodeClearances,
            Clearances siteClearances, FrameCodec codec) throws Exception {
        this.codec = codec;
        this.floor = floor;
        this.nodeClearances = nodeClearances;
        this.siteClearances = siteClearances;
        this.dir = dir;
        this.postgres = EmbeddedPostgres.builder().start();
        this.routing = RoutingTable.of(subscriptions, CATALOGUE);
        this.budgetBitsPerSecond = budgetBitsPerSecond;
        this.receiptTimeout = receiptTimeout;
        for (Map.Entry<SiteId, NodeId> entry : nodesBySite.entrySet()) {
            sites.put(entry.getKey(), new Site(entry.getKey(), entry.getValue()));
        }
        for (Site site : sites.values()) {
            startNode(site);
        }
        for (Site site : sites.values()) {
            startGateway(site.id);
        }
    }

    Site site(SiteId id) {
        return sites.get(id);
    }

    Site siteOf(NodeId node) {
        return sites.values().stream().filter(s -> s.node.equals(node)).findFirst().orElseThrow();
    }

    /** The node sends as a db-bridge node would: one copy per destination node its routing table names. */
    void send(List<Envelope> envelopes) throws Exception {
        Map<NodeId, List<Outbound>> byOrigin = new TreeMap<>();
        for (Envelope envelope : envelopes) {
            var type = CATALOGUE.find(envelope.kmtfType()).orElseThrow();
            byOrigin.computeIfAbsent(envelope.origin(), o -> new ArrayList<>())
                    .add(new Outbound(envelope, type, routing.destinations(type.id(), envelope.origin())));
        }
        for (var entry : byOrigin.entrySet()) {
            siteOf(entry.getKey()).transport.send(entry.getValue());
        }
    }

    private void startNode(Site site) throws Exception {
        Map<NodeId, JmsTransportSettings.Peer> peers = new TreeMap<>();
        for (Site other : sites.values()) {
            if (other != site) {
                // A remote node's copies go to this site's gateway, exactly as to a local node.
                peers.put(other.node, JmsTransportSettings.Peer.at("tcp://127.0.0.1:" + site.lanPort));
            }
        }
        JmsTransport transport = new JmsTransport(settings(site.node, site.nodePort, peers));
        transport.open();
        transport.subscribe(batch -> batch.forEach(e -> {
            site.inbox.computeIfAbsent(e.messageId(), k -> new CopyOnWriteArrayList<>()).add(e);
            site.arrivals.add(e.messageId());
        }));
        site.transport = transport;
    }

    /** Starts (or starts again) a site's gateway on its database and broker journals. */
    void startGateway(SiteId id) throws Exception {
        Site site = sites.get(id);
        Map<SiteId, List<NodeId>> map = new TreeMap<>();
        sites.values().forEach(s -> map.put(s.id, List.of(s.node)));
        SiteMap siteMap = SiteMap.of(id, map).withClearances(nodeClearances, siteClearances);
        NodeId gatewayNode = NodeId.of("gw-" + id.value());
        JmsLanSide lan = new JmsLanSide(settings(gatewayNode, site.lanPort,
                Map.of(site.node, JmsTransportSettings.Peer.at("tcp://127.0.0.1:" + site.nodePort))), siteMap,
                routing, CATALOGUE);
        Map<SiteId, JmsLinkSettings.Peer> linkPeers = new TreeMap<>();
        sites.values().stream().filter(s -> s != site)
                .forEach(s -> linkPeers.put(s.id, JmsLinkSettings.Peer.at("tcp://127.0.0.1:" + s.wanPort)));
        JmsWanLink link = new JmsWanLink(JmsLinkSettings.of(id, "gateway", "s3cret-pw",
                JmsTransportSettings.Embedded.at("127.0.0.1", site.wanPort, dir.resolve("wan-" + id.value())),
                budgetBitsPerSecond / 8).withPeers(linkPeers).withReconnectBackoff(Duration.ofMillis(100),
                        Duration.ofSeconds(1)));
        RelayStore store = RelayStore.opened(site.database, StoreLimits.of(256L * 1024 * 1024), Clock.systemUTC());
        RelayPolicy policy = RelayPolicy.allowAll(CATALOGUE);
        Supplier<RelayPolicy> policies = () -> policy;
        RelayEngine engine = new RelayEngine(siteMap, new SiteRoutes(id, link.peers(), Map.of()), routing, CATALOGUE,
                store, policies, ExpiryRule.NEVER, link, new RecordingLan(lan, site.handedToLan, site.handings), codec,
                new RelayMetrics(site.registry),
                new RelayEngine.Settings(1200, receiptTimeout, budgetBitsPerSecond, 1400, Duration.ofSeconds(1), floor,
                        1500, 256 * 1024),
                Clock.systemUTC());
        engine.start();
        site.engine = engine;
    }

    void stopGateway(SiteId id) {
        Site site = sites.get(id);
        if (site.engine != null) {
            site.engine.close();
            // As the service's context closes it: the store's lock goes, and a gateway started again takes it.
            site.engine.store().close();
            site.engine = null;
        }
    }

    /**
     * Each node had each message once; or a gateway gave DATA frames up (the link went down, or no receipt came in
     * time), their messages went again, and a peer that had delivered them already stored and handed them to its LAN
     * side once more: then a node may have a message as many times as its gateway handed it over, and its inbox
     * absorbs the copies by message id, as db-bridge's does. A copy more than the gateway handed over fails either way.
     */
    void assertDeliveredOnceOrResent() {
        // Built only when an assertion fails: it walks every inbox and counter.
        Supplier<String> report = () -> sites.values().stream().map(Site::duplicatesReport)
                .collect(Collectors.joining("\n"));
        double givenUp = sites.values().stream().mapToDouble(s -> s.counted(MetricNames.WAN_FRAMES_RESENT)).sum();
        for (Site site : sites.values()) {
            Map<String, Integer> duplicated = site.duplicated();
            if (givenUp == 0) {
                assertThat(duplicated).as(() -> "messages a node had twice though no gateway gave a frame up:\n"
                        + report.get()).isEmpty();
            }
            duplicated.forEach((id, copies) -> assertThat(site.handings.getOrDefault(id, 0))
                    .as(() -> "times gateway " + site.id + " handed " + id + " to its LAN side, which its node had "
                            + copies + " times:\n" + report.get())
                    .isGreaterThanOrEqualTo(copies));
        }
    }

    /** Copies stored at every gateway, all routes. */
    long stored() {
        return sites.values().stream().filter(s -> s.engine != null).mapToLong(s -> s.engine.store().stats()
                .routes().values().stream().flatMap(m -> m.values().stream()).mapToLong(l -> l.copies()).sum())
                .sum();
    }

    private HikariDataSource database(String name) throws SQLException {
        try (Connection c = postgres.getPostgresDatabase().getConnection(); Statement s = c.createStatement()) {
            s.execute("CREATE DATABASE " + name);
        }
        DataSource raw = postgres.getDatabase("postgres", name);
        Flyway.configure().dataSource(raw).locations(RelayStore.MIGRATIONS).load().migrate();
        HikariDataSource pool = new HikariDataSource();
        pool.setJdbcUrl(postgres.getJdbcUrl("postgres", name));
        pool.setMaximumPoolSize(4);
        return pool;
    }

    /** A LAN side that notes each envelope handed to it before handing it on. */
    private record RecordingLan(LanSide lan, Map<String, Envelope> handed, Map<String, Integer> handings)
            implements LanSide {

        @Override
        public void open(LanIngest ingest) throws TransportException {
            lan.open(ingest);
        }

        @Override
        public String kind() {
            return lan.kind();
        }

        @Override
        public void standBy() throws TransportException {
            lan.standBy();
        }

        @Override
        public LanDelivery deliver(List<RelayedEnvelope> batch) throws TransportException {
            batch.forEach(r -> {
                handed.put(r.messageId(), r.envelope());
                handings.merge(r.messageId(), 1, Integer::sum);
            });
            return lan.deliver(batch);
        }

        @Override
        public TransportHealth health() {
            return lan.health();
        }

        @Override
        public void close() {
            lan.close();
        }
    }

    /** Fast retries, so a returning broker is found within a second. */
    private JmsTransportSettings settings(NodeId id, int port, Map<NodeId, JmsTransportSettings.Peer> peers) {
        return JmsTransportSettings.of(id, "gateway", "s3cret-pw",
                JmsTransportSettings.Embedded.at("127.0.0.1", port, dir.resolve(id.value())),
                new JmsTransportSettings.Receive(200, Duration.ofMillis(100), Duration.ofMillis(100),
                        Duration.ofSeconds(1)),
                new JmsTransportSettings.Bridge(Duration.ofMillis(100), 2.0, Duration.ofSeconds(1), 1024 * 1024,
                        Duration.ofSeconds(1), Duration.ofSeconds(5)))
                .withPeers(peers);
    }

    @Override
    public void close() throws Exception {
        for (Site site : sites.values()) {
            stopGateway(site.id);
        }
        for (Site site : sites.values()) {
            if (site.transport != null) {
                site.transport.close();
            }
            site.database.close();
        }
        postgres.close();
    }
}
