package kr.c4i.gateway.wan.relay;

import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import com.zaxxer.hikari.HikariDataSource;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.flywaydb.core.Flyway;

import kr.c4i.gateway.core.NodeId;
import kr.c4i.gateway.core.link.SiteId;
import kr.c4i.gateway.core.routing.RoutingTable;
import kr.c4i.gateway.custody.CustodyLog;
import kr.c4i.gateway.kmtf.catalogue.KmtfCatalogue;
import kr.c4i.gateway.tracing.MessageTracing;
import kr.c4i.gateway.wan.MovableClock;
import kr.c4i.gateway.wan.frame.DataFrame;
import kr.c4i.gateway.wan.frame.FrameCodec;
import kr.c4i.gateway.wan.frame.FrameFormatException;
import kr.c4i.gateway.wan.metrics.RelayMetrics;
import kr.c4i.gateway.wan.policy.RelayPolicy;
import kr.c4i.gateway.wan.schedule.ExpiryRule;
import kr.c4i.gateway.wan.site.SiteMap;
import kr.c4i.gateway.wan.store.RelayStore;
import kr.c4i.gateway.wan.store.StoreLimits;

/**
 * Site s1's gateway on a real store (embedded PostgreSQL, the store's migrations), node a at s1 and c at s2, each
 * subscribing to every type, with a link to s2 that records its frames and a LAN that takes everything at once: where
 * tests of the engine's own steps start. The clock stands still unless a test moves it.
 */
final class S1Gateway implements AutoCloseable {

    static final KmtfCatalogue CATALOGUE = KmtfCatalogue.loadDefault();
    static final SiteId S1 = SiteId.of("s1");
    static final SiteId S2 = SiteId.of("s2");
    static final NodeId A = NodeId.of("a");
    static final NodeId C = NodeId.of("c");
    static final Instant CREATED = Instant.parse("2026-11-26T12:00:00Z");

    final MovableClock clock = new MovableClock(CREATED.plusMillis(40));
    final FrameCodec codec = FrameCodec.standard();
    final RecordingLink link = new RecordingLink(S2);
    final RecordingLan nodes = new RecordingLan();
    final EmbeddedPostgres postgres;
    final HikariDataSource pool;
    final RelayStore store;
    /** How long a frame may go unreceipted, as an engine built after a test sets it reads it. */
    Duration receiptTimeout = Duration.ofSeconds(15);

    /** The store logs its custody steps in {@code custody}; its database is s1's. */
    S1Gateway(CustodyLog custody) throws Exception {
        postgres = EmbeddedPostgres.builder().start();
        Flyway.configure().dataSource(postgres.getPostgresDatabase()).locations(RelayStore.MIGRATIONS).load()
                .migrate();
        try (Connection c = postgres.getPostgresDatabase().getConnection(); Statement st = c.createStatement()) {
            st.execute("INSERT INTO database_owner (kind, owner) VALUES ('site', 's1')");
        }
        pool = new HikariDataSource();
        pool.setJdbcUrl(postgres.getJdbcUrl("postgres", "postgres"));
        pool.setMaximumPoolSize(4);
        store = RelayStore.opened(pool, StoreLimits.of(1_000_000), RelayStore.DEFAULT_CACHE_BYTES, clock, custody);
    }

    /** Where a and c are, without clearances. */
    static SiteMap sites() {
        return SiteMap.of(S1, Map.of(S1, List.of(A), S2, List.of(C)));
    }

    /** An engine over this store, its link and LAN, where a and c are and every type may cross, not started. */
    RelayEngine engine() {
        return engine(sites(), RelayPolicy.allowAll(CATALOGUE), new SimpleMeterRegistry());
    }

    /** An engine over this store, its link and LAN, not started. */
    RelayEngine engine(SiteMap sites, RelayPolicy policy, MeterRegistry registry) {
        return engine(sites, policy, registry, MessageTracing.off());
    }

    /** An engine over this store, its link and LAN, with these spans, not started. */
    RelayEngine engine(SiteMap sites, RelayPolicy policy, MeterRegistry registry, MessageTracing tracing) {
        return new RelayEngine(sites, new SiteRoutes(S1, Set.of(S2), Map.of()),
                RoutingTable.of(Map.of(A, List.of("*"), C, List.of("*")), CATALOGUE), CATALOGUE, store,
                () -> policy, ExpiryRule.NEVER, link, nodes, codec, new RelayMetrics(registry),
                new RelayEngine.Settings(1200, receiptTimeout, 100_000_000L, 1400, Duration.ofSeconds(1),
                        0.05, 1500, 256 * 1024),
                clock, tracing);
    }

    /** The DATA frames the link was handed so far, decoded, in the order they were sent. */
    List<DataFrame> dataFrames() throws FrameFormatException {
        List<DataFrame> data = new ArrayList<>();
        for (byte[] frame : link.frames()) {
            if (codec.decode(frame) instanceof DataFrame d) {
                data.add(d);
            }
        }
        return data;
    }

    @Override
    public void close() throws Exception {
        store.close();
        pool.close();
        postgres.close();
    }
}
