package kr.c4i.gateway.wan;

import java.sql.SQLException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.BooleanSupplier;

import javax.sql.DataSource;

import io.micrometer.core.instrument.MeterRegistry;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.sql.init.dependency.DependsOnDatabaseInitialization;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.DependsOn;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.util.Assert;

import kr.c4i.gateway.core.NodeId;
import kr.c4i.gateway.core.link.SiteId;
import kr.c4i.gateway.core.link.WanLink;
import kr.c4i.gateway.core.routing.Clearances;
import kr.c4i.gateway.core.routing.RoutingTable;
import kr.c4i.gateway.core.transport.InvalidSettingsException;
import kr.c4i.gateway.core.transport.TransportHealth;
import kr.c4i.gateway.core.transport.TransportKind;
import kr.c4i.gateway.custody.CustodyLog;
import kr.c4i.gateway.custody.CustodyProperties;
import kr.c4i.gateway.dds.ParticipantSettings;
import kr.c4i.gateway.dds.link.DdsLinkSettings;
import kr.c4i.gateway.dds.link.DdsWanLink;
import kr.c4i.gateway.dds.transport.DdsTransportSettings;
import kr.c4i.gateway.jdbc.DatabaseOwner;
import kr.c4i.gateway.jms.BrokerTls;
import kr.c4i.gateway.jms.EmbeddedBrokerCustomizer;
import kr.c4i.gateway.jms.JmsTransportSettings;
import kr.c4i.gateway.jms.JournalBufferTimeout;
import kr.c4i.gateway.jms.link.JmsLinkSettings;
import kr.c4i.gateway.jms.link.JmsWanLink;
import kr.c4i.gateway.norm.link.NormLinkSettings;
import kr.c4i.gateway.norm.link.NormWanLink;
import kr.c4i.gateway.kmtf.catalogue.KmtfCatalogue;
import kr.c4i.gateway.tracing.MessageTracing;
import kr.c4i.gateway.wan.config.BrokerPairProperties;
import kr.c4i.gateway.wan.config.BrokerTlsProperties;
import kr.c4i.gateway.kmtf.text.Classification;
import kr.c4i.gateway.wan.config.DdsLinkProperties;
import kr.c4i.gateway.wan.config.InvalidProperties;
import kr.c4i.gateway.wan.config.JmsLinkProperties;
import kr.c4i.gateway.wan.config.LanProperties;
import kr.c4i.gateway.wan.config.LinkKind;
import kr.c4i.gateway.wan.config.NormLinkProperties;
import kr.c4i.gateway.wan.config.SiteRoutingProperties;
import kr.c4i.gateway.wan.config.WanProperties;
import kr.c4i.gateway.wan.config.WanSecurityProperties;
import kr.c4i.gateway.wan.frame.FrameCodec;
import kr.c4i.gateway.wan.frame.FrameCompression;
import kr.c4i.gateway.wan.lan.DdsLanSide;
import kr.c4i.gateway.wan.lan.JmsLanSide;
import kr.c4i.gateway.wan.lan.LanSide;
import kr.c4i.gateway.wan.health.WanHealth;
import kr.c4i.gateway.wan.metrics.RelayGauges;
import kr.c4i.gateway.wan.metrics.RelayMetrics;
import kr.c4i.gateway.wan.policy.PolicyFile;
import kr.c4i.gateway.wan.relay.RelayEngine;
import kr.c4i.gateway.wan.relay.SiteRoutes;
import kr.c4i.gateway.wan.schedule.ScheduleProperties;
import kr.c4i.gateway.wan.seal.SiteCredentials;
import kr.c4i.gateway.wan.seal.WanSecurity;
import kr.c4i.gateway.wan.site.SiteMap;
import kr.c4i.gateway.wan.store.ForwardedStep;
import kr.c4i.gateway.wan.store.RelayStore;

/**
 * The gateway of one site: its site map and routing, its store, its WAN link and its LAN side, and the relay engine
 * between them. Each part is a bean an operator's own bean of the same type replaces.
 */
@Configuration(proxyBeanMethods = false)
class WanGatewayConfiguration {

    private static final Logger log = LoggerFactory.getLogger(WanGatewayConfiguration.class);

    /**
     * A message crosses several of the gateway's brokers (LAN, link) and waits for each one's journal sync: they
     * gather writes for {@link JournalBufferTimeout#RELAY}, not Artemis's 3.3 ms. An operator's own customizers run
     * after this one and win.
     */
    @Bean
    @Order(Ordered.HIGHEST_PRECEDENCE)
    @ConditionalOnMissingBean
    JournalBufferTimeout brokerJournalBufferTimeout() {
        return JournalBufferTimeout.RELAY;
    }

    @Bean
    SiteId siteId(WanProperties wan) {
        Assert.hasText(wan.site(), "gateway.wan.site must be set: this gateway's site, e.g. 's1'");
        return SiteId.of(wan.site());
    }

    @Bean
    @ConditionalOnMissingBean
    KmtfCatalogue kmtfCatalogue(WanProperties wan) {
        return wan.catalogue() == null ? KmtfCatalogue.loadDefault() : KmtfCatalogue.load(wan.catalogue());
    }

    @Bean
    @ConditionalOnMissingBean
    RoutingTable routingTable(SiteRoutingProperties routing, KmtfCatalogue catalogue) {
        Map<NodeId, List<String>> subscriptions = new LinkedHashMap<>();
        routing.subscriptions().forEach((node, patterns) -> subscriptions.put(NodeId.of(node), patterns));
        return RoutingTable.of(subscriptions, catalogue);
    }

    @Bean
    @ConditionalOnMissingBean
    SiteMap siteMap(SiteId site, SiteRoutingProperties routing) {
        Map<SiteId, List<NodeId>> sites = new LinkedHashMap<>();
        routing.sites().forEach((id, nodes) -> sites.put(SiteId.of(id), nodes.stream().map(NodeId::of).toList()));
        SiteMap map = SiteMap.of(site, sites);
        return map.withClearances(clearances(routing.clearances(), "gateway.routing.clearances",
                map.localNodes().stream().map(NodeId::value).toList(), "nodes of this site"),
                clearances(routing.siteClearances(), "gateway.routing.site-clearances",
                        map.peerSites().stream().map(SiteId::value).toList(), "sites"));
    }

    /**
     * Fail-safe: what is not listed is cleared UNCLASSIFIED only, so a forgotten site or node gets nothing classified
     * rather than everything; named in a WARN at start. An unknown level stops the start.
     */
    private static Clearances clearances(Map<String, String> configured, String property, List<String> expected,
            String what) {
        Clearances clearances = Clearances.of(configured, Classification.UNCLASSIFIED, property);
        var unlisted = clearances.unlisted(expected);
        if (!unlisted.isEmpty()) {
            log.warn("No clearance for {} {} ({}.<id>): they are cleared {} only, and get no message classified higher",
                    what, unlisted, property, clearances.unlistedClearance());
        }
        return clearances;
    }

    /** The gateway's own node id on its LAN. */
    @Bean
    NodeId gatewayNodeId(WanProperties wan, SiteId site) {
        return NodeId.of(wan.nodeId() != null ? wan.nodeId() : "gw-" + site.value());
    }

    @Bean
    @ConditionalOnMissingBean
    SiteRoutes siteRoutes(SiteId site, WanLink link, WanProperties wan) {
        Map<SiteId, SiteId> via = new LinkedHashMap<>();
        wan.routes().forEach((destination, hop) -> via.put(SiteId.of(destination), SiteId.of(hop)));
        return new SiteRoutes(site, link.peers(), via);
    }

    @Bean
    @ConditionalOnMissingBean
    Clock clock() {
        return Clock.systemUTC();
    }

    /** This site's claim on the relay store's database, before the store opens it. */
    @Bean
    @DependsOnDatabaseInitialization
    DatabaseOwner databaseOwner(DataSource dataSource, SiteId site) throws SQLException {
        return DatabaseOwner.claimed(dataSource, "The relay store", "site", site.value(), "gateway.wan.site");
    }

    @Bean
    @ConditionalOnMissingBean
    @DependsOnDatabaseInitialization
    @DependsOn("databaseOwner")
    RelayStore relayStore(DataSource dataSource, WanProperties wan, Clock clock, CustodyLog custody) {
        return new RelayStore(dataSource, wan.store().limits(), wan.store().cacheSize().toBytes(), clock, custody);
    }

    /** The custody log of this site's steps, over its WAN link (its LAN's steps say {@code lan}); the user's wins. */
    @Bean
    @ConditionalOnMissingBean
    CustodyLog custodyLog(CustodyProperties custody, SiteId site, SiteMap sites, WanLink link) {
        if (!custody.enabled()) {
            return CustodyLog.off();
        }
        CustodyLog log = new CustodyLog(site.value(), link.kind()).bloomed();
        return custody.forward() ? log.forwarding(sites::isRemote, ForwardedStep.EVENTS) : log;
    }

    @Bean
    @ConditionalOnMissingBean(WanLink.class)
    WanLink wanLink(WanProperties wan, SiteId site, ScheduleProperties schedule, ObjectProvider<DdsLinkProperties> dds,
            ObjectProvider<JmsLinkProperties> jms, ObjectProvider<NormLinkProperties> norm,
            ObjectProvider<EmbeddedBrokerCustomizer> customizers, WanSecurityProperties security,
            MeterRegistry registry) {
        // Checked before the link opens anything: a gateway that cannot prove its site does not start.
        SiteCredentials credentials = WanSecurity.credentials(security, site);
        WanLink link = link(wan, site, schedule, dds, jms, norm, customizers);
        if (link instanceof NormWanLink normLink) {
            RelayGauges.registerNormLink(registry, normLink);
        }
        return credentials == null ? link : WanSecurity.seal(link, credentials, registry);
    }

    private static WanLink link(WanProperties wan, SiteId site, ScheduleProperties schedule,
            ObjectProvider<DdsLinkProperties> dds, ObjectProvider<JmsLinkProperties> jms,
            ObjectProvider<NormLinkProperties> norm, ObjectProvider<EmbeddedBrokerCustomizer> customizers) {
        if (wan.link() == LinkKind.NORM) {
            NormLinkProperties p = norm.getObject();
            Map<SiteId, String> peers = new LinkedHashMap<>();
            p.peers().forEach((id, address) -> peers.put(SiteId.of(id), address));
            return new NormWanLink(new NormLinkSettings(site, peers, p.bindAddress(), p.port(),
                    schedule.budgetBitsPerSecond(), p.segmentSize(), p.blockSize(), p.parity(), p.fixedAutoParity(),
                    p.parityTarget(), p.parityPrecedence(), p.grttEstimate(), p.peerTimeout(), p.bufferSize(),
                    p.txLoss(), p.library(), p.toMulticast()));
        }
        if (wan.link() == LinkKind.DDS) {
            DdsLinkProperties p = dds.getObject();
            Map<SiteId, String> peers = new LinkedHashMap<>();
            p.peers().forEach((id, address) -> peers.put(SiteId.of(id), address));
            try {
                return new DdsWanLink(DdsLinkSettings.builder(p.domainId(), site).peers(peers)
                        .maxDatagramSize(Math.toIntExact(p.maxDatagramSize().toBytes())).peerTimeout(p.peerTimeout())
                        .lease(p.lease()).writeTimeout(p.writeTimeout()).networkInterface(p.networkInterface())
                        .vendor(new ParticipantSettings.Vendor(null, p.library(), null)).build());
            }
            catch (InvalidSettingsException ex) {
                throw InvalidProperties.of("gateway.wan.dds", ex);
            }
        }
        JmsLinkProperties p = jms.getObject();
        brokerPair("gateway.wan.jms", p.url() == null, p.embedded().pair(), wan);
        Map<SiteId, JmsLinkSettings.Peer> peers = new LinkedHashMap<>();
        p.peers().forEach((id, peer) -> peers.put(SiteId.of(id),
                new JmsLinkSettings.Peer(peer.url(), peer.user(), peer.password())));
        JmsTransportSettings.Embedded embedded = JmsTransportSettings.Embedded.at(p.embedded().host(),
                p.embedded().port(), p.embedded().dataDirectory().resolve(site.value()))
                .withPair(pair(p.embedded().pair()));
        JmsLinkSettings settings;
        try {
            settings = new JmsLinkSettings(site, p.url(), p.user(), p.password(), embedded, peers,
                    JmsLinkSettings.DEFAULT_QUEUE_PREFIX, JmsLinkSettings.DEFAULT_INVALID_QUEUE,
                    schedule.budgetBitsPerSecond() / 8, p.reconnectBackoff(), p.maxReconnectBackoff(),
                    brokerTls("gateway.wan.jms", p.tls()));
        }
        catch (InvalidSettingsException ex) {
            throw InvalidProperties.of("gateway.wan.jms", ex);
        }
        return new JmsWanLink(settings, customizers.orderedStream().toList());
    }

    @Bean
    @ConditionalOnMissingBean(LanSide.class)
    LanSide lanSide(LanProperties lan, NodeId gatewayNodeId, SiteMap sites, RoutingTable routing,
            KmtfCatalogue catalogue, ObjectProvider<EmbeddedBrokerCustomizer> customizers, WanProperties wan) {
        if (lan.transport() == TransportKind.DDS) {
            LanProperties.Dds p = lan.dds();
            DdsTransportSettings settings = p.transportSettings(gatewayNodeId);
            if (settings.participant().security() == null) {
                log.warn("The DDS LAN side runs without DDS Security (gateway.wan.lan.dds.security.plain=true): any "
                        + "participant of domain {} can read and write every topic", p.domainId());
            }
            return new DdsLanSide(gatewayNodeId, sites, routing, catalogue, settings, p.resendAfter(), p.resendMax());
        }
        LanProperties.Jms p = lan.jms();
        Map<NodeId, JmsTransportSettings.Peer> peers = new LinkedHashMap<>();
        p.peers().forEach((id, peer) -> peers.put(NodeId.of(id),
                new JmsTransportSettings.Peer(peer.url(), peer.user(), peer.password())));
        brokerPair("gateway.wan.lan.jms", p.url() == null, p.embedded().pair(), wan);
        JmsTransportSettings.Embedded embedded = JmsTransportSettings.Embedded.at(p.embedded().host(),
                p.embedded().port(), p.embedded().dataDirectory().resolve(gatewayNodeId.value()))
                .withPair(pair(p.embedded().pair()));
        JmsTransportSettings settings;
        try {
            settings = new JmsTransportSettings(gatewayNodeId, null, p.url(), p.user(), p.password(), embedded, peers,
                    JmsTransportSettings.DEFAULT_QUEUE_PREFIX, JmsTransportSettings.DEFAULT_INVALID_QUEUE,
                    JmsTransportSettings.Receive.of(p.receiveBatchSize()),
                    JmsTransportSettings.Bridge.of(p.bridgeMaxRetryInterval()),
                    brokerTls("gateway.wan.lan.jms", p.tls()), new JmsTransportSettings.Send(p.bundleMaxEnvelopes()));
        }
        catch (InvalidSettingsException ex) {
            throw InvalidProperties.of("gateway.wan.lan.jms", ex);
        }
        return new JmsLanSide(settings, sites, routing, catalogue, customizers.orderedStream().toList());
    }

    private static JmsTransportSettings.@Nullable Pair pair(@Nullable BrokerPairProperties pair) {
        return (pair == null) ? null : pair.settings();
    }

    /**
     * A broker pair belongs to a gateway pair: refused on a lone gateway, whose partner broker would be no one's.
     * One of a gateway pair with a lone embedded broker is allowed, with a warning of what a dead leader keeps.
     *
     * @throws IllegalArgumentException naming {@code prefix.embedded.pair.role}
     */
    private static void brokerPair(String prefix, boolean embedded, @Nullable BrokerPairProperties pair,
            WanProperties wan) {
        if (pair != null && !wan.pair().enabled()) {
            throw new IllegalArgumentException("Invalid " + prefix + " properties: " + prefix + ".embedded.pair is set "
                    + "but gateway.wan.pair.enabled is not: a broker pair runs on the two gateways of an active/standby "
                    + "pair; set gateway.wan.pair.enabled=true on both, or remove " + prefix + ".embedded.pair");
        }
        if (pair == null && embedded && wan.pair().enabled()) {
            log.warn("The embedded broker of {} is not one of a pair ({}.embedded.pair.*): what it accepted and has "
                    + "not passed on waits in its journal on this machine while this gateway is down", prefix, prefix);
        }
    }

    /**
     * TLS as the operator set it under {@code prefix}, or plain TCP when {@code prefix.tls.plain-tcp} says so.
     *
     * @throws IllegalArgumentException naming each refused property, e.g. {@code gateway.wan.jms.tls.key-store}
     */
    private static @Nullable BrokerTls brokerTls(String prefix, BrokerTlsProperties tls) {
        try {
            return BrokerTls.choose(tls.keyStore(), tls.keyStorePasswordFile(), tls.trustStore(),
                    tls.trustStorePasswordFile(), tls.verifyHost(), tls.plainTcp());
        }
        catch (InvalidSettingsException ex) {
            throw InvalidProperties.of(prefix, ex);
        }
    }

    @Bean
    @ConditionalOnMissingBean
    FrameCodec frameCodec(WanProperties wan) {
        return wan.compressFrames() ? FrameCodec.standard() : new FrameCodec(FrameCompression.NONE);
    }

    @Bean
    RelayMetrics relayMetrics(MeterRegistry registry) {
        return new RelayMetrics(registry);
    }

    @Bean(destroyMethod = "close")
    RelayEngine relayEngine(SiteMap sites, SiteRoutes routes, RoutingTable routing, KmtfCatalogue catalogue,
            RelayStore store, PolicyFile policy, WanLink link, LanSide lan, FrameCodec codec, RelayMetrics metrics,
            WanProperties wan, ScheduleProperties schedule, Clock clock, MessageTracing tracing) {
        checkSites(sites, routes);
        RelayEngine.Settings settings = new RelayEngine.Settings(Math.toIntExact(wan.frameTarget().toBytes()),
                wan.receiptTimeout(), schedule.budgetBitsPerSecond(), schedule.burstBytes(), schedule.window(),
                schedule.floor(), schedule.quantumBytes(), Math.toIntExact(wan.lanBatch().toBytes()));
        return new RelayEngine(sites, routes, routing, catalogue, store, policy, policy, link, lan, codec, metrics,
                settings, clock, tracing);
    }

    /** Every site of the map is this one, a peer of the link, or reached through a route. */
    private static void checkSites(SiteMap sites, SiteRoutes routes) {
        List<String> problems = new ArrayList<>();
        Set<SiteId> unreachable = new TreeSet<>();
        for (SiteId site : sites.peerSites()) {
            if (routes.nextHop(site).isEmpty()) {
                unreachable.add(site);
            }
        }
        if (!unreachable.isEmpty()) {
            problems.add("sites " + unreachable + " of gateway.routing.sites are neither peers of the link "
                    + routes.peers() + " nor reached through gateway.wan.routes");
        }
        Assert.state(problems.isEmpty(), () -> String.join("; ", problems));
    }

    @Bean
    RelayLifecycle relayLifecycle(RelayEngine engine, MeterRegistry registry, Clock clock, WanProperties wan) {
        WanProperties.Pair pair = wan.pair();
        // The old leader has not renewed for a whole lease; alive, it notices within a heartbeat and closes its
        // store. Waiting two heartbeats more lets it, and keeps a hung machine's takeover near the lease.
        RelayLifecycle lifecycle = new RelayLifecycle(engine, !pair.enabled(),
                pair.enabled() ? pair.heartbeat().multipliedBy(2) : null);
        RelayGauges.register(registry, engine, lifecycle::isRunning, clock);
        return lifecycle;
    }

    @Bean
    HealthIndicator lanHealthIndicator(RelayEngine engine, ObjectProvider<RelayLeadership> leadership) {
        return WanHealth.whileLeading(WanHealth.lan(engine), leading(leadership), () -> engine.lan().standbyHealth());
    }

    @Bean
    HealthIndicator wanLinkHealthIndicator(RelayEngine engine, ObjectProvider<RelayLeadership> leadership) {
        return WanHealth.whileLeading(WanHealth.link(engine), leading(leadership), () -> engine.link().standbyHealth());
    }

    @Bean
    HealthIndicator storeHealthIndicator(RelayEngine engine, ObjectProvider<RelayLeadership> leadership) {
        return WanHealth.whileLeading(WanHealth.store(engine), leading(leadership),
                () -> TransportHealth.up(Map.of()));
    }

    /** Whether this gateway relays: a lone one always, one of a pair while it leads. */
    private static BooleanSupplier leading(ObjectProvider<RelayLeadership> leadership) {
        RelayLeadership pair = leadership.getIfAvailable();
        return pair == null ? () -> true : pair::leading;
    }
}
