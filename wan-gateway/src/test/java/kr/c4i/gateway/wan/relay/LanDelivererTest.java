package kr.c4i.gateway.wan.relay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import com.zaxxer.hikari.HikariDataSource;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import kr.c4i.gateway.core.Envelope;
import kr.c4i.gateway.core.NodeId;
import kr.c4i.gateway.core.link.SiteId;
import kr.c4i.gateway.core.transport.TransportHealth;
import kr.c4i.gateway.kmtf.catalogue.Precedence;
import kr.c4i.gateway.wan.lan.LanDelivery;
import kr.c4i.gateway.wan.lan.LanIngest;
import kr.c4i.gateway.wan.lan.LanSide;
import kr.c4i.gateway.wan.metrics.RelayMetrics;
import kr.c4i.gateway.wan.schedule.PrecedenceScheduler;
import kr.c4i.gateway.wan.store.Copy;
import kr.c4i.gateway.wan.store.RelayStore;
import kr.c4i.gateway.wan.store.Route;
import kr.c4i.gateway.wan.store.StoreLimits;

/** The deliverer's flow control against a real store: what it hands over, and when it stops and goes on. */
class LanDelivererTest {

    private static final SiteId S2 = SiteId.of("s2");
    private static final int MAX_PENDING = 3;
    // Longer than any test waits: a deliverer that goes on did so because it was woken, not because its wait ended.
    private static final Duration IDLE = Duration.ofHours(1);

    private final Nodes nodes = new Nodes();
    private EmbeddedPostgres postgres;
    private HikariDataSource pool;
    private LanDeliverer deliverer;
    private Thread thread;

    @BeforeEach
    void startStore() throws Exception {
        postgres = EmbeddedPostgres.builder().start();
        Flyway.configure().dataSource(postgres.getPostgresDatabase()).locations(RelayStore.MIGRATIONS).load()
                .migrate();
        pool = new HikariDataSource();
        pool.setJdbcUrl(postgres.getJdbcUrl("postgres", "postgres"));
        pool.setMaximumPoolSize(2);
    }

    @AfterEach
    void stop() throws Exception {
        if (deliverer != null) {
            deliverer.stop();
            thread.join(10_000);
        }
        pool.close();
        postgres.close();
    }

    @Test
    void atTheBoundItStopsHandingOverAndGoesOnAsSoonAsANodeReceipts() throws Exception {
        RelayStore store = RelayStore.opened(pool, StoreLimits.of(1_000_000), Clock.systemUTC());
        store.accept(IntStream.range(0, 6).mapToObj(i -> Copy.of(Route.lan(), relayed("m-" + i))).toList());
        // One copy a batch: a batch's bytes stop at the first copy that does not fit.
        int oneCopy = Copy.estimateBytes(relayed("m-0"));
        deliverer = new LanDeliverer(S2, nodes, store, store.backlog(Route.lan()),
                new PrecedenceScheduler(store.backlog(Route.lan())), new RelayMetrics(new SimpleMeterRegistry()),
                Clock.systemUTC(), oneCopy, MAX_PENDING, IDLE);
        thread = Thread.ofPlatform().name("lan-deliver-test").start(deliverer);

        await().atMost(Duration.ofSeconds(30)).until(() -> nodes.handed.size() == MAX_PENDING);
        assertThat(deliverer.pending()).isEqualTo(MAX_PENDING);

        deliverer.delivered(List.of(nodes.handed.getFirst()));

        await().alias("the next copy handed over once there was room").atMost(Duration.ofSeconds(30))
                .until(() -> nodes.handed.size() == MAX_PENDING + 1);
        assertThat(deliverer.pending()).isEqualTo(MAX_PENDING);
        await().atMost(Duration.ofSeconds(30)).until(() -> store.backlog(Route.lan()).waitingCount(Precedence.ROUTINE)
                + deliverer.pending() == 5);
    }

    @Test
    void whatABusyLanTookIsNotOfferedAgainAndTheRestIs() throws Exception {
        RelayStore store = RelayStore.opened(pool, StoreLimits.of(1_000_000), Clock.systemUTC());
        store.accept(IntStream.range(0, 7).mapToObj(i -> Copy.of(Route.lan(), relayed("m-" + i))).toList());
        TakingTwo lan = new TakingTwo();
        deliverer = new LanDeliverer(S2, lan, store, store.backlog(Route.lan()),
                new PrecedenceScheduler(store.backlog(Route.lan())), new RelayMetrics(new SimpleMeterRegistry()),
                Clock.systemUTC(), 1_000_000, MAX_PENDING * 10, IDLE);
        thread = Thread.ofPlatform().name("lan-deliver-test").start(deliverer);

        await().alias("every message handed over").atMost(Duration.ofSeconds(30))
                .until(() -> lan.handed.size() >= 7
                        && store.backlog(Route.lan()).waitingCount(Precedence.ROUTINE) == 0);
        assertThat(lan.offers).as("the whole batch first, then what was not taken").first().isEqualTo(7);
        assertThat(lan.handed).as("each message on the LAN once").hasSize(7).doesNotHaveDuplicates();
        assertThat(deliverer.pending()).isZero();
    }

    private static RelayedEnvelope relayed(String id) {
        Envelope envelope = new Envelope(id, NodeId.of("a"), "SITREP", Precedence.ROUTINE, "UNCLASSIFIED",
                Instant.parse("2026-11-23T08:00:00Z"), ("MSGID/SITREP/" + id + "//").getBytes(StandardCharsets.UTF_8));
        return RelayedEnvelope.of(envelope, List.of(SiteId.of("s1")), Set.of(S2));
    }

    /** A LAN side of a test: what {@link #deliver} does is the test's; the rest does nothing. */
    private abstract static class TestLan implements LanSide {

        final List<String> handed = new CopyOnWriteArrayList<>();

        @Override
        public void open(LanIngest ingest) {
        }

        @Override
        public String kind() {
            return "test";
        }

        @Override
        public TransportHealth health() {
            return TransportHealth.up(Map.of());
        }

        @Override
        public void close() {
        }
    }

    /** A LAN whose writer is full after two messages of each batch: those pass at once, the rest are not taken. */
    private static final class TakingTwo extends TestLan {

        final List<Integer> offers = new CopyOnWriteArrayList<>();

        @Override
        public LanDelivery deliver(List<RelayedEnvelope> batch) {
            offers.add(batch.size());
            List<String> ids = batch.stream().map(RelayedEnvelope::messageId).toList();
            List<String> taken = ids.subList(0, Math.min(2, ids.size()));
            handed.addAll(taken);
            return new LanDelivery(Set.copyOf(taken), Set.of(), Map.of(),
                    Set.copyOf(ids.subList(taken.size(), ids.size())));
        }
    }

    /** This site's nodes: they take every message and receipt it later, when the test says so. */
    private static final class Nodes extends TestLan {

        @Override
        public LanDelivery deliver(List<RelayedEnvelope> batch) {
            Set<String> ids = batch.stream().map(RelayedEnvelope::messageId).collect(Collectors.toSet());
            handed.addAll(batch.stream().map(RelayedEnvelope::messageId).toList());
            return new LanDelivery(Set.of(), ids, Map.of());
        }
    }
}
