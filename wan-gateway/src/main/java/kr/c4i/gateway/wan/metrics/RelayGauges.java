package kr.c4i.gateway.wan.metrics;

import static kr.c4i.gateway.core.metrics.MetricNames.TAG_PRECEDENCE;
import static kr.c4i.gateway.core.metrics.MetricNames.TAG_ROUTE;
import static kr.c4i.gateway.core.metrics.MetricNames.TAG_SITE;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import java.util.function.ToDoubleFunction;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import org.jspecify.annotations.Nullable;

import kr.c4i.gateway.core.link.LinkState;
import kr.c4i.gateway.core.link.SiteId;
import kr.c4i.gateway.core.metrics.MetricNames;
import kr.c4i.gateway.dds.transport.DdsTransportStats;
import kr.c4i.gateway.kmtf.catalogue.Precedence;
import kr.c4i.gateway.norm.link.NormWanLink;
import kr.c4i.gateway.wan.lan.DdsLanSide;
import kr.c4i.gateway.wan.relay.RelayEngine;
import kr.c4i.gateway.wan.store.RelayStore;
import kr.c4i.gateway.wan.store.Route;
import kr.c4i.gateway.wan.store.StoreStats;

/**
 * Gauges of the store per route and precedence, and of the link per peer site; read at each scrape. The store's
 * gauges share one {@link RelayStore#stats()} per scrape (see {@link #SNAPSHOT_TTL}), not one per gauge. While the
 * relay does not run (on a pair's standby, which neither opens the store nor the link) they read NaN, not 0: a
 * standby's link is not down, and alerts comparing them with a number stay quiet on it.
 */
public final class RelayGauges {

    /**
     * How long one snapshot of the store's stats serves its gauges: much longer than a scrape takes, much shorter
     * than any scrape interval, so each scrape takes one snapshot and every gauge of it reads the same.
     */
    static final Duration SNAPSHOT_TTL = Duration.ofSeconds(1);

    private RelayGauges() {
    }

    /** @param relaying whether the relay runs: the gauges of its store and link read NaN while it does not */
    public static void register(MeterRegistry registry, RelayEngine engine, BooleanSupplier relaying, Clock clock) {
        RelayStore store = engine.store();
        List<Route> routes = new ArrayList<>();
        routes.add(Route.lan());
        engine.link().peers().stream().sorted().forEach(peer -> routes.add(Route.peer(peer)));
        registerLevels(registry, store::stats, routes, relaying, clock);
        Gauge.builder(MetricNames.WAN_STORE_BOUND, store, s -> s.limits().maxBytes()).baseUnit("bytes")
                .description("The store's bound").register(registry);
        for (Precedence precedence : Precedence.values()) {
            FunctionCounter.builder(MetricNames.WAN_STORE_REFUSED, store, s -> s.refusals(precedence))
                    .description("Messages refused because the store was too full for their precedence")
                    .tag(TAG_PRECEDENCE, precedence.label()).register(registry);
        }
        FunctionCounter.builder(MetricNames.WAN_STORE_DUPLICATES, store, RelayStore::duplicates)
                .description("Messages offered again that were stored already").register(registry);
        if (engine.lan() instanceof DdsLanSide dds) {
            registerDdsSecurity(registry, dds::securityRefused, clock);
            FunctionCounter.builder(MetricNames.DDS_PARTICIPANT_RECREATED, dds, DdsLanSide::participantsRecreated)
                    .description("Times the gateway's participant on its DDS LAN was recreated after a DDS Security "
                            + "handshake that Cyclone does not retry had failed").register(registry);
        }
        for (SiteId peer : engine.link().peers()) {
            Gauge.builder(MetricNames.WAN_LINK_UP, engine,
                    e -> relaying.getAsBoolean() ? e.link().state(peer) == LinkState.UP ? 1 : 0 : Double.NaN)
                    .description("1 while the link reaches the peer site").tag(TAG_SITE, peer.value())
                    .register(registry);
            Gauge.builder(MetricNames.WAN_LINK_INFLIGHT_BYTES, engine,
                    e -> relaying.getAsBoolean() ? e.inFlightBytes(peer) : Double.NaN).baseUnit("bytes")
                    .description("Bytes sent to the peer site and not yet receipted").tag(TAG_SITE, peer.value())
                    .register(registry);
        }
    }

    /**
     * {@link MetricNames#WAN_PAIR_READY} of one gateway of a pair: 1 while it {@code leads}, or while its LAN side and
     * link report themselves ready to take over ({@code standbyHealth}), as its health does.
     */
    public static void registerPairReady(MeterRegistry registry, SiteId site, RelayEngine engine,
            BooleanSupplier leads) {
        Gauge.builder(MetricNames.WAN_PAIR_READY, engine, e -> leads.getAsBoolean()
                || e.lan().standbyHealth().up() && e.link().standbyHealth().up() ? 1 : 0)
                .description("1 while this gateway leads its pair or could take over from the leader")
                .tag(TAG_SITE, site.value()).register(registry);
    }

    /** The norm link's measured loss and parity per peer site, read from the link (before any sealing wraps it). */
    public static void registerNormLink(MeterRegistry registry, NormWanLink link) {
        for (SiteId peer : link.peers()) {
            Gauge.builder(MetricNames.WAN_LINK_LOSS, link, l -> l.loss(peer))
                    .description("Share of the link's packets to the peer site lost on the way, as the peer measures "
                            + "it").tag(TAG_SITE, peer.value()).register(registry);
            Gauge.builder(MetricNames.WAN_LINK_PARITY, link, l -> l.autoParity(peer))
                    .description("Parity segments sent with each urgent frame to the peer site")
                    .tag(TAG_SITE, peer.value())
                    .register(registry);
        }
    }

    /**
     * {@code gateway.dds.security.refused} by reason for the gateway's participant on its DDS LAN, as a node has it:
     * one reading of the LAN side's statuses serves a scrape.
     */
    static void registerDdsSecurity(MeterRegistry registry, Supplier<Map<String, Long>> byReason, Clock clock) {
        Timed<Map<String, Long>> refused = new Timed<>(byReason, clock);
        for (String reason : List.of(DdsTransportStats.REFUSED_FORGED_ORIGIN, DdsTransportStats.REFUSED_FORGED_RECEIPT,
                DdsTransportStats.REFUSED_UNAUTHENTICATED, DdsTransportStats.REFUSED_AUTHENTICATION_FAILED,
                DdsTransportStats.REFUSED_NOT_PERMITTED)) {
            // The reading is held through the function: a function counter holds its object weakly, and nothing
            // else keeps this one (it was collected, and the counters read 0, under a busy CI run's GC).
            FunctionCounter.builder(MetricNames.DDS_SECURITY_REFUSED, registry,
                    r -> refused.get().getOrDefault(reason, 0L))
                    .description("Attempts DDS Security refused on this site's LAN: samples claiming an origin or "
                            + "receiver their writer's permissions do not allow, and participants kept out")
                    .tag(MetricNames.TAG_REASON, reason).register(registry);
        }
    }

    /**
     * The copies, bytes and oldest age per route and precedence, all read from one snapshot of {@code stats}; NaN,
     * without reading it, while not {@code relaying}.
     */
    static void registerLevels(MeterRegistry registry, Supplier<StoreStats> stats, List<Route> routes,
            BooleanSupplier relaying, Clock clock) {
        Timed<StoreStats> snapshot = new Timed<>(stats, clock);
        for (Route route : routes) {
            for (Precedence precedence : Precedence.values()) {
                level(registry, snapshot, relaying, route, precedence, MetricNames.WAN_STORE_COPIES, "copies",
                        s -> s.level(route, precedence).copies());
                level(registry, snapshot, relaying, route, precedence, MetricNames.WAN_STORE_BYTES, "bytes",
                        s -> s.level(route, precedence).bytes());
                level(registry, snapshot, relaying, route, precedence, MetricNames.WAN_STORE_OLDEST_AGE, "seconds",
                        s -> {
                            Instant oldest = s.level(route, precedence).oldestStoredAt();
                            return oldest == null ? 0 : Duration.between(oldest, clock.instant()).toMillis() / 1000.0;
                        });
            }
        }
    }

    private static void level(MeterRegistry registry, Timed<StoreStats> snapshot, BooleanSupplier relaying, Route route,
            Precedence precedence, String name, String unit, ToDoubleFunction<StoreStats> value) {
        // Held strongly: the snapshot is the gauges' own, nothing else keeps it.
        Gauge.builder(name, snapshot, s -> relaying.getAsBoolean() ? value.applyAsDouble(s.get()) : Double.NaN)
                .strongReference(true).baseUnit(unit)
                .tag(TAG_ROUTE, route.key()).tag(TAG_PRECEDENCE, precedence.label()).register(registry);
    }

    /** A reading, taken again once the last is {@link #SNAPSHOT_TTL} old (or the clock went back). */
    private static final class Timed<T> {

        private final Supplier<T> source;
        private final Clock clock;
        private @Nullable T stats;
        private Instant takenAt = Instant.EPOCH;

        Timed(Supplier<T> source, Clock clock) {
            this.source = source;
            this.clock = clock;
        }

        synchronized T get() {
            Instant now = clock.instant();
            T current = stats;
            if (current == null || now.isBefore(takenAt) || !now.isBefore(takenAt.plus(SNAPSHOT_TTL))) {
                current = source.get();
                stats = current;
                takenAt = now;
            }
            return current;
        }
    }
}
