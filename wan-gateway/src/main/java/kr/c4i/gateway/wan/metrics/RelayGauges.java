package kr.c4i.gateway.wan.metrics;

import static kr.c4i.gateway.core.metrics.MetricNames.TAG_PRECEDENCE;
import static kr.c4i.gateway.core.metrics.MetricNames.TAG_ROUTE;
import static kr.c4i.gateway.core.metrics.MetricNames.TAG_SITE;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.ToDoubleFunction;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;

import kr.c4i.gateway.core.link.LinkState;
import kr.c4i.gateway.core.link.SiteId;
import kr.c4i.gateway.core.metrics.MetricNames;
import kr.c4i.gateway.kmtf.catalogue.Precedence;
import kr.c4i.gateway.wan.relay.RelayEngine;
import kr.c4i.gateway.wan.store.RelayStore;
import kr.c4i.gateway.wan.store.Route;
import kr.c4i.gateway.wan.store.StoreStats;

/** Gauges of the store per route and precedence, and of the link per peer site; read at each scrape. */
public final class RelayGauges {

    private RelayGauges() {
    }

    public static void register(MeterRegistry registry, RelayEngine engine, Clock clock) {
        RelayStore store = engine.store();
        List<Route> routes = new ArrayList<>();
        routes.add(Route.lan());
        engine.link().peers().stream().sorted().forEach(peer -> routes.add(Route.peer(peer)));
        for (Route route : routes) {
            for (Precedence precedence : Precedence.values()) {
                level(registry, store, route, precedence, MetricNames.WAN_STORE_COPIES, "copies",
                        s -> s.level(route, precedence).copies());
                level(registry, store, route, precedence, MetricNames.WAN_STORE_BYTES, "bytes",
                        s -> s.level(route, precedence).bytes());
                level(registry, store, route, precedence, MetricNames.WAN_STORE_OLDEST_AGE, "seconds", s -> {
                    Instant oldest = s.level(route, precedence).oldestStoredAt();
                    return oldest == null ? 0 : Duration.between(oldest, clock.instant()).toMillis() / 1000.0;
                });
            }
        }
        Gauge.builder(MetricNames.WAN_STORE_BOUND, store, s -> s.limits().maxBytes()).baseUnit("bytes")
                .description("The store's bound").register(registry);
        for (Precedence precedence : Precedence.values()) {
            FunctionCounter.builder(MetricNames.WAN_STORE_REFUSED, store, s -> s.refusals(precedence))
                    .description("Messages refused because the store was too full for their precedence")
                    .tag(TAG_PRECEDENCE, precedence.label()).register(registry);
        }
        FunctionCounter.builder(MetricNames.WAN_STORE_DUPLICATES, store, RelayStore::duplicates)
                .description("Messages offered again that were stored already").register(registry);
        for (SiteId peer : engine.link().peers()) {
            Gauge.builder(MetricNames.WAN_LINK_UP, engine, e -> e.link().state(peer) == LinkState.UP ? 1 : 0)
                    .description("1 while the link reaches the peer site").tag(TAG_SITE, peer.value())
                    .register(registry);
            Gauge.builder(MetricNames.WAN_LINK_INFLIGHT_BYTES, engine, e -> e.inFlightBytes(peer)).baseUnit("bytes")
                    .description("Bytes sent to the peer site and not yet receipted").tag(TAG_SITE, peer.value())
                    .register(registry);
        }
    }

    private static void level(MeterRegistry registry, RelayStore store, Route route, Precedence precedence,
            String name, String unit, ToDoubleFunction<StoreStats> value) {
        Gauge.builder(name, store, s -> value.applyAsDouble(s.stats())).baseUnit(unit)
                .tag(TAG_ROUTE, route.key()).tag(TAG_PRECEDENCE, precedence.label()).register(registry);
    }
}
