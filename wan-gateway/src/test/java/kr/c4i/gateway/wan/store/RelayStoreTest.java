package kr.c4i.gateway.wan.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

import javax.sql.DataSource;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import kr.c4i.gateway.core.Envelope;
import kr.c4i.gateway.core.HopTrace;
import kr.c4i.gateway.core.HopTrace.Action;
import kr.c4i.gateway.core.HopTrace.Hop;
import kr.c4i.gateway.core.NodeId;
import kr.c4i.gateway.core.TraceParent;
import kr.c4i.gateway.core.link.SiteId;
import kr.c4i.gateway.custody.CustodyLog;
import kr.c4i.gateway.custody.CustodyLogReader;
import kr.c4i.gateway.custody.CustodyStep;
import kr.c4i.gateway.custody.DeliveryReports;
import kr.c4i.gateway.jdbc.DatabaseOwner;
import kr.c4i.gateway.kmtf.catalogue.Precedence;
import kr.c4i.gateway.wan.MovableClock;
import kr.c4i.gateway.wan.relay.RelayedEnvelope;
import kr.c4i.gateway.wan.schedule.Backlog;
import kr.c4i.gateway.wan.schedule.Waiting;

class RelayStoreTest {

    private static final SiteId ALPHA = SiteId.of("alpha");
    private static final SiteId BRAVO = SiteId.of("bravo");
    private static final SiteId CHARLIE = SiteId.of("charlie");
    private static final Route TO_BRAVO = Route.peer(BRAVO);
    private static final Route TO_CHARLIE = Route.peer(CHARLIE);
    private static final Instant CREATED = Instant.parse("2026-11-22T08:00:00.123456Z");
    private static final TraceParent CONTEXT = new TraceParent(
            "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01");

    private static StoreDatabase db;

    private final MovableClock clock = new MovableClock(Instant.parse("2026-11-22T09:00:00.654321Z"));
    private RelayStore store;

    @BeforeAll
    static void startDatabase() throws Exception {
        db = new StoreDatabase();
    }

    @AfterAll
    static void stopDatabase() throws Exception {
        db.close();
    }

    @BeforeEach
    void emptyStore() throws Exception {
        db.execute("TRUNCATE relay_copy");
        store = RelayStore.opened(db.dataSource(), StoreLimits.of(1_000_000), clock);
    }

    @AfterEach
    void closeStore() {
        store.close();
    }

    @Test
    void storedCopyLoadsBackWithEveryField() throws Exception {
        Envelope envelope = new Envelope("msg-ü-1", NodeId.of("node-a"), "POSREP", Precedence.IMMEDIATE,
                "SECRET//REL KOR", CREATED, "위치 보고/트랙 7/ÄÖ ✓//".getBytes(StandardCharsets.UTF_8));
        RelayedEnvelope relayed = RelayedEnvelope.of(envelope, List.of(ALPHA, CHARLIE),
                Set.of(BRAVO, SiteId.of("delta")));
        Envelope ancient = new Envelope("msg-2", NodeId.of("node-b"), "SITREP", Precedence.ROUTINE, "UNCLASSIFIED",
                Envelope.EARLIEST_CREATED_AT, new byte[] { 0, (byte) 0xff, 10 });
        RelayedEnvelope toLan = RelayedEnvelope.of(ancient, List.of(BRAVO, ALPHA), Set.of(ALPHA));

        List<Acceptance> outcomes = store.accept(List.of(Copy.of(TO_BRAVO, relayed), Copy.of(Route.lan(), toLan)));

        assertThat(outcomes).extracting(Acceptance::outcome).containsExactly(Outcome.STORED, Outcome.STORED);
        Waiting stored = outcomes.getFirst().stored();
        assertThat(stored).isEqualTo(new Waiting(stored.id(), "msg-ü-1", Precedence.IMMEDIATE, "POSREP",
                Copy.estimateBytes(relayed), CREATED, clock.instant(), envelope.origin()));
        long lanId = outcomes.get(1).stored().id();
        Map<Long, RelayedEnvelope> loaded = store.load(List.of(lanId, 999L, stored.id()));
        assertThat(loaded.keySet()).as("in the order asked, missing ids absent").containsExactly(lanId, stored.id());
        assertThat(loaded.get(stored.id())).isEqualTo(relayed);
        assertThat(loaded.get(stored.id()).crossed()).containsExactly(ALPHA, CHARLIE);
        assertThat(loaded.get(lanId)).isEqualTo(toLan);
        assertThat(db.strings("SELECT route || ' ' || precedence || ' ' || bytes || ' ' || "
                + "coalesce(supersede_key, '-') FROM relay_copy ORDER BY id")).containsExactly(
                        "bravo 1 " + Copy.estimateBytes(relayed) + " -", "@lan 3 " + Copy.estimateBytes(toLan) + " -");
        assertThat(store.backlog(TO_BRAVO).peek(Precedence.IMMEDIATE, "POSREP")).isEqualTo(stored);
        assertThat(store.backlog(Route.lan()).waitingCount(Precedence.ROUTINE)).isEqualTo(1);
    }

    /**
     * A copy's trace is kept as the text the LAN transports carry, and reads back as it was stored, from memory and
     * from the table; a redelivery with a later trace is absorbed and the trace stored first stays.
     */
    @Test
    void theTraceIsStoredAndReadBackAsItWasFirstStored() throws Exception {
        HopTrace trace = HopTrace.EMPTY.with(Hop.node(NodeId.of("node-a"), Action.SENT, CREATED.plusMillis(3)))
                .with(Hop.site(ALPHA, Action.RELAYED, CREATED.plusMillis(17)));
        RelayedEnvelope relayed = traced(relayed("t-1", Precedence.FLASH, "SITREP"), trace);
        RelayedEnvelope untraced = relayed("t-2", Precedence.FLASH, "SITREP");
        List<Acceptance> stored = store.accept(List.of(Copy.of(TO_BRAVO, relayed), Copy.of(TO_BRAVO, untraced)));
        List<Long> ids = stored.stream().map(a -> a.stored().id()).toList();

        assertThat(store.load(ids).values()).extracting(r -> r.envelope().trace()).as("from memory")
                .containsExactly(trace, HopTrace.EMPTY);
        assertThat(db.strings("SELECT trace FROM relay_copy ORDER BY id"))
                .containsExactly("node node-a sent +3ms; site alpha relayed +17ms", "");
        HopTrace later = HopTrace.EMPTY.with(Hop.node(NodeId.of("node-a"), Action.SENT, CREATED.plusMillis(3)))
                .with(Hop.site(ALPHA, Action.RELAYED, CREATED.plusSeconds(60)));
        assertThat(store.accept(List.of(Copy.of(TO_BRAVO, traced(relayed, later)))).getFirst().outcome())
                .isEqualTo(Outcome.DUPLICATE);
        store.close();
        store = RelayStore.opened(db.dataSource(), StoreLimits.of(1_000_000), 0, clock);

        assertThat(store.load(ids).values()).extracting(r -> r.envelope().trace()).as("from the table")
                .containsExactly(trace, HopTrace.EMPTY);
    }

    /** Written by hand, say: the message goes on without a trace rather than not at all. */
    @Test
    void aStoredTraceThatDoesNotReadIsReadAsEmpty() throws Exception {
        store.close();
        store = RelayStore.opened(db.dataSource(), StoreLimits.of(1_000_000), 0, clock);
        long id = store.accept(List.of(Copy.of(TO_BRAVO, relayed("t-1", Precedence.FLASH, "SITREP")))).getFirst()
                .stored().id();
        db.execute("UPDATE relay_copy SET trace = 'site alpha was here'");

        assertThat(store.load(List.of(id)).get(id).envelope().trace()).isEqualTo(HopTrace.EMPTY);
    }

    /** A row a gateway stored before copies had traces (migration V10) reads with an empty one. */
    @Test
    void aRowStoredBeforeTracesReadsWithAnEmptyTrace() throws Exception {
        DataSource older = db.databaseAt("before_traces", "9");
        try (Connection c = older.getConnection(); Statement s = c.createStatement()) {
            s.execute("INSERT INTO relay_copy (id, route, message_id, origin_node, kmtf_type, precedence, "
                    + "classification, created_at, body, crossed, bound_for, bytes, supersede_key, stored_at) "
                    + "VALUES (7, 'bravo', 'old-1', 'node-a', 'SITREP', 3, 'UNCLASSIFIED', "
                    + "'2026-11-22T08:00:00.123456Z', convert_to('MSGID/SITREP//', 'UTF8'), ARRAY['alpha'], "
                    + "ARRAY['bravo'], 100, NULL, '2026-11-22T08:00:01Z')");
        }
        StoreDatabase.migrate(older);

        try (RelayStore upgraded = RelayStore.opened(older, StoreLimits.of(1_000_000), 0, clock)) {
            Waiting waiting = upgraded.backlog(TO_BRAVO).peek(Precedence.ROUTINE, "SITREP");
            RelayedEnvelope loaded = upgraded.load(List.of(waiting.id())).get(waiting.id());

            assertThat(loaded.messageId()).isEqualTo("old-1");
            assertThat(loaded.envelope().createdAt()).isEqualTo(CREATED);
            assertThat(loaded.envelope().trace()).isEqualTo(HopTrace.EMPTY);
        }
    }

    /**
     * A copy's trace context goes into the table with the binary COPY, beside copies without one (NULL), and a
     * restarted store, with nothing in memory, sends the message on with it: one stored during an outage leaves with
     * its context.
     */
    @Test
    void theTraceContextIsStoredAndReadBackFromTheTable() throws Exception {
        RelayedEnvelope traced = withContext(relayed("c-1", Precedence.FLASH, "SITREP"), CONTEXT);
        RelayedEnvelope untraced = relayed("c-2", Precedence.FLASH, "SITREP");
        RelayedEnvelope toLan = withContext(relayed("c-3", Precedence.ROUTINE, "SITREP"), CONTEXT);
        List<Long> ids = store.accept(List.of(Copy.of(TO_BRAVO, traced), Copy.of(TO_BRAVO, untraced),
                Copy.of(Route.lan(), toLan))).stream().map(a -> a.stored().id()).toList();

        assertThat(store.load(ids).values()).extracting(r -> r.envelope().traceParent()).as("from memory")
                .containsExactly(CONTEXT, null, CONTEXT);
        assertThat(db.strings("SELECT coalesce(trace_parent, 'NULL') FROM relay_copy ORDER BY id"))
                .containsExactly(CONTEXT.value(), "NULL", CONTEXT.value());
        store.close();
        store = RelayStore.opened(db.dataSource(), StoreLimits.of(1_000_000), 0, clock);

        Map<Long, RelayedEnvelope> loaded = store.load(ids);
        assertThat(loaded.values()).extracting(r -> r.envelope().traceParent()).as("from the table")
                .containsExactly(CONTEXT, null, CONTEXT);
        assertThat(loaded.values()).containsExactly(traced, untraced, toLan);
    }

    /** Written by hand, say: the message goes on without a context rather than not at all. */
    @Test
    void aStoredTraceContextThatDoesNotReadIsReadAsNone() throws Exception {
        store.close();
        store = RelayStore.opened(db.dataSource(), StoreLimits.of(1_000_000), 0, clock);
        long id = store.accept(List.of(Copy.of(TO_BRAVO, withContext(relayed("c-1", Precedence.FLASH, "SITREP"),
                CONTEXT)))).getFirst().stored().id();
        db.execute("UPDATE relay_copy SET trace_parent = '00-' || repeat('0', 32) || '-00f067aa0ba902b7-01'");

        RelayedEnvelope loaded = store.load(List.of(id)).get(id);

        assertThat(loaded.messageId()).isEqualTo("c-1");
        assertThat(loaded.envelope().traceParent()).isNull();
    }

    /** A row a gateway stored before copies had trace contexts (migration V12) reads with none, and its trace. */
    @Test
    void aRowStoredBeforeTraceContextsReadsWithNone() throws Exception {
        DataSource older = db.databaseAt("before_trace_parents", "11");
        try (Connection c = older.getConnection(); Statement s = c.createStatement()) {
            s.execute("INSERT INTO relay_copy (id, route, message_id, origin_node, kmtf_type, precedence, "
                    + "classification, created_at, body, crossed, bound_for, bytes, supersede_key, stored_at, trace) "
                    + "VALUES (7, 'bravo', 'old-1', 'node-a', 'SITREP', 3, 'UNCLASSIFIED', "
                    + "'2026-11-22T08:00:00.123456Z', convert_to('MSGID/SITREP//', 'UTF8'), ARRAY['alpha'], "
                    + "ARRAY['bravo'], 100, NULL, '2026-11-22T08:00:01Z', 'node node-a sent +3ms')");
        }
        StoreDatabase.migrate(older);

        try (RelayStore upgraded = RelayStore.opened(older, StoreLimits.of(1_000_000), 0, clock)) {
            Waiting waiting = upgraded.backlog(TO_BRAVO).peek(Precedence.ROUTINE, "SITREP");
            RelayedEnvelope loaded = upgraded.load(List.of(waiting.id())).get(waiting.id());

            assertThat(loaded.messageId()).isEqualTo("old-1");
            assertThat(loaded.envelope().traceText()).isEqualTo("node node-a sent +3ms");
            assertThat(loaded.envelope().traceParent()).isNull();
        }
    }

    /**
     * The store's custody steps, each logged in the transaction that writes the copy or deletes it: stored (from this
     * site's LAN or a peer), a waiting report superseded, then acknowledged by the peer, delivered onto the LAN and
     * expired. A store transaction rolled back at its commit logs nothing.
     */
    @Test
    void everyCopyStoredOrRemovedIsLoggedInTheTransactionThatWritesOrDeletesIt() throws Exception {
        db.execute("TRUNCATE custody_log");
        reopenLogging();
        RelayedEnvelope fromBravo = RelayedEnvelope.of(relayed("c-3", Precedence.ROUTINE, "SITREP").envelope(),
                List.of(BRAVO, ALPHA), Set.of(ALPHA));
        List<Acceptance> stored = store.accept(List.of(
                Copy.of(TO_BRAVO, relayed("c-1", Precedence.FLASH, "SITREP")),
                Copy.of(TO_CHARLIE, relayed("c-2", Precedence.FLASH, "SITREP")),
                Copy.of(Route.lan(), fromBravo), position("p-1", CREATED, TO_BRAVO)));
        store.accept(List.of(position("p-2", CREATED.plusSeconds(1), TO_BRAVO)));

        store.remove(List.of(stored.get(0).stored().id()), Removal.ACKNOWLEDGED);
        store.remove(List.of(stored.get(1).stored().id()), Removal.EXPIRED);
        store.remove(List.of(stored.get(2).stored().id()), Removal.DELIVERED);
        store.deleteRemoved();

        assertThat(db.strings("SELECT concat_ws(' ', event, array_to_string(message_ids, ','), "
                + "array_to_string(peer, ','), link, precedence, detail) FROM custody_log WHERE hop = 'alpha'"))
                .containsExactlyInAnyOrder("stored c-1 bravo norm FLASH from this site's LAN",
                        "stored c-2 charlie norm FLASH from this site's LAN",
                        "stored c-3 @lan lan ROUTINE from site bravo",
                        "stored p-1 bravo norm ROUTINE from this site's LAN",
                        "stored p-2 bravo norm ROUTINE from this site's LAN",
                        "dropped p-1 bravo norm ROUTINE superseded by a newer report",
                        "acknowledged c-1 bravo norm FLASH", "expired c-2 charlie norm FLASH",
                        "delivered c-3 @lan lan ROUTINE");
        // The origin's delivery reports read the fates among them, the removals found through their storings too.
        assertThat(new DeliveryReports(db.dataSource(), new DatabaseOwner("site", "alpha", "gateway.wan.site"))
                .after(NodeId.of("node-a"), 0, 10)).extracting(r -> r.event() + " " + r.messageIds())
                .containsExactlyInAnyOrder("dropped [p-1]", "expired [c-2]", "delivered [c-3]");
        db.execute("CREATE FUNCTION refuse_at_commit() RETURNS trigger LANGUAGE plpgsql AS "
                + "$$ BEGIN RAISE EXCEPTION 'the store refuses it at commit (test)'; END $$",
                "CREATE CONSTRAINT TRIGGER relay_copy_refused_at_commit AFTER INSERT ON relay_copy "
                        + "DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION refuse_at_commit()");
        try {
            assertThatThrownBy(() -> store.accept(List.of(Copy.of(TO_BRAVO, relayed("c-4", Precedence.FLASH,
                    "SITREP"))))).isInstanceOf(SQLException.class).hasMessageContaining("refuses it at commit");
        }
        finally {
            db.execute("DROP TRIGGER relay_copy_refused_at_commit ON relay_copy", "DROP FUNCTION refuse_at_commit()");
        }
        assertThat(db.count("SELECT count(*) FROM custody_log WHERE message_ids @> ARRAY['c-4']")).isZero();
        assertThat(db.count("SELECT count(*) FROM relay_copy WHERE message_id = 'c-4'")).isZero();
    }

    /**
     * A removal's step names the row of the copy's storing and stays out of the message id index; the trace finds it
     * through that row, and not for another message of the same row. A copy stored before a restart, whose storing's
     * row the store no longer knows, has its removal found by its id, through the row's filter as a storing is.
     */
    @Test
    void aRemovalIsFoundThroughTheStepThatStoredTheCopyAndByItsIdAfterARestart() throws Exception {
        db.execute("TRUNCATE custody_log");
        reopenLogging();
        List<Acceptance> stored = store.accept(List.of(Copy.of(TO_BRAVO, relayed("c-1", Precedence.FLASH, "SITREP")),
                Copy.of(TO_BRAVO, relayed("c-2", Precedence.FLASH, "SITREP")),
                Copy.of(TO_BRAVO, relayed("c-3", Precedence.FLASH, "SITREP"))));
        store.remove(List.of(stored.get(0).stored().id(), stored.get(1).stored().id()), Removal.ACKNOWLEDGED);
        store.deleteRemoved();

        assertThat(db.strings("SELECT event || ' ' || array_to_string(message_ids, ',') || ' ' || coalesce(earlier = "
                + "ARRAY[(SELECT id FROM custody_log WHERE event = 'stored')], false) FROM custody_log ORDER BY id"))
                .containsExactly("stored c-1,c-2,c-3 false", "acknowledged c-1,c-2 true");
        assertThat(events("c-1")).containsExactly("stored", "acknowledged");
        assertThat(events("c-3")).containsExactly("stored");

        reopenLogging();
        store.remove(List.of(stored.get(2).stored().id()), Removal.ACKNOWLEDGED);
        store.deleteRemoved();

        assertThat(db.strings("SELECT coalesce(earlier::text, 'filtered ' || (ids_bloom IS NOT NULL)) FROM custody_log "
                + "WHERE event = 'acknowledged' AND message_ids = ARRAY['c-3']")).containsExactly("filtered true");
        assertThat(events("c-3")).containsExactly("stored", "acknowledged");
    }

    /**
     * A gateway's storing steps stay out of the message id index: the trace finds every message of a batch through
     * the row's Bloom filter, and nothing for a message the store never saw, whose probes a filter may answer maybe
     * for (the ids are checked).
     */
    @Test
    void aStoringIsFoundThroughItsRowsFilterNotTheIndex() throws Exception {
        db.execute("TRUNCATE custody_log");
        reopenLogging();
        List<String> ids = IntStream.range(0, 400).mapToObj(i -> "batch-" + i).toList();
        store.accept(ids.stream().map(id -> Copy.of(TO_BRAVO, relayed(id, Precedence.ROUTINE, "SITREP"))).toList());

        assertThat(db.count("SELECT count(*) FROM custody_log WHERE ids_bloom IS NULL")).as("rows without a filter")
                .isZero();
        assertThat(db.count("SELECT count(*) FROM custody_log WHERE earlier IS NULL AND ids_bloom IS NULL"))
                .as("rows the message id index holds").isZero();
        for (String id : ids) {
            assertThat(events(id)).as(id).containsExactly("stored");
        }
        for (int i = 0; i < 2_000; i++) {
            assertThat(events("never-" + i)).isEmpty();
        }
    }

    /** The store closed and opened again, logging its custody steps as site alpha's over the norm link. */
    private void reopenLogging() {
        store.close();
        store = RelayStore.opened(db.dataSource(), StoreLimits.of(1_000_000), RelayStore.DEFAULT_CACHE_BYTES, clock,
                new CustodyLog("alpha", "norm").bloomed());
    }

    /** The events of a message's steps in the store's log, as the trace reads them. */
    private List<String> events(String messageId) throws SQLException {
        try (Connection c = db.dataSource().getConnection()) {
            return CustodyLogReader.read(c, messageId).steps().stream().map(CustodyStep::event).toList();
        }
    }

    @Test
    void aCopyReadFromTheTableEqualsTheCopyStored() throws Exception {
        store.close();
        store = RelayStore.opened(db.dataSource(), StoreLimits.of(1_000_000), 0, clock);
        Envelope envelope = new Envelope("msg-ü-3", NodeId.of("node-a"), "POSREP", Precedence.IMMEDIATE,
                "SECRET//REL KOR", Instant.parse("2026-11-22T08:00:00.123456789Z"),
                "위치 보고/트랙 7//".getBytes(StandardCharsets.UTF_8));
        RelayedEnvelope relayed = RelayedEnvelope.of(envelope, List.of(ALPHA, CHARLIE), Set.of(BRAVO));

        long id = store.accept(List.of(Copy.of(TO_BRAVO, relayed))).getFirst().stored().id();

        assertThat(store.cachedCopies()).isZero();
        RelayedEnvelope read = store.load(List.of(id)).get(id);
        assertThat(read.envelope().createdAt()).as("kept to the microsecond").isEqualTo(CREATED);
        assertThat(read.envelope().body()).isEqualTo(envelope.body());
        assertThat(read.crossed()).containsExactly(ALPHA, CHARLIE);
        assertThat(read.boundFor()).containsExactly(BRAVO);
    }

    @Test
    void aCopyCreatedLongBeforeThe21stCenturyAndOneWithManySitesReadBackFromTheTable() throws Exception {
        store.close();
        store = RelayStore.opened(db.dataSource(), StoreLimits.of(1_000_000), 0, clock);
        Envelope ancient = new Envelope("msg-4", NodeId.of("node-b"), "SITREP", Precedence.ROUTINE, "UNCLASSIFIED",
                Envelope.EARLIEST_CREATED_AT.plusNanos(1_999), new byte[] { 0, (byte) 0xff, 10 });
        RelayedEnvelope toLan = RelayedEnvelope.of(ancient, List.of(BRAVO, CHARLIE, SiteId.of("delta")),
                Set.of(ALPHA, SiteId.of("echo"), SiteId.of("foxtrot")));

        long id = store.accept(List.of(Copy.superseding(Route.lan(), toLan, "SITREP/7"))).getFirst().stored().id();

        RelayedEnvelope read = store.load(List.of(id)).get(id);
        assertThat(read.envelope().createdAt()).as("before PostgreSQL's epoch, to the microsecond")
                .isEqualTo(Envelope.EARLIEST_CREATED_AT.plusNanos(1_000));
        assertThat(read.envelope().body()).containsExactly(0, 0xff, 10);
        assertThat(read.crossed()).containsExactly(BRAVO, CHARLIE, SiteId.of("delta"));
        assertThat(read.boundFor()).containsExactlyInAnyOrder(ALPHA, SiteId.of("echo"), SiteId.of("foxtrot"));
        assertThat(db.strings("SELECT supersede_key || ' ' || (stored_at AT TIME ZONE 'UTC') FROM relay_copy"))
                .containsExactly("SITREP/7 2026-11-22 09:00:00.654321");
    }

    @Test
    void aReopenedStoreGivesIdsAfterTheHighestInTheTable() throws Exception {
        List<Acceptance> first = store.accept(List.of(Copy.of(TO_BRAVO, relayed("i-1", Precedence.ROUTINE, "SITREP")),
                Copy.of(TO_BRAVO, relayed("i-2", Precedence.ROUTINE, "SITREP")),
                Copy.of(TO_BRAVO, relayed("i-3", Precedence.ROUTINE, "SITREP"))));
        List<Long> firstIds = first.stream().map(a -> a.stored().id()).toList();
        assertThat(firstIds).as("in the order offered").isSorted().doesNotHaveDuplicates();
        store.remove(List.of(firstIds.get(0)), Removal.ACKNOWLEDGED);
        store.close();

        store = RelayStore.opened(db.dataSource(), StoreLimits.of(1_000_000), clock);
        List<Acceptance> second = store.accept(List.of(Copy.of(TO_BRAVO, relayed("i-4", Precedence.ROUTINE, "SITREP")),
                Copy.of(TO_BRAVO, relayed("i-5", Precedence.ROUTINE, "SITREP"))));

        assertThat(second).extracting(a -> a.stored().id()).allSatisfy(id -> assertThat(id).isGreaterThan(firstIds.get(2)));
        assertThat(db.strings("SELECT message_id FROM relay_copy ORDER BY id")).containsExactly("i-2", "i-3", "i-4",
                "i-5");
    }

    @Test
    void storedCopiesAreReadFromMemoryUntilRemovedAndAsTheTableWouldGiveThem() throws Exception {
        RelayedEnvelope first = relayed("m-1", Precedence.ROUTINE, "SITREP",
                Instant.parse("2026-11-22T08:00:00.123456789Z"));
        RelayedEnvelope second = relayed("m-2", Precedence.ROUTINE, "SITREP");
        List<Acceptance> stored = store.accept(List.of(Copy.of(TO_BRAVO, first), Copy.of(TO_BRAVO, second)));
        long firstId = stored.get(0).stored().id();
        long secondId = stored.get(1).stored().id();
        // Behind the store's back: a read of the table would show it.
        db.execute("UPDATE relay_copy SET body = '\\x00'::bytea");

        Map<Long, RelayedEnvelope> loaded = store.load(List.of(secondId, firstId));

        assertThat(loaded.keySet()).containsExactly(secondId, firstId);
        assertThat(loaded.get(firstId).envelope().body()).isEqualTo(first.envelope().body());
        assertThat(loaded.get(firstId).envelope().createdAt()).isEqualTo(CREATED);
        assertThat(store.cachedCopies()).isEqualTo(2);
        store.remove(List.of(firstId), Removal.ACKNOWLEDGED);
        assertThat(store.cachedCopies()).isEqualTo(1);
        assertThat(store.load(List.of(firstId, secondId)).keySet()).containsExactly(secondId);
    }

    @Test
    void copiesBeyondTheCacheBoundAndAfterARestartAreReadFromTheTable() throws Exception {
        RelayedEnvelope first = relayed("m-1", Precedence.ROUTINE, "SITREP");
        RelayedEnvelope second = relayed("m-2", Precedence.ROUTINE, "SITREP");
        store.close();
        store = RelayStore.opened(db.dataSource(), StoreLimits.of(1_000_000), Copy.estimateBytes(first), clock);
        List<Acceptance> stored = store.accept(List.of(Copy.of(TO_BRAVO, first), Copy.of(TO_BRAVO, second)));
        long firstId = stored.get(0).stored().id();
        long secondId = stored.get(1).stored().id();
        db.execute("UPDATE relay_copy SET body = '\\x00'::bytea");

        Map<Long, RelayedEnvelope> loaded = store.load(List.of(firstId, secondId));

        assertThat(loaded.get(firstId).envelope().body()).as("kept").isEqualTo(first.envelope().body());
        assertThat(loaded.get(secondId).envelope().body()).as("past the bound: read").containsExactly(0);
        store.close();
        try (RelayStore restarted = RelayStore.opened(db.dataSource(), StoreLimits.of(1_000_000), clock)) {
            assertThat(restarted.load(List.of(firstId)).get(firstId).envelope().body()).containsExactly(0);
        }
    }

    @Test
    void duplicateCopyIsAbsorbed() throws Exception {
        RelayedEnvelope message = relayed("m-1", Precedence.PRIORITY, "SITREP");
        store.accept(List.of(Copy.of(TO_BRAVO, message)));

        List<Acceptance> again = store.accept(List.of(Copy.of(TO_BRAVO, message), Copy.of(Route.lan(), message),
                Copy.of(Route.lan(), message)));

        assertThat(again).extracting(Acceptance::outcome)
                .containsExactly(Outcome.DUPLICATE, Outcome.STORED, Outcome.DUPLICATE);
        assertThat(db.count("SELECT count(*) FROM relay_copy")).isEqualTo(2);
        assertThat(store.duplicates()).isEqualTo(2);
        assertThat(store.backlog(TO_BRAVO).waitingCount(Precedence.PRIORITY)).isEqualTo(1);
        assertThat(store.stats().bytes()).isEqualTo(2L * Copy.estimateBytes(message));
    }

    @Test
    void copyIsAbsorbedUntilItsRowIsDeletedAlsoAfterARestart() throws Exception {
        RelayedEnvelope message = relayed("m-1", Precedence.PRIORITY, "SITREP");
        store.accept(List.of(Copy.of(TO_BRAVO, message)));
        store.close();
        store = RelayStore.opened(db.dataSource(), StoreLimits.of(1_000_000), clock);
        List<Acceptance> again = store.accept(List.of(Copy.of(TO_BRAVO, message)));
        assertThat(outcomes(again)).as("held as read from the table").containsExactly(Outcome.DUPLICATE);
        long id = store.backlog(TO_BRAVO).peek(Precedence.PRIORITY, "SITREP").id();

        store.remove(List.of(id), Removal.ACKNOWLEDGED);
        assertThat(outcomes(store.accept(List.of(Copy.of(TO_BRAVO, message)))))
                .as("removed, its row not yet deleted").containsExactly(Outcome.DUPLICATE);
        store.deleteRemoved();

        assertThat(outcomes(store.accept(List.of(Copy.of(TO_BRAVO, message))))).containsExactly(Outcome.STORED);
        assertThat(db.count("SELECT count(*) FROM relay_copy")).isEqualTo(1);
    }

    @Test
    void copyOfferedWhileAnotherCallStoresItIsAbsorbedOnceThatCallCommits() throws Exception {
        assertThat(offeredWhileAnotherCallStoresIt(false)).isEqualTo(Outcome.DUPLICATE);
    }

    @Test
    void copyOfferedWhileAnotherCallStoresItIsStoredWhenThatCallFails() throws Exception {
        assertThat(offeredWhileAnotherCallStoresIt(true)).isEqualTo(Outcome.STORED);
    }

    @Test
    void concurrentCallsOfferingTheSameCopiesStoreEachOnce() throws Exception {
        List<Copy> copies = sized("c", Precedence.ROUTINE, 200);
        ExecutorService threads = Executors.newFixedThreadPool(4);
        try {
            List<Future<List<Acceptance>>> calls = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                List<Copy> batches = new ArrayList<>(copies);
                Collections.rotate(batches, 50 * t);
                calls.add(threads.submit(() -> {
                    List<Acceptance> all = new ArrayList<>();
                    for (int from = 0; from < batches.size(); from += 20) {
                        all.addAll(store.accept(batches.subList(from, from + 20)));
                    }
                    return all;
                }));
            }
            long stored = 0;
            for (Future<List<Acceptance>> call : calls) {
                stored += outcomes(call.get(60, TimeUnit.SECONDS)).stream().filter(o -> o == Outcome.STORED).count();
            }
            assertThat(stored).isEqualTo(200);
        }
        finally {
            threads.shutdownNow();
        }
        assertThat(db.count("SELECT count(DISTINCT message_id) FROM relay_copy")).isEqualTo(200);
        assertThat(db.count("SELECT count(*) FROM relay_copy")).isEqualTo(200);
        assertThat(store.duplicates()).isEqualTo(600);
        assertThat(store.stats().bytes()).isEqualTo(200 * 100);
    }

    /**
     * Call A stores copies s-1 and p-1 and is held inside its transaction (a trigger waits for an advisory lock the
     * test holds) while call B offers s-1; then A goes on and commits, or fails on p-1. B's outcome for s-1.
     */
    private Outcome offeredWhileAnotherCallStoresIt(boolean firstCallFails) throws Exception {
        db.execute("CREATE FUNCTION test_gate() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
                + "PERFORM pg_advisory_xact_lock_shared(4242); RETURN NULL; END $$",
                "CREATE TRIGGER test_gate BEFORE INSERT ON relay_copy FOR EACH STATEMENT EXECUTE FUNCTION test_gate()",
                "ALTER TABLE relay_copy ADD CONSTRAINT test_no_poison CHECK (message_id <> '"
                        + (firstCallFails ? "p-1" : "none") + "')");
        ExecutorService threads = Executors.newFixedThreadPool(1);
        try (java.sql.Connection gate = db.dataSource().getConnection()) {
            gate.createStatement().execute("SELECT pg_advisory_lock(4242)");
            RelayedEnvelope shared = relayed("s-1", Precedence.ROUTINE, "SITREP");
            Future<List<Acceptance>> first = threads.submit(() -> store.accept(
                    List.of(Copy.of(TO_BRAVO, shared), Copy.of(TO_BRAVO, relayed("p-1", Precedence.ROUTINE, "SITREP")))));
            await().atMost(Duration.ofSeconds(30)).until(() -> db.count(
                    "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted") == 1);
            List<Acceptance> second = new ArrayList<>();
            Thread offering = Thread.ofPlatform().start(() -> {
                try {
                    second.addAll(store.accept(List.of(Copy.of(TO_BRAVO, shared))));
                }
                catch (SQLException ex) {
                    throw new IllegalStateException(ex);
                }
            });
            await().atMost(Duration.ofSeconds(30)).until(() -> offering.getState() == Thread.State.WAITING);
            assertThat(db.count("SELECT count(*) FROM relay_copy")).as("nothing committed yet").isZero();

            gate.createStatement().execute("SELECT pg_advisory_unlock(4242)");

            offering.join(Duration.ofSeconds(30));
            if (firstCallFails) {
                assertThatThrownBy(() -> first.get(30, TimeUnit.SECONDS)).hasMessageContaining("test_no_poison");
            }
            else {
                assertThat(outcomes(first.get(30, TimeUnit.SECONDS))).containsOnly(Outcome.STORED);
            }
            assertThat(db.strings("SELECT message_id FROM relay_copy WHERE message_id = 's-1'")).hasSize(1);
            assertThat(second).hasSize(1);
            return second.getFirst().outcome();
        }
        finally {
            threads.shutdownNow();
            db.execute("DROP TRIGGER test_gate ON relay_copy", "DROP FUNCTION test_gate()",
                    "ALTER TABLE relay_copy DROP CONSTRAINT test_no_poison");
        }
    }

    @Test
    void lowestPrecedenceIsRefusedFirstAndNothingIsEvicted() throws Exception {
        store.close();
        store = RelayStore.opened(db.dataSource(), StoreLimits.of(10_000), clock);

        // 100 bytes a copy: ROUTINE fits to 85 copies, PRIORITY to 90, IMMEDIATE to 95, FLASH to 100.
        assertThat(outcomes(store.accept(sized("r", Precedence.ROUTINE, 90))))
                .containsExactlyElementsOf(expect(85, 5));
        assertThat(outcomes(store.accept(sized("p", Precedence.PRIORITY, 10))))
                .containsExactlyElementsOf(expect(5, 5));
        assertThat(outcomes(store.accept(sized("i", Precedence.IMMEDIATE, 10))))
                .containsExactlyElementsOf(expect(5, 5));
        assertThat(outcomes(store.accept(sized("r2", Precedence.ROUTINE, 1)))).containsExactly(Outcome.REFUSED);
        assertThat(outcomes(store.accept(sized("f", Precedence.FLASH, 6)))).containsExactlyElementsOf(expect(5, 1));

        assertThat(store.stats().bytes()).isEqualTo(10_000);
        assertThat(db.count("SELECT count(*) FROM relay_copy")).isEqualTo(100);
        assertThat(db.count("SELECT count(*) FROM relay_copy WHERE message_id LIKE 'r-%'"))
                .as("no ROUTINE copy evicted to make room").isEqualTo(85);
        assertThat(store.refusals(Precedence.ROUTINE)).isEqualTo(6);
        assertThat(store.refusals(Precedence.PRIORITY)).isEqualTo(5);
        assertThat(store.refusals(Precedence.IMMEDIATE)).isEqualTo(5);
        assertThat(store.refusals(Precedence.FLASH)).isEqualTo(1);

        // A redelivered copy is stored already: it is a duplicate, however full the store.
        assertThat(outcomes(store.accept(sized("r", Precedence.ROUTINE, 1)))).containsExactly(Outcome.DUPLICATE);

        // Room made by a removal goes to FLASH; ROUTINE stays refused while the store is above its tier.
        store.remove(List.of(1L), Removal.ACKNOWLEDGED);
        assertThat(outcomes(store.accept(sized("r3", Precedence.ROUTINE, 1)))).containsExactly(Outcome.REFUSED);
        assertThat(outcomes(store.accept(sized("f2", Precedence.FLASH, 1)))).containsExactly(Outcome.STORED);
    }

    @Test
    void tiersAreASettingThatMustNotFavourALowerPrecedence() throws Exception {
        store.close();
        store = RelayStore.opened(db.dataSource(), new StoreLimits(10_000, 50, 60, 70, 100), clock);
        assertThat(outcomes(store.accept(sized("r", Precedence.ROUTINE, 60))))
                .containsExactlyElementsOf(expect(50, 10));

        assertThatThrownBy(() -> new StoreLimits(10_000, 95, 90, 95, 100))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("routine 95%");
        assertThatThrownBy(() -> new StoreLimits(10_000, 85, 90, 95, 101))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("flashPercent");
        assertThatThrownBy(() -> StoreLimits.of(0)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void newerReportReplacesTheWaitingOneWithItsKey() throws Exception {
        Waiting first = store.accept(List.of(position("p-1", CREATED, TO_BRAVO))).getFirst().stored();
        store.accept(List.of(position("q-1", CREATED, TO_CHARLIE)));

        Acceptance second = store.accept(List.of(position("p-2", CREATED.plusSeconds(1), TO_BRAVO))).getFirst();

        assertThat(second.outcome()).isEqualTo(Outcome.STORED);
        assertThat(second.superseded()).isEqualTo(first);
        assertThat(db.strings("SELECT message_id FROM relay_copy ORDER BY id")).containsExactly("q-1", "p-2");
        Backlog bravo = store.backlog(TO_BRAVO);
        assertThat(bravo.peek(Precedence.ROUTINE, "POSREP")).isEqualTo(second.stored());
        assertThat(bravo.waitingCount(Precedence.ROUTINE)).isEqualTo(1);
        assertThat(store.stats().bytes()).isEqualTo(2L * second.stored().bytes());
        assertThat(store.superseded()).isEqualTo(1);

        // An older report than the waiting one is worthless; a redelivery of the waiting one is a duplicate.
        assertThat(outcomes(store.accept(List.of(position("p-0", CREATED.minusSeconds(1), TO_BRAVO),
                position("p-2", CREATED.plusSeconds(1), TO_BRAVO)))))
                .containsExactly(Outcome.SUPERSEDED, Outcome.DUPLICATE);
        assertThat(db.strings("SELECT message_id FROM relay_copy ORDER BY id")).containsExactly("q-1", "p-2");

        // In one batch, the newest report of a key is stored, the others are superseded.
        assertThat(outcomes(store.accept(List.of(position("p-4", CREATED.plusSeconds(4), TO_BRAVO),
                position("p-3", CREATED.plusSeconds(3), TO_BRAVO), position("p-5", CREATED.plusSeconds(5), TO_BRAVO)))))
                .containsExactly(Outcome.SUPERSEDED, Outcome.SUPERSEDED, Outcome.STORED);
        assertThat(db.strings("SELECT message_id FROM relay_copy ORDER BY id")).containsExactly("q-1", "p-5");
        assertThat(store.superseded()).isEqualTo(5);
    }

    @Test
    void reportInFlightIsNotReplaced() throws Exception {
        Waiting first = store.accept(List.of(position("p-1", CREATED, TO_BRAVO))).getFirst().stored();
        store.backlog(TO_BRAVO).take(first);

        Acceptance second = store.accept(List.of(position("p-2", CREATED.plusSeconds(1), TO_BRAVO))).getFirst();

        assertThat(second.outcome()).isEqualTo(Outcome.STORED);
        assertThat(second.superseded()).isNull();
        assertThat(db.strings("SELECT message_id FROM relay_copy ORDER BY id")).containsExactly("p-1", "p-2");
    }

    @Test
    void reportSupersededBetweenPeekAndTakeIsGone() throws Exception {
        store.accept(List.of(position("p-1", CREATED, TO_BRAVO)));
        Backlog bravo = store.backlog(TO_BRAVO);
        Waiting peeked = bravo.peek(Precedence.ROUTINE, "POSREP");
        Waiting newer = store.accept(List.of(position("p-2", CREATED.plusSeconds(1), TO_BRAVO))).getFirst().stored();

        bravo.take(peeked);

        assertThat(store.load(List.of(peeked.id()))).isEmpty();
        assertThat(bravo.peek(Precedence.ROUTINE, "POSREP")).isEqualTo(newer);
        bravo.putBack(List.of(peeked));
        assertThat(bravo.waitingCount(Precedence.ROUTINE)).isEqualTo(1);
        assertThat(store.stats().level(TO_BRAVO, Precedence.ROUTINE).copies()).isEqualTo(1);
    }

    @Test
    void reopenedStoreResumesTheSameBacklogInTheSameOrder() throws Exception {
        List<Copy> copies = new ArrayList<>();
        Precedence[] precedences = Precedence.values();
        String[] types = { "SITREP", "POSREP", "OPORD" };
        for (int i = 0; i < 60; i++) {
            Route route = i % 3 == 0 ? Route.lan() : i % 3 == 1 ? TO_BRAVO : TO_CHARLIE;
            copies.add(Copy.of(route, relayed("m-" + i, precedences[i * 7 % 4], types[i * 5 % 3])));
        }
        store.accept(copies.subList(0, 30));
        clock.advance(Duration.ofSeconds(3));
        store.accept(copies.subList(30, 60));
        Backlog bravo = store.backlog(TO_BRAVO);
        Waiting inFlight = bravo.peek(Precedence.FLASH, bravo.types(Precedence.FLASH).getFirst());
        bravo.take(inFlight);
        StoreStats before = store.stats();
        store.close();

        try (RelayStore reopened = RelayStore.opened(db.dataSource(), StoreLimits.of(1_000_000), clock)) {

            assertThat(reopened.routes()).containsExactlyInAnyOrder(Route.lan(), TO_BRAVO, TO_CHARLIE);
            assertThat(reopened.stats()).isEqualTo(before);
            bravo.putBack(List.of(inFlight));
            for (Route route : reopened.routes()) {
                for (Precedence precedence : precedences) {
                    assertThat(reopened.backlog(route).types(precedence))
                            .isEqualTo(store.backlog(route).types(precedence));
                    assertThat(reopened.backlog(route).waitingBytes(precedence))
                            .isEqualTo(store.backlog(route).waitingBytes(precedence));
                    for (String type : store.backlog(route).types(precedence)) {
                        assertThat(drain(reopened.backlog(route), precedence, type))
                                .isEqualTo(drain(store.backlog(route), precedence, type)).isNotEmpty();
                    }
                }
            }
        }
    }

    @Test
    void aSecondStoreOnTheSameDatabaseIsRefusedUntilTheFirstCloses() {
        assertThatThrownBy(() -> RelayStore.opened(db.dataSource(), StoreLimits.of(1_000_000), clock))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("Another relay store is open on database")
                .hasMessageMatching("(?s).*the session of PostgreSQL process \\d+ \\(client .*, connected since .*")
                .hasMessageContaining("each gateway needs a store database of its own");

        store.close();
        store.close();

        store = RelayStore.opened(db.dataSource(), StoreLimits.of(1_000_000), clock);
        assertThat(store.routes()).isEmpty();
    }

    /**
     * A pair's new leader finds the store still open by its predecessor (a session that lingers): it waits
     * {@code fenceAfter}, ends that session and opens the store with what the predecessor had stored.
     */
    @Test
    void aPairsNewLeaderEndsItsPredecessorsLingeringSessionAndOpensTheStore() throws Exception {
        store.close();
        store = new RelayStore(db.dataSource(), StoreLimits.of(1_000_000), 0, clock,
                CustodyLog.off());
        store.open(Duration.ofMinutes(1));
        store.accept(sized("kept", Precedence.FLASH, 3));
        RelayStore successor = new RelayStore(db.dataSource(), StoreLimits.of(1_000_000), 0, clock,
                CustodyLog.off());
        assertThat(successor.routes()).as("routes before the successor opens").isEmpty();
        long started = System.nanoTime();

        successor.open(Duration.ofMillis(300));
        try {
            assertThat(Duration.ofNanos(System.nanoTime() - started)).as("waited for the predecessor")
                    .isGreaterThanOrEqualTo(Duration.ofMillis(300));
            assertThat(successor.stats().level(TO_BRAVO, Precedence.FLASH).copies()).isEqualTo(3);
            assertThat(db.count("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND granted"))
                    .as("advisory locks held").isEqualTo(1);
            // The predecessor runs on, as a frozen machine woken up would: the database refuses its writes.
            assertThatThrownBy(() -> store.accept(sized("late", Precedence.FLASH, 2))).isInstanceOf(SQLException.class)
                    .hasMessageContaining("This relay store no longer holds its database's lock");
            assertThatThrownBy(() -> store.accept(sized("later", Precedence.FLASH, 1))).isInstanceOf(SQLException.class)
                    .hasMessageContaining("This relay store no longer owns its database");
            assertThat(outcomes(successor.accept(sized("next", Precedence.FLASH, 1)))).containsOnly(Outcome.STORED);
            assertThat(db.strings("SELECT message_id FROM relay_copy ORDER BY id"))
                    .containsExactly("kept-0", "kept-1", "kept-2", "next-0");
        }
        finally {
            successor.close();
        }
        assertThat(db.count("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory'")).as("after close").isZero();
    }

    /**
     * A write its predecessor began and never finished (its machine froze inside the transaction) neither holds up a
     * pair's new leader nor commits after it: the new leader ends that session before it reads the backlog.
     */
    @Test
    void aPairsNewLeaderEndsAWriteItsPredecessorLeftHanging() throws Exception {
        store.close();
        try (Connection hanging = db.dataSource().getConnection()) {
            hanging.setAutoCommit(false);
            try (PreparedStatement ps = hanging.prepareStatement("SELECT pg_advisory_xact_lock_shared(?)")) {
                ps.setLong(1, RelayStore.WRITE_LOCK);
                ps.execute();
            }
            RelayStore successor = new RelayStore(db.dataSource(), StoreLimits.of(1_000_000), 0, clock,
                CustodyLog.off());
            try {
                successor.open(Duration.ofMillis(300));
                assertThat(outcomes(successor.accept(sized("after", Precedence.FLASH, 1)))).containsOnly(Outcome.STORED);
            }
            finally {
                successor.close();
            }
            assertThatThrownBy(hanging::commit).as("the hanging write's commit").isInstanceOf(SQLException.class);
        }
    }

    /**
     * The store's lock session ends and no one else takes the lock, as when its database fails over to a standby: a
     * write is refused once, then the store takes the lock again and writes on.
     */
    @Test
    void aStoreWhoseLockSessionEndedTakesItsLockAgainWhenNoOneElseHoldsIt() throws Exception {
        // The timeout makes PostgreSQL wait until the session has gone: a session still exiting holds its lock.
        assertThat(db.count("SELECT count(pg_terminate_backend(pid, 10000)) FROM pg_locks WHERE locktype = 'advisory' "
                + "AND granted")).as("lock sessions ended").isEqualTo(1);

        assertThatThrownBy(() -> store.accept(sized("lost", Precedence.ROUTINE, 1))).isInstanceOf(SQLException.class)
                .hasMessageContaining("no longer holds its database's lock");
        // As a sender offers it again: a pooled connection of the ended session may fail one more try.
        await().atMost(Duration.ofSeconds(10)).ignoreExceptions().untilAsserted(() ->
                assertThat(outcomes(store.accept(sized("again", Precedence.ROUTINE, 1)))).containsOnly(Outcome.STORED));
        assertThat(db.count("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND granted"))
                .as("advisory locks held").isEqualTo(1);
    }

    /** A pair's leader does not end the session of a lone gateway on its store: it refuses, saying what to set. */
    @Test
    void aPairsLeaderRefusesAStoreALoneGatewayHoldsAndLeavesItOpen() throws Exception {
        RelayStore paired = new RelayStore(db.dataSource(), StoreLimits.of(1_000_000), 0, clock,
                CustodyLog.off());

        assertThatThrownBy(() -> paired.open(Duration.ofMillis(100))).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("is open by a gateway that is not one of a pair")
                .hasMessageContaining("relay store of a lone gateway")
                .hasMessageContaining("set gateway.wan.pair.enabled=true on both gateways of the site");
        assertThat(outcomes(store.accept(sized("still", Precedence.ROUTINE, 2)))).as("the lone gateway's store")
                .containsOnly(Outcome.STORED);
        paired.close();
    }

    @Test
    void removedCopiesLeaveTableBacklogAndBytes() throws Exception {
        List<Acceptance> stored = store.accept(sized("r", Precedence.ROUTINE, 4));
        Backlog bravo = store.backlog(TO_BRAVO);
        Waiting taken = stored.get(0).stored();
        bravo.take(taken);

        List<Waiting> removed = store.remove(List.of(taken.id(), stored.get(2).stored().id(), 999L),
                Removal.ACKNOWLEDGED);

        assertThat(removed).containsExactlyInAnyOrder(taken, stored.get(2).stored());
        store.deleteRemoved();
        assertThat(db.strings("SELECT message_id FROM relay_copy ORDER BY id")).containsExactly("r-1", "r-3");
        assertThat(bravo.waitingCount(Precedence.ROUTINE)).isEqualTo(2);
        assertThat(bravo.waitingBytes(Precedence.ROUTINE)).isEqualTo(200);
        assertThat(store.stats().bytes()).isEqualTo(200);
        assertThat(store.stats().level(TO_BRAVO, Precedence.ROUTINE).copies()).isEqualTo(2);
        bravo.putBack(List.of(taken));
        assertThat(drain(bravo, Precedence.ROUTINE, "SITREP")).containsExactly(stored.get(1).stored().id(),
                stored.get(3).stored().id());
        assertThat(store.remove(List.of(taken.id()), Removal.ACKNOWLEDGED)).isEmpty();
    }

    @Test
    void removedCopiesLeaveTheTableWithinARoundWithoutBeingAsked() throws Exception {
        List<Acceptance> stored = store.accept(sized("r", Precedence.ROUTINE, 3));

        store.remove(List.of(stored.get(0).stored().id(), stored.get(2).stored().id()), Removal.ACKNOWLEDGED);

        await().atMost(Duration.ofSeconds(10))
                .until(() -> db.strings("SELECT message_id FROM relay_copy ORDER BY id").equals(List.of("r-1")));
    }

    @Test
    void copiesPutBackGoAheadOfLaterArrivals() throws Exception {
        List<Waiting> stored = store.accept(sized("r", Precedence.ROUTINE, 5)).stream().map(Acceptance::stored)
                .toList();
        Backlog bravo = store.backlog(TO_BRAVO);
        for (int i = 0; i < 3; i++) {
            Waiting next = bravo.peek(Precedence.ROUTINE, "SITREP");
            assertThat(next).isEqualTo(stored.get(i));
            bravo.take(next);
        }
        assertThat(bravo.waitingCount(Precedence.ROUTINE)).isEqualTo(2);
        Waiting later = store.accept(sized("s", Precedence.ROUTINE, 1)).getFirst().stored();

        bravo.putBack(List.of(stored.get(2), stored.get(0), stored.get(1)));

        List<Long> expected = new ArrayList<>(stored.stream().map(Waiting::id).toList());
        expected.add(later.id());
        assertThat(drain(bravo, Precedence.ROUTINE, "SITREP")).isEqualTo(expected);
        assertThatThrownBy(() -> bravo.take(stored.get(0))).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("taken already");
    }

    @Test
    void statsGiveCountBytesAndOldestPerRouteAndPrecedence() throws Exception {
        Instant first = clock.instant();
        store.accept(sized("a", Precedence.ROUTINE, 3));
        clock.advance(Duration.ofMinutes(1));
        store.accept(List.of(Copy.of(Route.lan(), relayed("b-1", Precedence.FLASH, "OPORD")),
                new Copy(TO_BRAVO, relayed("b-2", Precedence.ROUTINE, "POSREP"), null, 50)));
        store.backlog(TO_BRAVO).take(store.backlog(TO_BRAVO).peek(Precedence.ROUTINE, "SITREP"));

        StoreStats stats = store.stats();

        assertThat(stats.level(TO_BRAVO, Precedence.ROUTINE))
                .as("the copy in flight still counts").isEqualTo(new StoreStats.Level(4, 350, first));
        assertThat(stats.level(Route.lan(), Precedence.FLASH)).isEqualTo(new StoreStats.Level(1,
                Copy.estimateBytes(relayed("b-1", Precedence.FLASH, "OPORD")), first.plus(Duration.ofMinutes(1))));
        assertThat(stats.level(TO_BRAVO, Precedence.FLASH)).isEqualTo(new StoreStats.Level(0, 0, null));
        assertThat(stats.level(TO_CHARLIE, Precedence.FLASH)).isEqualTo(new StoreStats.Level(0, 0, null));
        assertThat(stats.bytes()).isEqualTo(350 + Copy.estimateBytes(relayed("b-1", Precedence.FLASH, "OPORD")));
        assertThat(stats.maxBytes()).isEqualTo(1_000_000);
    }

    @Test
    void batchIsOneTransaction() throws Exception {
        store.close();
        store = RelayStore.opened(db.dataSource(), new StoreLimits(50_000, 100, 100, 100, 100), clock);
        db.execute("ALTER TABLE relay_copy ADD CONSTRAINT test_no_poison CHECK (message_id <> 'r-250')");
        List<Copy> batch = sized("r", Precedence.ROUTINE, 500);
        try {
            assertThatThrownBy(() -> store.accept(batch)).isInstanceOf(SQLException.class)
                    .hasMessageContaining("test_no_poison");

            assertThat(db.count("SELECT count(*) FROM relay_copy")).isZero();
            assertThat(store.backlog(TO_BRAVO).waitingCount(Precedence.ROUTINE)).isZero();
            assertThat(store.stats().bytes()).isZero();
        }
        finally {
            db.execute("ALTER TABLE relay_copy DROP CONSTRAINT test_no_poison");
        }
        // The failed call's room is free again: the whole batch fits the bound exactly.
        assertThat(outcomes(store.accept(batch))).containsOnly(Outcome.STORED).hasSize(500);
    }

    @Test
    void commitIsSynchronousEvenWhereTheServerDefaultIsAsynchronous() throws Exception {
        db.execute("CREATE TABLE commit_setting (setting text)", """
                CREATE FUNCTION record_commit_setting() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN
                    INSERT INTO commit_setting VALUES (current_setting('synchronous_commit'));
                    RETURN NULL;
                END $$""", "CREATE TRIGGER record_commit_setting AFTER INSERT ON relay_copy FOR EACH STATEMENT "
                + "EXECUTE FUNCTION record_commit_setting()");
        try {
            assertThat(db.strings("SHOW synchronous_commit")).as("zonky's test server commits asynchronously")
                    .containsExactly("off");

            store.accept(sized("r", Precedence.ROUTINE, 2));

            assertThat(db.strings("SELECT setting FROM commit_setting")).containsExactly("on");
        }
        finally {
            db.execute("DROP TRIGGER record_commit_setting ON relay_copy", "DROP FUNCTION record_commit_setting()",
                    "DROP TABLE commit_setting");
        }
    }

    @Test
    void oneTakerAndTwoAddersShareABacklog() throws Exception {
        int perAdder = 500;
        ExecutorService threads = Executors.newFixedThreadPool(3);
        try {
            List<Future<?>> adders = new ArrayList<>();
            for (String adder : List.of("a", "b")) {
                adders.add(threads.submit(() -> {
                    for (int batch = 0; batch < perAdder / 25; batch++) {
                        List<Copy> copies = new ArrayList<>();
                        for (int i = 0; i < 25; i++) {
                            int n = batch * 25 + i;
                            copies.add(Copy.of(TO_BRAVO, relayed(adder + "-" + n, Precedence.values()[n % 4],
                                    n % 3 == 0 ? "SITREP" : "POSREP")));
                        }
                        assertThat(outcomes(store.accept(copies))).containsOnly(Outcome.STORED);
                    }
                    return null;
                }));
            }
            Backlog bravo = store.backlog(TO_BRAVO);
            Future<Set<Long>> taker = threads.submit(() -> {
                Set<Long> removed = new HashSet<>();
                while (removed.size() < 2 * perAdder && !Thread.currentThread().isInterrupted()) {
                    List<Long> taken = new ArrayList<>();
                    for (Precedence precedence : Precedence.values()) {
                        for (String type : bravo.types(precedence)) {
                            Waiting next = bravo.peek(precedence, type);
                            if (next != null) {
                                bravo.take(next);
                                taken.add(next.id());
                            }
                        }
                    }
                    for (Waiting copy : store.remove(taken, Removal.ACKNOWLEDGED)) {
                        assertThat(removed.add(copy.id())).as("copy %s taken once", copy.id()).isTrue();
                    }
                }
                return removed;
            });
            for (Future<?> adder : adders) {
                adder.get(60, TimeUnit.SECONDS);
            }
            assertThat(taker.get(60, TimeUnit.SECONDS)).hasSize(2 * perAdder);
        }
        finally {
            threads.shutdownNow();
        }
        store.deleteRemoved();
        assertThat(db.count("SELECT count(*) FROM relay_copy")).isZero();
        assertThat(store.stats().bytes()).isZero();
        for (Precedence precedence : Precedence.values()) {
            assertThat(store.backlog(TO_BRAVO).waitingBytes(precedence)).isZero();
            assertThat(store.stats().level(TO_BRAVO, precedence).copies()).isZero();
        }
    }

    @Test
    void copyNeverGoesBackToASiteItCrossed() {
        RelayedEnvelope fromBravo = RelayedEnvelope.of(relayed("m-1", Precedence.FLASH, "SITREP").envelope(),
                List.of(BRAVO, ALPHA), Set.of(CHARLIE));

        assertThatThrownBy(() -> Copy.of(TO_BRAVO, fromBravo)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("crossed site bravo");
        assertThat(Route.parse(TO_BRAVO.key())).isEqualTo(TO_BRAVO);
        assertThat(Route.parse(Route.lan().key())).isEqualTo(Route.lan());
    }

    private static RelayedEnvelope relayed(String id, Precedence precedence, String type) {
        return relayed(id, precedence, type, CREATED);
    }

    private static RelayedEnvelope relayed(String id, Precedence precedence, String type, Instant created) {
        Envelope envelope = new Envelope(id, NodeId.of("node-a"), type, precedence, "UNCLASSIFIED", created,
                ("MSGID/" + type + "/" + id + "//").getBytes(StandardCharsets.UTF_8));
        return RelayedEnvelope.of(envelope, List.of(ALPHA), Set.of(BRAVO));
    }

    private static RelayedEnvelope withContext(RelayedEnvelope relayed, TraceParent context) {
        return new RelayedEnvelope(relayed.envelope().withTraceParent(context), relayed.crossed(), relayed.boundFor());
    }

    private static RelayedEnvelope traced(RelayedEnvelope relayed, HopTrace trace) {
        return new RelayedEnvelope(relayed.envelope().withTrace(trace), relayed.crossed(), relayed.boundFor());
    }

    /** Copies for bravo of 100 bytes each, ids {@code <prefix>-0 ...}. */
    private static List<Copy> sized(String prefix, Precedence precedence, int count) {
        return IntStream.range(0, count)
                .mapToObj(i -> new Copy(TO_BRAVO, relayed(prefix + "-" + i, precedence, "SITREP"), null, 100))
                .toList();
    }

    private static Copy position(String id, Instant created, Route route) {
        return Copy.superseding(route, relayed(id, Precedence.ROUTINE, "POSREP", created), "POSREP/track-7");
    }

    private static List<Outcome> outcomes(List<Acceptance> acceptances) {
        return acceptances.stream().map(Acceptance::outcome).toList();
    }

    private static List<Outcome> expect(int stored, int refused) {
        List<Outcome> outcomes = new ArrayList<>();
        outcomes.addAll(Collections.nCopies(stored, Outcome.STORED));
        outcomes.addAll(Collections.nCopies(refused, Outcome.REFUSED));
        return outcomes;
    }

    /** Takes every waiting copy of one precedence and type, in the order the backlog gives them. */
    private static List<Long> drain(Backlog backlog, Precedence precedence, String type) {
        List<Long> ids = new ArrayList<>();
        for (Waiting next = backlog.peek(precedence, type); next != null; next = backlog.peek(precedence, type)) {
            backlog.take(next);
            ids.add(next.id());
        }
        return ids;
    }
}
