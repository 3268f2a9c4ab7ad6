package kr.c4i.gateway.tools.wanbench;

import java.io.IOException;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import com.zaxxer.hikari.HikariDataSource;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.flywaydb.core.Flyway;
import org.jspecify.annotations.Nullable;

import kr.c4i.gateway.core.NodeId;
import kr.c4i.gateway.core.link.LinkState;
import kr.c4i.gateway.core.link.SiteId;
import kr.c4i.gateway.core.link.WanLink;
import kr.c4i.gateway.core.metrics.MetricNames;
import kr.c4i.gateway.core.routing.RoutingTable;
import kr.c4i.gateway.core.transport.InboundHandler;
import kr.c4i.gateway.core.transport.Outbound;
import kr.c4i.gateway.core.transport.TransportException;
import kr.c4i.gateway.custody.CustodyIndexMerger;
import kr.c4i.gateway.custody.CustodyLog;
import kr.c4i.gateway.dds.ParticipantSettings;
import kr.c4i.gateway.dds.link.DdsLinkSettings;
import kr.c4i.gateway.dds.link.DdsWanLink;
import kr.c4i.gateway.dds.transport.DdsTransport;
import kr.c4i.gateway.dds.transport.DdsTransportSettings;
import kr.c4i.gateway.jms.JmsTransport;
import kr.c4i.gateway.jms.JmsTransportSettings;
import kr.c4i.gateway.jms.JournalBufferTimeout;
import kr.c4i.gateway.jms.link.JmsLinkSettings;
import kr.c4i.gateway.jms.link.JmsWanLink;
import kr.c4i.gateway.norm.link.NormLinkSettings;
import kr.c4i.gateway.norm.link.NormWanLink;
import kr.c4i.gateway.pki.Identity;
import kr.c4i.gateway.pki.IdentityRequest;
import kr.c4i.gateway.pki.SiteAuthority;
import kr.c4i.gateway.kmtf.catalogue.KmtfCatalogue;
import kr.c4i.gateway.kmtf.catalogue.Precedence;
import kr.c4i.gateway.ports.LoopbackPorts;
import kr.c4i.gateway.tools.WarmUpTidy;
import kr.c4i.gateway.tools.embedded.EmbeddedDatabase;
import kr.c4i.gateway.wan.config.LanProperties;
import kr.c4i.gateway.wan.frame.FrameCodec;
import kr.c4i.gateway.wan.frame.FrameCompression;
import kr.c4i.gateway.wan.lan.DdsLanSide;
import kr.c4i.gateway.wan.lan.JmsLanSide;
import kr.c4i.gateway.wan.lan.LanSide;
import kr.c4i.gateway.wan.metrics.RelayMetrics;
import kr.c4i.gateway.wan.policy.RelayPolicy;
import kr.c4i.gateway.wan.relay.RelayEngine;
import kr.c4i.gateway.wan.relay.SiteRoutes;
import kr.c4i.gateway.wan.seal.RefusalReason;
import kr.c4i.gateway.wan.seal.SealedWanLink;
import kr.c4i.gateway.wan.seal.SiteCredentials;
import kr.c4i.gateway.wan.site.SiteMap;
import kr.c4i.gateway.wan.store.ForwardedStep;
import kr.c4i.gateway.wan.store.RelayStore;
import kr.c4i.gateway.wan.store.Route;
import kr.c4i.gateway.wan.store.StoreLimits;

/**
 * Two sites, each with one node and one WAN gateway, in this JVM: node {@code a} at site {@code s1} sends to node
 * {@code c} at site {@code s2}. Everything on the path is real, as deployed with the gateway's defaults: each gateway
 * has its own durable PostgreSQL (the embedded default's, {@code fsync} on) and its own relay engine. On JMS LANs each
 * node and each gateway's LAN side has its own embedded Artemis broker: a message goes a's broker, gateway 1's LAN
 * broker, gateway 1's store, the link, gateway 2's store, gateway 2's LAN broker, c's broker, c's inbox handler. On
 * DDS LANs each site is a Cyclone domain of its own on loopback with no broker: a message goes from a's writer to
 * gateway 1's reader, gateway 1's store, the link, gateway 2's store, gateway 2's writer, c's reader and inbox
 * handler. The link is {@code jms} (two more brokers), {@code dds} (a WAN domain of its own) or {@code norm} (UDP).
 */
final class RelayPair implements AutoCloseable {

    static final SiteId S1 = SiteId.of("s1");
    static final SiteId S2 = SiteId.of("s2");
    static final NodeId A = NodeId.of("a");
    static final NodeId C = NodeId.of("c");

    private static final String USER = "gateway";
    private static final Duration READY = Duration.ofSeconds(60);
    // A DDS domain per site and one for the dds link, from the process id, so two runs on one host rarely meet.
    private static final int LAN_S1 = 1 + (int) (ProcessHandle.current().pid() % 70);
    private static final int LAN_S2 = LAN_S1 + 70;
    private static final int WAN_DOMAIN = LAN_S1 + 140;

    /**
     * How the pair is built: the WAN budget of each gateway (bits per second), how gateway 1 compresses its DATA
     * frames, the size DATA frames are filled to at least, how far a sender may run ahead of the budget, which
     * broker node a sends through, the WAN link between the gateways, and the in-flight window
     * ({@code gateway.wan.schedule.window}).
     */
    record Shape(long budgetBitsPerSecond, FrameCompression compression, int frameTargetBytes, int burstBytes,
            Feed feed, Lan lan, Link link, Duration window, boolean sealed, Custody custody) {
    }

    /**
     * The gateways' custody logs: off ({@code gateway.custody.enabled=false}), logged only
     * ({@code gateway.custody.forward=false}), or as shipped, gateway 2 forwarding its steps with node a's messages to
     * gateway 1.
     */
    enum Custody {
        OFF, LOGGED, LOGGED_AND_FORWARDED
    }

    /** The sites' LANs: JMS (site brokers) or DDS (a Cyclone domain per site). */
    enum Lan {
        JMS, DDS
    }

    /**
     * The WAN link: {@code jms} (two more brokers on loopback), {@code dds} (Cyclone unicast on a WAN domain of its
     * own, on loopback) or {@code norm} (UDP on loopback), the latter with
     * NORM's own loss hook: each gateway's NORM sender drops that share of its packets (data and repairs, not the
     * receivers' NACKs and acknowledgements), the only lossy link loopback offers.
     */
    record Link(LinkKind kind, double txLossPercent) {

        static final Link JMS = new Link(LinkKind.JMS, 0);

        Link {
            if (kind != LinkKind.NORM && txLossPercent != 0) {
                throw new IllegalArgumentException("--tx-loss needs --link norm: the "
                        + kind.name().toLowerCase(java.util.Locale.ROOT) + " link has no loss hook");
            }
        }

        String label() {
            return kind.name().toLowerCase(java.util.Locale.ROOT)
                    + (txLossPercent > 0 ? " (" + txLossPercent + "% tx loss)" : "");
        }
    }

    /** The WAN links the bench can run. */
    enum LinkKind {
        DDS, JMS, NORM
    }

    /** Which broker node a sends through. */
    enum Feed {

        /** Gateway 1's LAN broker, as the site's broker: node a's send is the gateway's LAN in. */
        SITE_BROKER,

        /** Its own embedded broker, whose bridge forwards to gateway 1's LAN broker: one broker more. */
        OWN_BROKER
    }

    private final KmtfCatalogue catalogue;
    private final List<AutoCloseable> opened = new ArrayList<>();
    private final String password = "wan-bench-" + Long.toHexString(System.nanoTime());
    private Gateway gateway1;
    private Gateway gateway2;
    private @Nullable JmsTransport nodeA;
    private @Nullable DdsOrigin ddsNodeA;

    private RelayPair(KmtfCatalogue catalogue) {
        this.catalogue = catalogue;
    }

    /** Starts both sites in {@code workDir} and waits until the link is up both ways. */
    static RelayPair start(Path workDir, KmtfCatalogue catalogue, Shape shape, InboundHandler inbox)
            throws Exception {
        RelayPair pair = new RelayPair(catalogue);
        try {
            pair.open(workDir, shape, inbox);
            return pair;
        }
        catch (Exception | Error ex) {
            pair.close();
            throw ex;
        }
    }

    private void open(Path workDir, Shape shape, InboundHandler inbox) throws Exception {
        int wan1 = shape.link().kind() == LinkKind.NORM ? LoopbackPorts.freeUdp() : LoopbackPorts.freeTcp();
        int wan2 = shape.link().kind() == LinkKind.NORM ? LoopbackPorts.freeUdp() : LoopbackPorts.freeTcp();
        RoutingTable routing = RoutingTable.of(Map.of(A, List.of(), C, List.of(RoutingTable.ALL)), catalogue);
        Map<SiteId, List<NodeId>> sites = Map.of(S1, List.of(A), S2, List.of(C));
        SiteMap at1 = SiteMap.of(S1, sites);
        SiteMap at2 = SiteMap.of(S2, sites);
        Path dir1 = workDir.resolve("gw-" + S1.value());
        Path dir2 = workDir.resolve("gw-" + S2.value());
        WanLink link1 = wanLink(S1, S2, wan1, wan2, dir1, shape);
        WanLink link2 = wanLink(S2, S1, wan2, wan1, dir2, shape);
        if (shape.sealed()) {
            // Each site's own authority, as between real sites; each gateway trusts both.
            Identity gw1 = SiteAuthority.create(S1.value(), SiteAuthority.DEFAULT_AUTHORITY_VALIDITY)
                    .issue(IdentityRequest.loopback("gw-" + S1.value()), SiteAuthority.DEFAULT_IDENTITY_VALIDITY);
            Identity gw2 = SiteAuthority.create(S2.value(), SiteAuthority.DEFAULT_AUTHORITY_VALIDITY)
                    .issue(IdentityRequest.loopback("gw-" + S2.value()), SiteAuthority.DEFAULT_IDENTITY_VALIDITY);
            List<X509Certificate> authorities = List.of(gw1.authority(), gw2.authority());
            link1 = new SealedWanLink(link1, SiteCredentials.of(S1, gw1.certificate(), gw1.privateKey(), authorities,
                    Map.of(S2, gw2.certificate())), RelayPair::refused);
            link2 = new SealedWanLink(link2, SiteCredentials.of(S2, gw2.certificate(), gw2.privateKey(), authorities,
                    Map.of(S1, gw1.certificate())), RelayPair::refused);
        }
        if (shape.lan() == Lan.DDS) {
            DdsTransport nodeC = remember(new DdsTransport(C, catalogue, routing.subscriptions(C), ddsLan(LAN_S2)));
            nodeC.open();
            nodeC.subscribe(inbox);
            gateway2 = remember(new Gateway(S2, link2, ddsLanSide(S2, LAN_S2, at2, routing), dir2, shape, routing,
                    at2));
            gateway1 = remember(new Gateway(S1, link1, ddsLanSide(S1, LAN_S1, at1, routing), dir1, shape, routing,
                    at1));
            ddsNodeA = remember(new DdsOrigin(new DdsTransport(A, catalogue, routing.subscriptions(A),
                    ddsLan(LAN_S1)), C));
        }
        else {
            int lan1 = LoopbackPorts.freeTcp();
            int lan2 = LoopbackPorts.freeTcp();
            int portC = LoopbackPorts.freeTcp();
            JmsTransport nodeC = remember(new JmsTransport(nodeSettings(C, portC, workDir, Map.of())));
            nodeC.open();
            nodeC.subscribe(inbox);
            gateway2 = remember(new Gateway(S2, link2, jmsLanSide(S2, lan2, Map.of(C, portC), dir2, routing, at2),
                    dir2, shape, routing, at2));
            gateway1 = remember(new Gateway(S1, link1, jmsLanSide(S1, lan1, Map.of(), dir1, routing, at1), dir1,
                    shape, routing, at1));
            nodeA = remember(new JmsTransport(shape.feed() == Feed.SITE_BROKER
                    // On a shared broker a peer has no URL: its queue is on the same broker.
                    ? nodeSettings(A, LoopbackPorts.freeTcp(), workDir, Map.of()).withBrokerUrl(url(lan1))
                            .withPeers(Map.of(C, new JmsTransportSettings.Peer(null, null, null)))
                    : nodeSettings(A, LoopbackPorts.freeTcp(), workDir, Map.of(C, lan1))));
            nodeA.open();
        }
        long deadline = System.nanoTime() + READY.toNanos();
        while (gateway1.engine.link().state(S2) != LinkState.UP || gateway2.engine.link().state(S1) != LinkState.UP) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("The link between the gateways of s1 and s2 did not come up within "
                        + READY.toSeconds() + " s");
            }
            TimeUnit.MILLISECONDS.sleep(50);
        }
        if (ddsNodeA != null) {
            // A RELIABLE sample written before gateway 1's reader matched would wait for node a's resend. Gateway 1
            // reads every type c, its one remote node, subscribes to.
            Map<String, Integer> readers = new java.util.TreeMap<>();
            routing.subscriptions(C).forEach(type -> readers.put(type, 1));
            Map<String, String> missing = ddsNodeA.transport().awaitRemoteReaders(readers,
                    Duration.ofNanos(Math.max(0, deadline - System.nanoTime())));
            if (!missing.isEmpty()) {
                throw new IllegalStateException("Gateway 1 did not read node a's topics within " + READY.toSeconds()
                        + " s: " + missing);
            }
        }
    }

    /**
     * Node a sends, as a node's bridge does: returns once its broker holds the batch durably (JMS), or once its
     * writers took it (DDS; node a keeps it, and publishes it again, until gateway 1 receipted it).
     */
    void send(List<Outbound> batch) throws TransportException, InterruptedException {
        if (ddsNodeA != null) {
            ddsNodeA.send(batch);
        }
        else {
            nodeA.send(batch);
        }
    }

    /** Bytes of ROUTINE copies gateway 1 holds for site s2: the backlog not yet receipted by gateway 2. */
    long routineBacklogBytes() {
        return gateway1.store.stats().level(Route.peer(S2), Precedence.ROUTINE).bytes();
    }

    /** Copies gateway 1 holds for site s2, every precedence. */
    long backlogCopies() {
        var stats = gateway1.store.stats();
        long copies = 0;
        for (Precedence precedence : Precedence.values()) {
            copies += stats.level(Route.peer(S2), precedence).copies();
        }
        return copies;
    }

    /**
     * Whether everything sent so far is done with: neither gateway holds a copy, and (DDS sites) node a waits for no
     * receipt. Work left over from one phase would otherwise run during the next.
     */
    boolean settled() {
        DdsOrigin origin = ddsNodeA;
        return gateway1.store.stats().bytes() == 0 && gateway2.store.stats().bytes() == 0
                && (origin == null || origin.unreceipted() == 0);
    }

    /**
     * Has each gateway's PostgreSQL write out what a warm-up left (a checkpoint) and clear the dead rows of the
     * stored and removed copies (a vacuum), which it would otherwise do on its own schedule, during the next phase.
     */
    void tidyStores() throws java.sql.SQLException {
        for (Gateway gateway : List.of(gateway1, gateway2)) {
            WarmUpTidy.tidy(gateway.pool, "relay_copy");
        }
    }

    /** Bytes of frames (DATA, and RECEIPT for what the peer sent) gateway 1 sent: {@code gateway.wan.bytes}. */
    double wanBytesSent1() {
        return sum(gateway1.registry, MetricNames.WAN_BYTES, MetricNames.TAG_DIRECTION, "sent");
    }

    /** Bytes of frames gateway 2 sent: here only RECEIPT frames for gateway 1's DATA frames. */
    double wanBytesSent2() {
        return sum(gateway2.registry, MetricNames.WAN_BYTES, MetricNames.TAG_DIRECTION, "sent");
    }

    /** DATA frames gateway 1 sent ({@code gateway.wan.frames}, direction sent, kind data). */
    double dataFramesSent1() {
        return gateway1.registry.find(MetricNames.WAN_FRAMES).tag(MetricNames.TAG_DIRECTION, "sent")
                .tag(MetricNames.TAG_KIND, "data").counters().stream().mapToDouble(Counter::count).sum();
    }

    /** Messages gateway 1 stored from its LAN ({@code gateway.wan.relayed}, direction lan-in). */
    double storedFromLan1() {
        return sum(gateway1.registry, MetricNames.WAN_RELAYED, MetricNames.TAG_DIRECTION,
                RelayMetrics.Direction.LAN_IN.label());
    }

    /** Messages gateway 1 passed to gateway 2 (receipted) and gateway 2 passed to its LAN: where a backlog sits. */
    String stages() {
        String stages = String.format(java.util.Locale.ROOT, "stored at gateway 1 %.0f, receipted by gateway 2 %.0f, "
                + "delivered by gateway 2 %.0f", storedFromLan1(),
                sum(gateway1.registry, MetricNames.WAN_RELAYED, MetricNames.TAG_DIRECTION,
                        RelayMetrics.Direction.WAN_OUT.label()),
                sum(gateway2.registry, MetricNames.WAN_RELAYED, MetricNames.TAG_DIRECTION,
                        RelayMetrics.Direction.LAN_OUT.label()));
        double forwarded = sum(gateway2.registry, MetricNames.WAN_CUSTODY_STEPS, "way", "forwarded");
        if (forwarded > 0) {
            stages += String.format(java.util.Locale.ROOT, ", custody steps forwarded by gateway 2 %.0f, kept by "
                    + "gateway 1 %.0f", forwarded,
                    sum(gateway1.registry, MetricNames.WAN_CUSTODY_STEPS, "way", "received"));
        }
        DdsOrigin origin = ddsNodeA;
        return origin == null ? stages
                : stages + String.format(java.util.Locale.ROOT, " (node a: %d not yet receipted, %d published again)",
                        origin.unreceipted(), origin.resent());
    }

    private static double sum(SimpleMeterRegistry registry, String name, String tag, String value) {
        return registry.find(name).tag(tag, value).counters().stream().mapToDouble(Counter::count).sum();
    }

    private <T extends AutoCloseable> T remember(T closeable) {
        opened.add(closeable);
        return closeable;
    }

    @Override
    public void close() {
        for (AutoCloseable closeable : opened.reversed()) {
            try {
                closeable.close();
            }
            catch (Exception ex) {
                // Closing the rest matters more; the benchmark's figures are taken already.
            }
        }
        opened.clear();
    }

    /** A node's or a gateway's LAN broker and its peers, with the gateway's default batch and bridge retry. */
    private JmsTransportSettings nodeSettings(NodeId id, int port, Path workDir, Map<NodeId, Integer> peers) {
        Map<NodeId, JmsTransportSettings.Peer> urls = new java.util.TreeMap<>();
        peers.forEach((peer, peerPort) -> urls.put(peer, JmsTransportSettings.Peer.at(url(peerPort))));
        return JmsTransportSettings.of(id, USER, password,
                JmsTransportSettings.Embedded.at("127.0.0.1", port, workDir.resolve("broker-" + id.value())),
                JmsTransportSettings.Receive.of(500), JmsTransportSettings.Bridge.of(Duration.ofSeconds(2)))
                .withPeers(urls);
    }

    private static String url(int port) {
        return "tcp://127.0.0.1:" + port;
    }


    /** Nothing but the two gateways is on the bench's loopback: a refused frame is a defect. */
    private static void refused(SiteId from, RefusalReason reason) {
        throw new IllegalStateException("A frame from " + from + " was refused: " + reason.label());
    }

    /** A gateway's WAN link as the gateway's wiring builds it, on loopback. */
    private WanLink wanLink(SiteId self, SiteId peer, int wanPort, int peerWanPort, Path dir, Shape shape) {
        return switch (shape.link().kind()) {
            case NORM -> new NormWanLink(NormLinkSettings.of(self, Map.of(peer, "127.0.0.1:" + peerWanPort),
                    shape.budgetBitsPerSecond()).withEndpoint("127.0.0.1", wanPort)
                    .withTxLoss(shape.link().txLossPercent()));
            case DDS -> new DdsWanLink(DdsLinkSettings.builder(WAN_DOMAIN, self).peer(peer, "127.0.0.1")
                    .networkInterface("127.0.0.1").build());
            case JMS -> new JmsWanLink(JmsLinkSettings.of(self, USER, password,
                    JmsTransportSettings.Embedded.at("127.0.0.1", wanPort, dir.resolve("wan-broker")),
                    Math.max(1, shape.budgetBitsPerSecond() / 8))
                    .withPeers(Map.of(peer, JmsLinkSettings.Peer.at(url(peerWanPort))))
                    // The peer's broker starts a few seconds later: find it soon after, not after 8 s of backoff.
                    .withReconnectBackoff(Duration.ofMillis(100), Duration.ofSeconds(1)),
                    List.of(JournalBufferTimeout.RELAY));
        };
    }

    /** A gateway's JMS LAN side: its own broker, which bridges to the site's nodes' brokers. */
    private JmsLanSide jmsLanSide(SiteId self, int lanPort, Map<NodeId, Integer> localNodes, Path dir,
            RoutingTable routing, SiteMap sites) {
        return new JmsLanSide(nodeSettings(NodeId.of("gw-" + self.value()), lanPort, dir, localNodes), sites, routing,
                catalogue, List.of(JournalBufferTimeout.RELAY));
    }

    /**
     * A gateway's DDS LAN side on its site's domain, with the defaults of {@code gateway.wan.lan.dds.*} (its larger
     * batch than a node's among them).
     */
    private DdsLanSide ddsLanSide(SiteId self, int domain, SiteMap sites, RoutingTable routing) {
        return new DdsLanSide(NodeId.of("gw-" + self.value()), sites, routing, catalogue,
                ddsLan(domain).toBuilder().maxBatch(LanProperties.Dds.DEFAULT_MAX_BATCH).build(), Duration.ofSeconds(2),
                Duration.ofSeconds(30));
    }

    /**
     * A participant on a site's domain, unicast on loopback, with the defaults a node's ({@code gateway.dds.*}) and
     * the gateway's ({@code gateway.wan.lan.dds.*}) share: 10 s write timeout, 4,096 BEST_EFFORT samples, 1,400-byte
     * datagrams.
     */
    private static DdsTransportSettings ddsLan(int domain) {
        return DdsTransportSettings.builder(Duration.ofSeconds(10), 4096)
                .participant(ParticipantSettings.builder().domainId(domain).networkInterface("127.0.0.1")
                        .multicast(false).peers(List.of("127.0.0.1")).maxDatagramSize(1400).build())
                .build();
    }

    /** A gateway's custody log as the gateway's wiring makes it. */
    private static CustodyLog custodyLog(SiteId self, WanLink link, SiteMap sites, Custody custody) {
        return switch (custody) {
            case OFF -> CustodyLog.off();
            case LOGGED -> new CustodyLog(self.value(), link.kind()).bloomed();
            case LOGGED_AND_FORWARDED -> new CustodyLog(self.value(), link.kind()).bloomed().forwarding(
                    sites::isRemote, ForwardedStep.EVENTS);
        };
    }

    /** Applies the WAN gateway's Flyway migrations (their own location, apart from db-bridge's). */
    private static void migrate(javax.sql.DataSource dataSource) {
        Flyway.configure().dataSource(dataSource).locations(RelayStore.MIGRATIONS).load().migrate();
    }

    /** One site's gateway: its database, store, link, LAN side and engine, built as the Spring wiring builds them. */
    private final class Gateway implements AutoCloseable {

        final EmbeddedDatabase database;
        final HikariDataSource pool;
        final RelayStore store;
        final SimpleMeterRegistry registry = new SimpleMeterRegistry();
        final @Nullable CustodyIndexMerger merger;
        final RelayEngine engine;

        Gateway(SiteId self, WanLink link, LanSide lan, Path dir, Shape shape, RoutingTable routing, SiteMap sites)
                throws Exception {
            database = EmbeddedDatabase.start(dir.resolve("pgdata"), dir.resolve("pg.password"),
                    EmbeddedPostgres.builder().setCleanDataDirectory(true));
            try {
                pool = new HikariDataSource();
                pool.setJdbcUrl(database.jdbcUrl());
                pool.setUsername(EmbeddedDatabase.USER);
                pool.setPassword(database.password());
                pool.setMaximumPoolSize(8);
                pool.setPoolName("wan-bench-" + self.value());
                migrate(pool);
                store = RelayStore.opened(pool, StoreLimits.of(1L << 30), RelayStore.DEFAULT_CACHE_BYTES,
                        Clock.systemUTC(), custodyLog(self, link, sites, shape.custody()));
                // As the gateway's wiring runs it beside a custody log: without it the index's pending list is merged
                // by the custody step that finds it full, a second's pause.
                merger = shape.custody() != Custody.OFF ? new CustodyIndexMerger(pool, registry) : null;
                if (merger != null) {
                    merger.start();
                }
                RelayPolicy policy = RelayPolicy.allowAll(catalogue);
                // The defaults of gateway.wan.* and gateway.wan.schedule.*, but the budget, frame size, burst and
                // window.
                RelayEngine.Settings settings = new RelayEngine.Settings(shape.frameTargetBytes(),
                        Duration.ofSeconds(15), shape.budgetBitsPerSecond(), shape.burstBytes(), shape.window(), 0.05,
                        1500, 256 * 1024);
                FrameCodec codec = new FrameCodec(shape.compression());
                engine = new RelayEngine(sites, new SiteRoutes(self, link.peers(), Map.of()), routing, catalogue,
                        store, () -> policy, policy, link, lan, codec, new RelayMetrics(registry), settings,
                        Clock.systemUTC());
                engine.start();
            }
            catch (Exception | Error ex) {
                close();
                throw ex;
            }
        }

        @Override
        public void close() {
            if (engine != null) {
                engine.close();
            }
            if (merger != null) {
                merger.stop();
            }
            if (store != null) {
                store.close();
            }
            if (pool != null) {
                pool.close();
            }
            try {
                database.close();
            }
            catch (IOException ex) {
                // the data directory goes with the work directory
            }
        }
    }
}
