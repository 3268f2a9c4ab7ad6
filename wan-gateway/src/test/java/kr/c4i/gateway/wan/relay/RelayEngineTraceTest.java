package kr.c4i.gateway.wan.relay;

import static kr.c4i.gateway.wan.relay.S1Gateway.A;
import static kr.c4i.gateway.wan.relay.S1Gateway.C;
import static kr.c4i.gateway.wan.relay.S1Gateway.CREATED;
import static kr.c4i.gateway.wan.relay.S1Gateway.S1;
import static kr.c4i.gateway.wan.relay.S1Gateway.S2;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import kr.c4i.gateway.core.Envelope;
import kr.c4i.gateway.core.HopTrace;
import kr.c4i.gateway.core.HopTrace.Action;
import kr.c4i.gateway.core.HopTrace.Hop;
import kr.c4i.gateway.core.NodeId;
import kr.c4i.gateway.core.TraceParent;
import kr.c4i.gateway.custody.CustodyLog;
import kr.c4i.gateway.kmtf.catalogue.Precedence;
import kr.c4i.gateway.wan.MovableClock;
import kr.c4i.gateway.wan.frame.DataFrame;
import kr.c4i.gateway.wan.frame.FrameCodec;
import kr.c4i.gateway.wan.store.RelayStore;
import kr.c4i.gateway.wan.store.Route;

/**
 * Site s1's gateway stamps its hop where it takes custody, once: on a real store, with a link and a LAN side that
 * record what the engine hands them.
 */
class RelayEngineTraceTest {

    private static final Duration WAIT = Duration.ofSeconds(30);

    private S1Gateway s1;
    private MovableClock clock;
    private FrameCodec codec;
    private RecordingLink link;
    private RecordingLan nodes;
    private RelayStore store;
    private RelayEngine engine;

    @BeforeEach
    void startEngine() throws Exception {
        s1 = new S1Gateway(CustodyLog.off());
        clock = s1.clock;
        codec = s1.codec;
        link = s1.link;
        nodes = s1.nodes;
        store = s1.store;
        engine = s1.engine();
    }

    @AfterEach
    void stop() throws Exception {
        engine.close();
        s1.close();
    }

    @Test
    void aMessageFromTheLanLeavesOverTheWanWithThisSitesHop() throws Exception {
        Envelope sent = message("a-1", A).withHop(Hop.node(A, Action.SENT, CREATED.plusMillis(3)));
        engine.start();

        assertThat(engine.ingest(List.of(sent))).containsExactly("a-1");

        await().atMost(WAIT).until(() -> !link.frames().isEmpty());
        Envelope carried = ((DataFrame) codec.decode(link.frames().getFirst())).envelopes().getFirst().envelope();
        assertThat(carried.traceText()).isEqualTo("node a sent +3ms; site s1 relayed +40ms");
    }

    @Test
    void aMessageFromAPeerGoesOntoTheLanWithThisSitesHopAfterThePeers() throws Exception {
        HopTrace fromS2 = HopTrace.EMPTY.with(Hop.node(C, Action.SENT, CREATED.plusMillis(2)))
                .with(Hop.site(S2, Action.RELAYED, CREATED.plusMillis(15)));
        engine.start();

        engine.received(S2, codec.data(7, 0, List.of(fromPeer(message("c-1", C).withTrace(fromS2)))));

        await().atMost(WAIT).until(() -> !nodes.handed.isEmpty());
        assertThat(nodes.handed.getFirst().traceText())
                .isEqualTo("node c sent +2ms; site s2 relayed +15ms; site s1 relayed +40ms");
    }

    /**
     * A message offered again (the LAN redelivers it, the peer resends its frame) is absorbed by the store, whose copy
     * keeps the hop of its first custody; one that bears this site's hop already is not given a second.
     */
    @Test
    void aMessageOfferedAgainKeepsTheHopOfItsFirstCustody() throws Exception {
        Envelope sent = message("a-1", A).withHop(Hop.node(A, Action.SENT, CREATED.plusMillis(3)));
        Envelope fromS2 = message("c-1", C).withHop(Hop.site(S2, Action.RELAYED, CREATED.plusMillis(15)));
        engine.ingest(List.of(sent));
        engine.received(S2, codec.data(7, 0, List.of(fromPeer(fromS2))));

        clock.advance(Duration.ofSeconds(5));
        engine.ingest(List.of(sent));
        engine.received(S2, codec.data(7, 0, List.of(fromPeer(fromS2))));

        assertThat(storedTrace(Route.peer(S2))).isEqualTo("node a sent +3ms; site s1 relayed +40ms");
        assertThat(storedTrace(Route.lan())).isEqualTo("site s2 relayed +15ms; site s1 relayed +40ms");
        Envelope stamped = RelayEngine.stamped(sent, S1, clock.instant());
        assertThat(RelayEngine.stamped(stamped, S1, clock.instant().plusSeconds(1))).isSameAs(stamped);
        assertThat(RelayEngine.stamped(stamped, S2, clock.instant()).traceText())
                .isEqualTo("node a sent +3ms; site s1 relayed +5040ms; site s2 relayed +5040ms");
    }

    /**
     * The trace context of a message's creation goes with it as it came, whichever way: into the store, over the WAN,
     * onto the LAN; the hops add to its trace, not to its context.
     */
    @Test
    void theTraceContextGoesWithTheMessage() throws Exception {
        TraceParent ofA = new TraceParent("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01");
        TraceParent ofC = TraceParent.of("0af7651916cd43dd8448eb211c80319c", "b7ad6b7169203331", 0);
        engine.ingest(List.of(message("a-1", A).withTraceParent(ofA)));
        engine.received(S2, codec.data(7, 0, List.of(fromPeer(message("c-1", C).withTraceParent(ofC)))));

        assertThat(stored(Route.peer(S2)).traceParent()).isEqualTo(ofA);
        assertThat(stored(Route.lan()).traceParent()).isEqualTo(ofC);
        engine.start();

        await().atMost(WAIT).until(() -> !nodes.handed.isEmpty() && !s1.dataFrames().isEmpty());
        Envelope carried = s1.dataFrames().getFirst().envelopes().getFirst().envelope();
        assertThat(carried.traceText()).isEqualTo("site s1 relayed +40ms");
        assertThat(carried.traceParent()).isEqualTo(ofA);
        assertThat(nodes.handed.getFirst().traceParent()).isEqualTo(ofC);
    }

    /** The trace of the one copy stored for the route. */
    private String storedTrace(Route route) throws Exception {
        return stored(route).traceText();
    }

    /** The one copy stored for the route. */
    private Envelope stored(Route route) throws Exception {
        var waiting = store.backlog(route).peek(Precedence.ROUTINE, "SITREP");
        assertThat(store.stats().routes().get(route).get(Precedence.ROUTINE).copies()).isEqualTo(1);
        return store.load(List.of(waiting.id())).get(waiting.id()).envelope();
    }

    private static Envelope message(String id, NodeId origin) {
        return new Envelope(id, origin, "SITREP", Precedence.ROUTINE, "UNCLASSIFIED", CREATED,
                ("MSGID/SITREP/" + id + "//").getBytes(StandardCharsets.UTF_8));
    }

    private static RelayedEnvelope fromPeer(Envelope envelope) {
        return new RelayedEnvelope(envelope, List.of(S2), new TreeSet<>(Set.of(S1)));
    }
}
