package kr.c4i.gateway.wan.relay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.sql.Connection;
import java.security.cert.X509Certificate;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Collectors;

import com.zaxxer.hikari.HikariDataSource;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import kr.c4i.gateway.core.Envelope;
import kr.c4i.gateway.core.NodeId;
import kr.c4i.gateway.core.link.SiteId;
import kr.c4i.gateway.core.link.WanLink;
import kr.c4i.gateway.core.routing.RoutingTable;
import kr.c4i.gateway.core.transport.Outbound;
import kr.c4i.gateway.dds.ParticipantSettings;
import kr.c4i.gateway.dds.link.DdsLinkSettings;
import kr.c4i.gateway.dds.link.DdsWanLink;
import kr.c4i.gateway.dds.transport.DdsTransport;
import kr.c4i.gateway.dds.transport.DdsTransportSettings;
import kr.c4i.gateway.kmtf.catalogue.KmtfCatalogue;
import kr.c4i.gateway.norm.link.NormLinkSettings;
import kr.c4i.gateway.norm.link.NormWanLink;
import kr.c4i.gateway.pki.Identity;
import kr.c4i.gateway.pki.IdentityRequest;
import kr.c4i.gateway.pki.SiteAuthority;
import kr.c4i.gateway.ports.LoopbackPorts;
import kr.c4i.gateway.wan.frame.FrameCodec;
import kr.c4i.gateway.wan.lan.DdsLanSide;
import kr.c4i.gateway.wan.metrics.RelayMetrics;
import kr.c4i.gateway.wan.policy.RelayPolicy;
import kr.c4i.gateway.wan.schedule.ExpiryRule;
import kr.c4i.gateway.wan.seal.RefusalReason;
import kr.c4i.gateway.wan.seal.SealedWanLink;
import kr.c4i.gateway.wan.seal.SiteCredentials;
import kr.c4i.gateway.wan.site.SiteMap;
import kr.c4i.gateway.wan.store.RelayStore;
import kr.c4i.gateway.wan.store.StoreLimits;

/**
 * The relay engine over DDS in one JVM: each site's LAN its own Cyclone domain with a real DDS node, the gateways
 * joined by the dds link on a WAN domain of its own, unicast on loopback (or by the norm link, on loopback too). Node
 * a learns from its receipts that c has the messages: the gateway receipted as c once it had stored them.
 */
@Timeout(240)
class RelayEngineDdsTest {

    static final KmtfCatalogue CATALOGUE = KmtfCatalogue.loadDefault();
    static final SiteId S1 = SiteId.of("s1");
    static final SiteId S2 = SiteId.of("s2");
    static final NodeId A = NodeId.of("a");
    static final NodeId C = NodeId.of("c");
    static final Map<SiteId, List<NodeId>> SITES = Map.of(S1, List.of(A), S2, List.of(C));
    static final RoutingTable ROUTING = RoutingTable.of(Map.of(A, List.of("*"), C, List.of("*")), CATALOGUE);
    // A domain per site and one for the WAN, from the process id, so concurrent builds on one host rarely meet.
    static final int BASE = 1 + (int) (ProcessHandle.current().pid() % 70);

    private final List<AutoCloseable> opened = new ArrayList<>();
    private final Map<SiteId, HikariDataSource> pools = new ConcurrentHashMap<>();

    @AfterEach
    void close() throws Exception {
        for (AutoCloseable closeable : opened.reversed()) {
            closeable.close();
        }
    }

    @Test
    void reliableMessagesCrossBothWaysOnceAndTheOriginsSeeTheRemoteNodesReceipts() throws Exception {
        EmbeddedPostgres postgres = EmbeddedPostgres.builder().start();
        opened.add(postgres);
        Map<String, List<Envelope>> inboxA = new ConcurrentHashMap<>();
        Map<String, List<Envelope>> inboxC = new ConcurrentHashMap<>();
        Set<String> receiptsAtA = ConcurrentHashMap.newKeySet();
        DdsTransport a = node(A, BASE, inboxA, receiptsAtA, C);
        DdsTransport c = node(C, BASE + 70, inboxC, ConcurrentHashMap.newKeySet(), A);
        gateway(postgres, S1, BASE, ddsLink(S1, S2), SETTINGS);
        gateway(postgres, S2, BASE + 70, ddsLink(S2, S1), SETTINGS);
        List<Envelope> fromA = RelayEngineJmsTest.messages(A, 200, null, 200);
        List<Envelope> fromC = RelayEngineJmsTest.messages(C, 200, null, 200);

        send(a, fromA);
        send(c, fromC);

        await().atMost(Duration.ofSeconds(90)).until(() -> inboxC.size() == 200 && inboxA.size() == 200);
        assertThat(inboxC.keySet()).isEqualTo(ids(fromA));
        assertThat(inboxA.keySet()).isEqualTo(ids(fromC));
        assertThat(inboxC.values()).allMatch(copies -> copies.size() == 1);
        assertThat(inboxA.values()).allMatch(copies -> copies.size() == 1);
        await().atMost(Duration.ofSeconds(30)).until(() -> receiptsAtA.containsAll(ids(fromA)));
    }

    /**
     * Over the norm link at 256 kbit/s with 30% of NORM's packets lost, NORM spends part of its rate on repair; the
     * senders hand it frames only while what it has not yet sent stays within two frames, so a FLASH frame would
     * wait behind no more, and the backlog still crosses whole, once each.
     */
    @Test
    void overTheNormLinkUnderLossTheSenderKeepsTheLinksQueueShortAndEverythingArrivesOnce() throws Exception {
        EmbeddedPostgres postgres = EmbeddedPostgres.builder().start();
        opened.add(postgres);
        Map<String, List<Envelope>> inboxC = new ConcurrentHashMap<>();
        DdsTransport a = node(A, BASE, new ConcurrentHashMap<>(), ConcurrentHashMap.newKeySet(), C);
        node(C, BASE + 70, inboxC, ConcurrentHashMap.newKeySet(), A);
        long budget = 256_000;
        int s1Port = LoopbackPorts.freeUdp();
        int s2Port = LoopbackPorts.freeUdp();
        NormWanLink s1Link = normLink(S1, s1Port, S2, s2Port, budget, 30);
        NormWanLink s2Link = normLink(S2, s2Port, S1, s1Port, budget, 30);
        // A window of a whole second: without the queue bound, NORM's queue would grow towards it under loss.
        RelayEngine.Settings settings = normSettings(budget, Duration.ofSeconds(30));
        gateway(postgres, S1, BASE, s1Link, settings);
        gateway(postgres, S2, BASE + 70, s2Link, settings);
        List<Envelope> fromA = RelayEngineJmsTest.messages(A, 4000, null, 200);
        AtomicLong deepest = new AtomicLong();
        Thread watcher = Thread.ofPlatform().daemon().start(() -> {
            while (!Thread.currentThread().isInterrupted()) {
                deepest.accumulateAndGet(s1Link.queuedBytes(S2), Math::max);
                LockSupport.parkNanos(200_000);
            }
        });
        try {
            send(a, fromA);
            await().atMost(Duration.ofSeconds(120)).until(() -> inboxC.size() == fromA.size());
        }
        finally {
            watcher.interrupt();
        }
        assertThat(inboxC.keySet()).isEqualTo(ids(fromA));
        assertThat(inboxC.values()).allMatch(copies -> copies.size() == 1);
        int frameBytes = RelayEngine.frameBytes(settings, s1Link.maxFrameBytes());
        assertThat(deepest.get()).as("the most NORM held unsent for s2").isPositive()
                .isLessThanOrEqualTo(RelayEngine.linkQueueBytes(budget, frameBytes) + s1Link.maxFrameBytes());
    }

    /**
     * A peer gateway that restarts is DOWN and at once UP again on the norm link (its NORM sender comes back as a new
     * instance): the frames sent to it and not yet receipted are lost with it (the receipts it owed went with it too),
     * and go again at once, not after the receipt timeout (ten minutes here, so only the link's DOWN can bring them).
     * Until they are receipted their copies stay in s1's custody.
     */
    @Test
    void overTheNormLinkWhatWasInFlightToARestartedPeerGoesAgainAtOnce() throws Exception {
        EmbeddedPostgres postgres = EmbeddedPostgres.builder().start();
        opened.add(postgres);
        Map<String, List<Envelope>> inboxC = new ConcurrentHashMap<>();
        DdsTransport a = node(A, BASE, new ConcurrentHashMap<>(), ConcurrentHashMap.newKeySet(), C);
        node(C, BASE + 70, inboxC, ConcurrentHashMap.newKeySet(), A);
        long budget = 64_000;
        int s1Port = LoopbackPorts.freeUdp();
        int s2Port = LoopbackPorts.freeUdp();
        RelayEngine.Settings settings = normSettings(budget, Duration.ofMinutes(10));
        gateway(postgres, S1, BASE, normLink(S1, s1Port, S2, s2Port, budget, 0), settings);
        RelayEngine s2 = gateway(postgres, S2, BASE + 70, normLink(S2, s2Port, S1, s1Port, budget, 0), settings);
        // About four seconds of the 64 kbit/s link: frames are in flight to s2 when it stops.
        List<Envelope> fromA = RelayEngineJmsTest.messages(A, 600, null, 200);
        send(a, fromA);
        await().atMost(Duration.ofSeconds(60)).until(() -> !inboxC.isEmpty());

        s2.close();
        s2.store().close();
        engine(pools.get(S2), S2, BASE + 70, normLink(S2, s2Port, S1, s1Port, budget, 0), settings);

        await().atMost(Duration.ofSeconds(120)).until(() -> inboxC.keySet().containsAll(ids(fromA)));
        assertThat(inboxC.keySet()).isEqualTo(ids(fromA));
        await().alias("s1's custody empty").atMost(Duration.ofSeconds(60)).until(() -> copiesHeld(S1, "s2") == 0);
    }

    /**
     * Over norm links sealed with the gateways' site certificates (docs/wan-gateway.md, "Security"): DATA frames and
     * the RECEIPT frames that end custody both cross sealed, every message arrives once and s1's custody empties.
     */
    @Test
    void overSealedNormLinksEveryMessageArrivesOnceAndCustodyEnds() throws Exception {
        EmbeddedPostgres postgres = EmbeddedPostgres.builder().start();
        opened.add(postgres);
        Map<String, List<Envelope>> inboxC = new ConcurrentHashMap<>();
        DdsTransport a = node(A, BASE, new ConcurrentHashMap<>(), ConcurrentHashMap.newKeySet(), C);
        node(C, BASE + 70, inboxC, ConcurrentHashMap.newKeySet(), A);
        long budget = 256_000;
        int s1Port = LoopbackPorts.freeUdp();
        int s2Port = LoopbackPorts.freeUdp();
        SiteAuthority ca1 = SiteAuthority.create("s1", SiteAuthority.DEFAULT_AUTHORITY_VALIDITY);
        SiteAuthority ca2 = SiteAuthority.create("s2", SiteAuthority.DEFAULT_AUTHORITY_VALIDITY);
        Identity gw1 = ca1.issue(IdentityRequest.loopback("gw-s1"), SiteAuthority.DEFAULT_IDENTITY_VALIDITY);
        Identity gw2 = ca2.issue(IdentityRequest.loopback("gw-s2"), SiteAuthority.DEFAULT_IDENTITY_VALIDITY);
        List<X509Certificate> trusted = List.of(ca1.certificate(), ca2.certificate());
        SealedWanLink s1Link = new SealedWanLink(normLink(S1, s1Port, S2, s2Port, budget, 0),
                SiteCredentials.of(S1, gw1.certificate(), gw1.privateKey(), trusted, Map.of(S2, gw2.certificate())),
                (from, reason) -> { });
        SealedWanLink s2Link = new SealedWanLink(normLink(S2, s2Port, S1, s1Port, budget, 0),
                SiteCredentials.of(S2, gw2.certificate(), gw2.privateKey(), trusted, Map.of(S1, gw1.certificate())),
                (from, reason) -> { });
        RelayEngine.Settings settings = normSettings(budget, Duration.ofSeconds(30));
        gateway(postgres, S1, BASE, s1Link, settings);
        gateway(postgres, S2, BASE + 70, s2Link, settings);
        List<Envelope> fromA = RelayEngineJmsTest.messages(A, 500, null, 200);

        send(a, fromA);

        await().atMost(Duration.ofSeconds(120)).until(() -> inboxC.size() == fromA.size());
        assertThat(inboxC.keySet()).isEqualTo(ids(fromA));
        assertThat(inboxC.values()).allMatch(copies -> copies.size() == 1);
        await().alias("s1's custody empty").atMost(Duration.ofSeconds(60)).until(() -> copiesHeld(S1, "s2") == 0);
        for (RefusalReason reason : RefusalReason.values()) {
            assertThat(s2Link.refused(reason) + s1Link.refused(reason)).as(reason.label()).isZero();
        }
    }

    private long copiesHeld(SiteId site, String route) throws java.sql.SQLException {
        try (Connection conn = pools.get(site).getConnection();
                var query = conn.prepareStatement("SELECT count(*) FROM relay_copy WHERE route = ?")) {
            query.setString(1, route);
            try (var rows = query.executeQuery()) {
                rows.next();
                return rows.getLong(1);
            }
        }
    }

    /**
     * A norm link on loopback dropping {@code txLossPercent} of its own packets, whose peer timeout (a minute) leaves
     * only a restart to put the peer DOWN.
     */
    private static NormWanLink normLink(SiteId site, int port, SiteId peer, int peerPort, long budget,
            double txLossPercent) {
        return new NormWanLink(NormLinkSettings.of(site, Map.of(peer, "127.0.0.1:" + peerPort), budget)
                .withEndpoint("127.0.0.1", port).withTxLoss(txLossPercent).withPeerTimeout(Duration.ofSeconds(60)));
    }

    private void send(DdsTransport node, List<Envelope> envelopes) throws Exception {
        List<Outbound> batch = new ArrayList<>();
        for (Envelope e : envelopes) {
            var type = CATALOGUE.find(e.kmtfType()).orElseThrow();
            batch.add(new Outbound(e, type, ROUTING.destinations(type.id(), e.origin())));
        }
        node.send(batch);
    }

    private DdsTransport node(NodeId id, int domain, Map<String, List<Envelope>> inbox, Set<String> receipts,
            NodeId receiptsFrom) throws Exception {
        DdsTransport transport = new DdsTransport(id, CATALOGUE, ROUTING.subscriptions(id), lan(domain));
        opened.add(transport);
        transport.onReceipts((receiver, ids) -> {
            if (receiver.equals(receiptsFrom)) {
                receipts.addAll(ids);
            }
        });
        transport.open();
        transport.subscribe(batch -> batch.forEach(
                e -> inbox.computeIfAbsent(e.messageId(), k -> new CopyOnWriteArrayList<>()).add(e)));
        return transport;
    }

    private static final RelayEngine.Settings SETTINGS = new RelayEngine.Settings(1200, Duration.ofSeconds(10),
            20_000_000L, 1400, Duration.ofSeconds(1), 0.05, 1500, 256 * 1024);

    /** The norm tests' engines: frames of 1,200 bytes at the budget, a window of a whole second. */
    private static RelayEngine.Settings normSettings(long budget, Duration receiptTimeout) {
        return new RelayEngine.Settings(1200, receiptTimeout, budget, 1400, Duration.ofSeconds(1), 0.05, 1500,
                256 * 1024);
    }

    private static DdsWanLink ddsLink(SiteId site, SiteId peer) {
        return new DdsWanLink(DdsLinkSettings.builder(BASE + 140, site).peer(peer, "127.0.0.1")
                .networkInterface("127.0.0.1").peerTimeout(Duration.ofSeconds(10)).build());
    }

    private RelayEngine gateway(EmbeddedPostgres postgres, SiteId site, int lanDomain, WanLink link,
            RelayEngine.Settings settings) throws Exception {
        String name = "gw_" + site.value();
        try (Connection conn = postgres.getPostgresDatabase().getConnection(); Statement s = conn.createStatement()) {
            s.execute("CREATE DATABASE " + name);
        }
        Flyway.configure().dataSource(postgres.getDatabase("postgres", name)).locations(RelayStore.MIGRATIONS)
                .load().migrate();
        HikariDataSource pool = new HikariDataSource();
        pool.setJdbcUrl(postgres.getJdbcUrl("postgres", name));
        pool.setMaximumPoolSize(4);
        opened.add(pool);
        pools.put(site, pool);
        return engine(pool, site, lanDomain, link, settings);
    }

    /** A gateway's engine on its store's database: started, and closed after the test unless closed before. */
    private RelayEngine engine(HikariDataSource pool, SiteId site, int lanDomain, WanLink link,
            RelayEngine.Settings settings) throws Exception {
        SiteMap sites = SiteMap.of(site, SITES);
        // The tests count copies in c's raw handler, before an inbox would drop a second one by message id: the LAN
        // side publishes again only after 30 s, so a receipt that a loaded machine slows brings no second copy.
        DdsLanSide lan = new DdsLanSide(NodeId.of("gw-" + site.value()), sites, ROUTING, CATALOGUE, lan(lanDomain),
                Duration.ofSeconds(30), Duration.ofSeconds(60));
        RelayPolicy policy = RelayPolicy.allowAll(CATALOGUE);
        RelayStore store = RelayStore.opened(pool, StoreLimits.of(64L * 1024 * 1024), Clock.systemUTC());
        opened.add(store);
        RelayEngine engine = new RelayEngine(sites, new SiteRoutes(site, link.peers(), Map.of()), ROUTING, CATALOGUE,
                store, () -> policy,
                ExpiryRule.NEVER, link, lan, FrameCodec.standard(), new RelayMetrics(new SimpleMeterRegistry()),
                settings, Clock.systemUTC());
        opened.add(engine);
        engine.start();
        return engine;
    }

    private static DdsTransportSettings lan(int domain) {
        return DdsTransportSettings.builder(Duration.ofSeconds(10), 4096)
                .participant(ParticipantSettings.builder().domainId(domain).networkInterface("127.0.0.1")
                        .multicast(false).peers(List.of("127.0.0.1")).build())
                .build();
    }

    private static Set<String> ids(List<Envelope> envelopes) {
        return envelopes.stream().map(Envelope::messageId).collect(Collectors.toSet());
    }
}
