package kr.c4i.gateway.wan.relay;

import static kr.c4i.gateway.wan.relay.S1Gateway.A;
import static kr.c4i.gateway.wan.relay.S1Gateway.C;
import static kr.c4i.gateway.wan.relay.S1Gateway.CATALOGUE;
import static kr.c4i.gateway.wan.relay.S1Gateway.CREATED;
import static kr.c4i.gateway.wan.relay.S1Gateway.S1;
import static kr.c4i.gateway.wan.relay.S1Gateway.S2;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;

import com.zaxxer.hikari.HikariDataSource;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import kr.c4i.gateway.core.Envelope;
import kr.c4i.gateway.core.NodeId;
import kr.c4i.gateway.core.metrics.MetricNames;
import kr.c4i.gateway.core.routing.Clearances;
import kr.c4i.gateway.custody.CustodyLog;
import kr.c4i.gateway.custody.CustodyLogReader;
import kr.c4i.gateway.custody.CustodyStep;
import kr.c4i.gateway.custody.DeliveryReports;
import kr.c4i.gateway.custody.DeliveryReportsEndpoint;
import kr.c4i.gateway.jdbc.DatabaseOwner;
import kr.c4i.gateway.kmtf.catalogue.Precedence;
import kr.c4i.gateway.kmtf.text.Classification;
import kr.c4i.gateway.wan.frame.DataFrame;
import kr.c4i.gateway.wan.frame.Frame;
import kr.c4i.gateway.wan.frame.FrameCodec;
import kr.c4i.gateway.wan.frame.ReceiptFrame;
import kr.c4i.gateway.wan.policy.RelayPolicy;
import kr.c4i.gateway.wan.schedule.NanoClock;
import kr.c4i.gateway.wan.site.SiteMap;
import kr.c4i.gateway.wan.store.ForwardedStep;
import kr.c4i.gateway.wan.store.RelayStore;

/**
 * Site s1's gateway forwards the steps it takes with node c's messages (from site s2) back to s2, and keeps in its own
 * custody log the steps s2 forwards of node a's: on a real store and custody log, with a link that records frames.
 */
class CustodyForwardingTest {

    private static final Duration WAIT = Duration.ofSeconds(30);

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private S1Gateway s1;
    private FrameCodec codec;
    private RecordingLink link;
    private RecordingLan nodes;
    private HikariDataSource pool;
    private RelayStore store;
    private RelayEngine engine;

    @BeforeEach
    void startEngine() throws Exception {
        SiteMap sites = S1Gateway.sites();
        s1 = new S1Gateway(new CustodyLog(S1.value(), "test").forwarding(sites::isRemote, ForwardedStep.EVENTS));
        codec = s1.codec;
        link = s1.link;
        nodes = s1.nodes;
        pool = s1.pool;
        store = s1.store;
        engine = s1.engine(sites, RelayPolicy.allowAll(CATALOGUE), registry);
    }

    @AfterEach
    void stop() throws Exception {
        engine.close();
        s1.close();
    }

    @Test
    void theStepsWithAMessageOfAnotherSiteGoBackToThatSiteAndThoseWithOurOwnDoNot() throws Exception {
        engine.start();
        engine.ingest(List.of(message("a-1", A)));
        engine.received(S2, codec.data(7, 0, List.of(fromS2(message("c-1", C)))));

        await().atMost(WAIT).until(() -> forwardedSteps().stream().map(ForwardedStep::event).toList()
                .contains("delivered"));
        // A frame the link does not receipt goes again after a while: the same steps, once each here.
        List<ForwardedStep> steps = forwardedSteps().stream().distinct().toList();
        assertThat(steps).allSatisfy(step -> {
            assertThat(step.hop()).isEqualTo(S1);
            assertThat(step.origin()).isEqualTo(C);
            assertThat(step.messageIds()).containsExactly("c-1");
            assertThat(step.peers()).containsExactly("@lan");
            assertThat(step.precedence()).isEqualTo("ROUTINE");
        });
        // s2's acknowledgement says it stored the message: the stored step stays here.
        assertThat(steps).extracting(ForwardedStep::event).containsExactly("delivered");
        assertThat(s1.dataFrames()).flatExtracting(DataFrame::envelopes)
                .filteredOn(r -> r.envelope().kmtfType().equals(ForwardedStep.TYPE))
                .allSatisfy(r -> {
                    assertThat(r.envelope().precedence()).isEqualTo(Precedence.ROUTINE);
                    assertThat(r.boundFor()).containsExactly(S2);
                });
        await().atMost(WAIT).until(() -> store.forwardedCustody().queued() == 0);
        assertThat(registry.get("gateway.wan.custody.steps").tag("way", "forwarded").counter().count())
                .isEqualTo(steps.size());
    }

    @Test
    void aRowOfManyLongIdsGoesBackInStepsThatEachFitOneFrameOfTheLink() throws Exception {
        // The norm link's largest frame; 64 ids of up to 183 characters are a step of about 12 kB, which was dropped
        // as too large before.
        engine.close();
        link.maxFrameBytes = 1357;
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        engine = s1.engine(S1Gateway.sites(), RelayPolicy.allowAll(CATALOGUE), meters);
        engine.start();
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 64; i++) {
            ids.add(i + "-" + String.join("", Collections.nCopies(5, UUID.randomUUID().toString())));
        }
        engine.received(S2, codec.data(7, 0, ids.stream().map(id -> fromS2(message(id, C))).toList()));

        await().atMost(WAIT).until(() -> forwardedSteps().stream().filter(step -> step.event().equals("delivered"))
                .flatMap(step -> step.messageIds().stream()).distinct().count() == ids.size());
        List<ForwardedStep> delivered = forwardedSteps().stream().filter(step -> step.event().equals("delivered"))
                .distinct().toList();
        assertThat(delivered).hasSizeGreaterThan(1).allSatisfy(step -> assertThat(step.messageIds().size())
                .isLessThan(ids.size()));
        assertThat(delivered.stream().flatMap(step -> step.messageIds().stream()).toList())
                .containsExactlyInAnyOrderElementsOf(ids);
        assertThat(link.frames()).allSatisfy(frame -> assertThat(frame.length).isLessThanOrEqualTo(1357));
        assertThat(meters.find(MetricNames.WAN_DROPPED).counters()).allSatisfy(c -> assertThat(c.count()).isZero());
    }

    @Test
    void stepsAPeerForwardsAreKeptOnceInThisSitesLogAndReceipted() throws Exception {
        Instant at = CREATED.plusMillis(900);
        ForwardedStep delivered = new ForwardedStep(S2, 41, 0, at, "delivered", List.of("@lan"), "lan", "FLASH",
                null, A, List.of("a-1", "a-2"));
        byte[] frame = codec.data(9, 3, List.of(fromS2(CustodyEnvelopes.envelope(delivered))));
        engine.start();

        receivedAndReceiptedTwice(frame);
        List<CustodyStep> logged = logged("a-2");
        assertThat(logged).singleElement().satisfies(step -> {
            assertThat(step.hop()).isEqualTo("s2");
            assertThat(step.event()).isEqualTo("delivered");
            assertThat(step.at()).isEqualTo(at);
            assertThat(step.peers()).containsExactly("@lan");
            assertThat(step.precedence()).isEqualTo("FLASH");
        });
        assertThat(store.forwardedCustody().queued()).isZero();
        assertThat(registry.get("gateway.wan.custody.steps").tag("way", "received").counter().count()).isEqualTo(1);
        // Found by its filter, as this gateway's storing steps are, not through the message id index.
        assertThat(forwardedRowsFilters()).containsExactly(true);
    }

    /**
     * The steps of a frame are kept in one transaction, each with its own attributes and messages; one that comes
     * twice in the frame (sent again before its receipt came) is kept once.
     */
    @Test
    void theStepsOfAFrameAreKeptEachAsItCameAndOnce() throws Exception {
        ForwardedStep delivered = new ForwardedStep(S2, 71, 0, CREATED.plusMillis(71), "delivered", List.of("@lan"),
                "lan", "FLASH", null, A, List.of("a-1", "a-2"));
        ForwardedStep dropped = new ForwardedStep(S2, 72, 1, CREATED.plusMillis(72), "dropped", List.of(), null,
                null, "policy: denied", A, List.of("a-3"));
        ForwardedStep acknowledged = new ForwardedStep(S2, 73, 0, CREATED.plusNanos(73_001_000), "acknowledged",
                List.of("s3", "s4"), "norm", "ROUTINE", null, A, List.of("a-4", "a-5", "a-6"));
        engine.start();

        long before = receipts();
        engine.received(S2, codec.data(9, 6, List.of(fromS2(CustodyEnvelopes.envelope(delivered)),
                fromS2(CustodyEnvelopes.envelope(dropped)), fromS2(CustodyEnvelopes.envelope(delivered)),
                fromS2(CustodyEnvelopes.envelope(acknowledged)))));
        await().atMost(WAIT).until(() -> receipts() >= before + 1);

        for (String id : List.of("a-1", "a-2")) {
            assertThat(logged(id)).as(id).singleElement().isEqualTo(new CustodyStep(delivered.at(), "delivered",
                    "site", "s2", List.of("@lan"), "lan", "FLASH", null));
        }
        assertThat(logged("a-3")).singleElement().isEqualTo(new CustodyStep(dropped.at(), "dropped", "site", "s2",
                List.of(), null, null, "policy: denied"));
        for (String id : List.of("a-4", "a-5", "a-6")) {
            assertThat(logged(id)).as(id).singleElement().isEqualTo(new CustodyStep(acknowledged.at(),
                    "acknowledged", "site", "s2", List.of("s3", "s4"), "norm", "ROUTINE", null));
        }
        assertThat(registry.get("gateway.wan.custody.steps").tag("way", "received").counter().count()).isEqualTo(3);
    }

    /**
     * A step s2 forwards with messages this gateway handed on to it is found by its filter beside this gateway's own
     * steps of them; a step that comes again is absorbed.
     */
    @Test
    void aStepWithMessagesHandedOnHereIsFoundBesideTheirStoringHere() throws Exception {
        engine.start();
        engine.ingest(List.of(message("a-1", A), message("a-2", A)));
        await().atMost(WAIT).until(() -> sentIn("a-1") != null && sentIn("a-2") != null);
        // s2 receipts the frames that carried them: they are handed on.
        for (DataFrame sent : new LinkedHashSet<>(List.of(sentIn("a-1"), sentIn("a-2")))) {
            engine.received(S2, codec.receipt(sent.epoch(), List.of(sent.seq())));
        }
        await().atMost(WAIT).until(() -> logged("a-1", true).stream().map(CustodyStep::event).toList()
                .contains("acknowledged") && logged("a-2", true).stream().map(CustodyStep::event).toList()
                .contains("acknowledged"));

        Instant at = CREATED.plusMillis(900);
        ForwardedStep delivered = new ForwardedStep(S2, 52, 0, at, "delivered", List.of("@lan"), "lan", "ROUTINE",
                null, A, List.of("a-1", "a-2"));
        byte[] frame = codec.data(9, 4, List.of(fromS2(CustodyEnvelopes.envelope(delivered))));
        receivedAndReceiptedTwice(frame);
        assertThat(forwardedRowsFilters()).containsExactly(true);
        for (String id : List.of("a-1", "a-2")) {
            assertThat(logged(id)).as(id).singleElement().satisfies(step -> {
                assertThat(step.hop()).isEqualTo("s2");
                assertThat(step.event()).isEqualTo("delivered");
                assertThat(step.at()).isEqualTo(at);
            });
            assertThat(logged(id, true)).as(id).extracting(CustodyStep::event).contains("stored", "acknowledged");
        }
    }

    /**
     * Node a's delivery reports, as its bridge reads them from this gateway: s2's delivery forwarded here and this
     * site's own quarantine of a's message, in log order, after the cursor; not c's fates, nor steps that end nothing.
     */
    @Test
    void aNodesReportsAreTheFatesOfItsMessagesHereAndForwardedAfterItsCursor() throws Exception {
        ForwardedStep delivered = new ForwardedStep(S2, 41, 0, CREATED.plusMillis(900), "delivered",
                List.of("@lan"), "lan", "FLASH", null, A, List.of("a-1"));
        ForwardedStep stored = new ForwardedStep(S2, 40, 0, CREATED.plusMillis(800), "stored", List.of("@lan"),
                "lan", "FLASH", "from site s1", A, List.of("a-1"));
        engine.start();
        engine.received(S2, codec.data(9, 3, List.of(fromS2(CustodyEnvelopes.envelope(stored)),
                fromS2(CustodyEnvelopes.envelope(delivered)))));
        engine.received(S2, codec.data(9, 4, List.of(fromS2(message("c-1", C)))));
        engine.ingest(List.of(new Envelope("a-2", A, "NOSUCHTYPE", Precedence.FLASH, "UNCLASSIFIED", CREATED,
                "MSGID/NOSUCHTYPE/a-2//".getBytes(StandardCharsets.UTF_8))));
        await().atMost(WAIT).until(() -> receipts() >= 2 && !nodes.handed.isEmpty());

        DeliveryReports reports = reports();
        List<DeliveryReports.Report> ofA = reports.after(A, 0, 10);

        assertThat(ofA).extracting(r -> r.reporter() + " " + r.event() + " " + r.messageIds() + " " + r.delivered())
                .containsExactly("site s2 delivered [a-1] true", "site s1 quarantined [a-2] false");
        assertThat(ofA.getFirst().at()).isEqualTo(CREATED.plusMillis(900));
        assertThat(ofA.get(1).detail()).isEqualTo("unknown-type");
        assertThat(reports.after(A, ofA.getFirst().id(), 10)).containsExactly(ofA.get(1));
        assertThat(reports.after(A, ofA.getLast().id(), 10)).isEmpty();
        // Said on a timeout (seen once under CI's load, 2026-11-30): what this gateway logged of c-1, what it still stores.
        await().atMost(WAIT).untilAsserted(() -> assertThat(reports.after(C, 0, 10)).as(() -> {
            try {
                return "c-1 here: " + logged("c-1", true) + "; copies still stored: "
                        + count("SELECT count(*) FROM relay_copy WHERE message_id = 'c-1'") + "; handed: "
                        + nodes.handed.stream().map(Envelope::messageId).toList();
            }
            catch (Exception ex) {
                return "c-1 unreadable: " + ex;
            }
        }).isNotEmpty());
        // Delivered onto the LAN here: a removal, found through the copy's storing, that names its message.
        assertThat(reports.after(C, 0, 10)).extracting(r -> r.event() + " " + r.messageIds())
                .containsOnly("delivered [c-1]");

        DeliveryReportsEndpoint endpoint = new DeliveryReportsEndpoint(reports);
        assertThat(endpoint.reports("a", null, null).getStatus()).isEqualTo(200);
        assertThat(endpoint.reports("a b", null, null).getStatus()).isEqualTo(400);
        assertThat(endpoint.reports("a", -1L, null).getStatus()).isEqualTo(400);
        assertThat(endpoint.reports("a", 0L, 0).getStatus()).isEqualTo(400);
    }

    /**
     * What the gateway passes on nowhere has no store transaction, and is logged all the same before its custody
     * ends: a message the policy denies, one refused for want of clearance; so the origin's reports have them too.
     */
    @Test
    void aMessageDeniedByThePolicyOrRefusedForClearanceIsAStepAndANonDeliveryReport() throws Exception {
        engine.close();
        SiteMap sites = S1Gateway.sites().withClearances(
                Clearances.unrestricted(), Clearances.of(Map.of("s2", "CONFIDENTIAL"), Classification.TOP_SECRET,
                        "gateway.routing.site-clearances"));
        RelayPolicy denyTests = RelayPolicy.read("default: allow\nrules:\n  - deny: TESTMSG\n", "test.yaml", CATALOGUE,
                NanoClock.SYSTEM, InstantSource.system());
        engine = s1.engine(sites, denyTests, registry);
        Envelope secret = new Envelope("a-secret", A, "SITREP", Precedence.FLASH, "SECRET", CREATED,
                "SECRET\nMSGID/SITREP/a-secret//".getBytes(StandardCharsets.UTF_8));
        Envelope test = new Envelope("a-test", A, "TESTMSG", Precedence.ROUTINE, "UNCLASSIFIED", CREATED,
                "MSGID/TESTMSG/a-test//".getBytes(StandardCharsets.UTF_8));

        assertThat(engine.ingest(List.of(secret, test))).containsExactlyInAnyOrder("a-secret", "a-test");

        assertThat(logged("a-secret", true)).singleElement().satisfies(step -> {
            assertThat(step.event()).isEqualTo("refused");
            assertThat(step.peers()).containsExactly("s2");
            assertThat(step.detail()).isEqualTo("site s2 is cleared CONFIDENTIAL, the message is SECRET");
        });
        assertThat(logged("a-test", true)).singleElement().satisfies(step -> {
            assertThat(step.event()).isEqualTo("dropped");
            assertThat(step.detail()).isEqualTo("policy: denied");
        });
        assertThat(reports().after(A, 0, 10))
                .extracting(r -> r.event() + " " + r.messageIds() + " " + r.delivered())
                .containsExactlyInAnyOrder("refused [a-secret] false", "dropped [a-test] false");
    }

    @Test
    void aStepThatDoesNotReadAsOneIsQuarantinedAndReceipted() throws Exception {
        ForwardedStep step = new ForwardedStep(S2, 5, 0, CREATED, "stored", List.of(), null, null, null, A,
                List.of("a-9"));
        Envelope good = CustodyEnvelopes.envelope(step);
        Envelope garbled = new Envelope(good.messageId(), A, ForwardedStep.TYPE, Precedence.ROUTINE, "UNCLASSIFIED",
                CREATED, new byte[] { 1, 0, 2 });
        engine.start();

        engine.received(S2, codec.data(9, 4, List.of(fromS2(garbled))));

        await().atMost(WAIT).until(() -> receipts() >= 1);
        assertThat(logged("a-9")).isEmpty();
        try (Connection c = pool.getConnection(); Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT message_id, reason FROM relay_quarantine")) {
            assertThat(rs.next()).isTrue();
            assertThat(rs.getString(1)).isEqualTo(good.messageId());
            assertThat(rs.getString(2)).isEqualTo(RelayEngine.INVALID_CUSTODY_STEP);
        }
    }

    @Test
    void aStepReadsBackAsItWasSentAndAMismatchedIdIsRefused() {
        ForwardedStep step = new ForwardedStep(S2, 123, 2, CREATED.plusNanos(456_000), "dropped",
                List.of("s3"), "norm", "PRIORITY", "oversize", C, List.of("c-1", "c/2"));

        assertThat(CustodyEnvelopes.step(CustodyEnvelopes.envelope(step))).isEqualTo(step);
        Envelope envelope = CustodyEnvelopes.envelope(step);
        Envelope renamed = new Envelope("@custody/s2/124/2/0", C, envelope.kmtfType(), envelope.precedence(),
                envelope.classification(), envelope.createdAt(), envelope.body());
        assertThatThrownBy(() -> CustodyEnvelopes.step(renamed)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("does not match its body");
    }

    /**
     * The frame comes, is receipted, and comes again (its receipt lost), and is receipted again. The second coming
     * waits for the first receipt: receipts owed at once go out as one frame.
     */
    private void receivedAndReceiptedTwice(byte[] frame) throws Exception {
        long before = receipts();
        engine.received(S2, frame);
        await().atMost(WAIT).until(() -> receipts() >= before + 1);
        engine.received(S2, frame);
        await().atMost(WAIT).until(() -> receipts() >= before + 2);
    }

    private long count(String sql) throws Exception {
        try (Connection c = pool.getConnection(); Statement st = c.createStatement();
                ResultSet rs = st.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    /** The steps other sites forwarded here. */
    private List<CustodyStep> logged(String messageId) throws Exception {
        return logged(messageId, false);
    }

    private List<CustodyStep> logged(String messageId, boolean here) throws Exception {
        try (Connection c = pool.getConnection()) {
            return CustodyLogReader.read(c, messageId).steps().stream().filter(s -> s.hop().equals("s1") == here)
                    .toList();
        }
    }

    /**
     * Of each step forwarded here, in log order, whether it is found by a filter of its ids alone: it has one, names no
     * earlier rows, and is out of the message id index.
     */
    private List<Boolean> forwardedRowsFilters() throws Exception {
        List<Boolean> filtered = new ArrayList<>();
        try (Connection c = pool.getConnection(); Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT ids_bloom IS NOT NULL AND earlier IS NULL FROM custody_log "
                        + "WHERE forwarded_as IS NOT NULL ORDER BY id")) {
            while (rs.next()) {
                filtered.add(rs.getBoolean(1));
            }
        }
        return filtered;
    }

    /** The first DATA frame that carried the message to s2; null before one did. */
    private DataFrame sentIn(String messageId) throws Exception {
        return s1.dataFrames().stream().filter(f -> f.envelopes().stream()
                .anyMatch(r -> r.envelope().messageId().equals(messageId))).findFirst().orElse(null);
    }

    private List<ForwardedStep> forwardedSteps() throws Exception {
        List<ForwardedStep> steps = new ArrayList<>();
        for (DataFrame frame : s1.dataFrames()) {
            for (RelayedEnvelope relayed : frame.envelopes()) {
                if (relayed.envelope().kmtfType().equals(ForwardedStep.TYPE)) {
                    steps.add(CustodyEnvelopes.step(relayed.envelope()));
                }
            }
        }
        return steps;
    }

    private long receipts() throws Exception {
        long count = 0;
        for (byte[] bytes : link.frames()) {
            Frame frame = codec.decode(bytes);
            if (frame instanceof ReceiptFrame) {
                count++;
            }
        }
        return count;
    }

    private static Envelope message(String id, NodeId origin) {
        return new Envelope(id, origin, "SITREP", Precedence.ROUTINE, "UNCLASSIFIED", CREATED,
                ("MSGID/SITREP/" + id + "//").getBytes(StandardCharsets.UTF_8));
    }

    private static RelayedEnvelope fromS2(Envelope envelope) {
        return new RelayedEnvelope(envelope, List.of(S2), new TreeSet<>(Set.of(S1)));
    }

    /** The reports as s1's gateway serves them: every hop its log names is a site's. */
    private DeliveryReports reports() {
        return new DeliveryReports(pool, new DatabaseOwner("site", S1.value(), "gateway.wan.site"));
    }
}
