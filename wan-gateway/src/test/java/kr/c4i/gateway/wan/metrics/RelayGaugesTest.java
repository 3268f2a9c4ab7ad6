package kr.c4i.gateway.wan.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.junit.jupiter.api.Test;

import kr.c4i.gateway.core.link.SiteId;
import kr.c4i.gateway.core.metrics.MetricNames;
import kr.c4i.gateway.kmtf.catalogue.Precedence;
import kr.c4i.gateway.norm.link.NormLinkSettings;
import kr.c4i.gateway.norm.link.NormWanLink;
import kr.c4i.gateway.wan.MovableClock;
import kr.c4i.gateway.wan.store.Route;
import kr.c4i.gateway.wan.store.StoreStats;

class RelayGaugesTest {

    private static final Route TO_S2 = Route.peer(SiteId.of("s2"));
    private static final Instant NOW = Instant.parse("2026-11-22T09:00:00Z");

    private final MovableClock clock = new MovableClock(NOW);
    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final AtomicInteger reads = new AtomicInteger();
    private volatile StoreStats current = stats(3);

    /** What the store's stats() would give, counting each call. */
    private final Supplier<StoreStats> stats = () -> {
        reads.incrementAndGet();
        return current;
    };

    @Test
    void aScrapeReadsTheStoreOnceForAllItsGauges() {
        RelayGauges.registerLevels(registry, stats, List.of(Route.lan(), TO_S2), () -> true, clock);

        String scrape = registry.scrape();

        assertThat(reads).as("stats() calls for one scrape of %s gauges",
                registry.find(MetricNames.WAN_STORE_COPIES).gauges().size() * 3).hasValue(1);
        assertThat(scrape).contains("gateway_wan_store_copies{precedence=\"flash\",route=\"s2\"} 3.0");
        assertThat(registry.get(MetricNames.WAN_STORE_BYTES).tags("route", "s2", "precedence", "flash").gauge()
                .value()).isEqualTo(600);
        assertThat(registry.get(MetricNames.WAN_STORE_OLDEST_AGE).tags("route", "s2", "precedence", "flash").gauge()
                .value()).isEqualTo(10);
        assertThat(registry.get(MetricNames.WAN_STORE_COPIES).tags("route", "@lan", "precedence", "routine").gauge()
                .value()).isZero();
        assertThat(reads).hasValue(1);
    }

    @Test
    void theNextScrapeTakesAFreshSnapshot() {
        RelayGauges.registerLevels(registry, stats, List.of(Route.lan(), TO_S2), () -> true, clock);
        registry.scrape();
        current = stats(5);

        clock.advance(RelayGauges.SNAPSHOT_TTL);
        String next = registry.scrape();

        assertThat(reads).hasValue(2);
        assertThat(next).contains("gateway_wan_store_copies{precedence=\"flash\",route=\"s2\"} 5.0");

        // A clock set back does not keep the old snapshot until it catches up.
        current = stats(7);
        clock.advance(Duration.ofHours(-1));
        assertThat(registry.scrape()).contains("gateway_wan_store_copies{precedence=\"flash\",route=\"s2\"} 7.0");
        assertThat(reads).hasValue(3);
    }

    @Test
    void whileTheRelayDoesNotRunTheStoresGaugesReadNaNWithoutAskingIt() {
        AtomicBoolean relaying = new AtomicBoolean();
        RelayGauges.registerLevels(registry, stats, List.of(Route.lan(), TO_S2), relaying::get, clock);

        assertThat(registry.scrape()).contains("gateway_wan_store_copies{precedence=\"flash\",route=\"s2\"} NaN");
        assertThat(registry.get(MetricNames.WAN_STORE_OLDEST_AGE).tags("route", "s2", "precedence", "flash").gauge()
                .value()).isNaN();
        assertThat(reads).as("stats() calls on a standby").hasValue(0);

        relaying.set(true);
        assertThat(registry.scrape()).contains("gateway_wan_store_copies{precedence=\"flash\",route=\"s2\"} 3.0");
        assertThat(reads).hasValue(1);
    }

    @Test
    void theDdsLanSidesSecurityRefusalsAreCountedByReasonFromOneReadingPerScrape() {
        AtomicInteger refusalReads = new AtomicInteger();
        RelayGauges.registerDdsSecurity(registry, () -> {
            refusalReads.incrementAndGet();
            return Map.of("forged-origin", 2L, "unauthenticated", 1L);
        }, clock);
        // Nothing but the meters keeps the reading: a collection must not turn the counters to 0.
        System.gc();

        String scrape = registry.scrape();

        assertThat(scrape).contains("gateway_dds_security_refused_total{reason=\"forged-origin\"} 2.0",
                "gateway_dds_security_refused_total{reason=\"unauthenticated\"} 1.0",
                "gateway_dds_security_refused_total{reason=\"authentication-failed\"} 0.0",
                "gateway_dds_security_refused_total{reason=\"not-permitted\"} 0.0",
                "gateway_dds_security_refused_total{reason=\"forged-receipt\"} 0.0");
        assertThat(refusalReads).hasValue(1);
    }

    @Test
    void theNormLinksMeasuredLossAndParityArePerPeerSite() {
        NormWanLink adaptive = new NormWanLink(NormLinkSettings.of(SiteId.of("s1"),
                Map.of(SiteId.of("s2"), "10.0.2.1", SiteId.of("s3"), "10.0.3.1"), 128_000));
        NormWanLink fixed = new NormWanLink(NormLinkSettings.of(SiteId.of("s4"), Map.of(SiteId.of("s5"), "10.0.5.1"),
                128_000).withAutoParity(2));
        RelayGauges.registerNormLink(registry, adaptive);
        RelayGauges.registerNormLink(registry, fixed);

        // Not measured before the link opens and the peer reports: no loss to show, no parity chosen yet.
        assertThat(registry.get(MetricNames.WAN_LINK_LOSS).tags("site", "s3").gauge().value()).isNaN();
        assertThat(registry.get(MetricNames.WAN_LINK_PARITY).tags("site", "s2").gauge().value()).isZero();
        assertThat(registry.get(MetricNames.WAN_LINK_PARITY).tags("site", "s5").gauge().value()).isEqualTo(2);
        assertThat(registry.scrape()).contains("gateway_wan_link_parity{site=\"s3\"} 0.0");
    }

    /** {@code copies} FLASH copies of 200 bytes for s2, the oldest stored 10 s before NOW; nothing else. */
    private static StoreStats stats(long copies) {
        return new StoreStats(copies * 200, 1_000_000, Map.of(TO_S2, Map.of(Precedence.FLASH,
                new StoreStats.Level(copies, copies * 200, NOW.minusSeconds(10)))));
    }
}
