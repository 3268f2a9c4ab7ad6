package kr.c4i.gateway.wan.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;

import kr.c4i.gateway.core.Envelope;
import kr.c4i.gateway.core.HopTrace;
import kr.c4i.gateway.core.HopTrace.Action;
import kr.c4i.gateway.core.HopTrace.Hop;
import kr.c4i.gateway.core.NodeId;
import kr.c4i.gateway.core.TraceParent;
import kr.c4i.gateway.core.link.SiteId;
import kr.c4i.gateway.kmtf.catalogue.Precedence;
import kr.c4i.gateway.wan.relay.RelayedEnvelope;

class CopyCacheTest {

    private static final RelayedEnvelope COPY = RelayedEnvelope.of(new Envelope("m-1", NodeId.of("a"), "A001",
            Precedence.ROUTINE, "UNCLASSIFIED", Instant.parse("2026-11-23T12:00:00.123456789Z"),
            "EXER/X//".getBytes(StandardCharsets.UTF_8)), List.of(SiteId.of("s1")), Set.of(SiteId.of("s2")));

    @Test
    void keepsCopiesUpToItsBoundAndFreesWhatIsRemoved() {
        CopyCache cache = new CopyCache(100);
        cache.put(1, COPY, 60);
        cache.put(2, COPY, 50);

        assertThat(cache.get(1)).isNotNull();
        assertThat(cache.get(2)).as("past the bound: read from the table instead").isNull();
        cache.remove(1);
        cache.put(2, COPY, 50);
        assertThat(cache.get(2)).isNotNull();
        assertThat(cache.get(2).envelope().createdAt()).as("to the microsecond, as the table keeps it")
                .isEqualTo(Instant.parse("2026-11-23T12:00:00.123456Z"));
    }

    /**
     * As the table gives it back: the text's whole milliseconds after the creation time, which the table keeps to the
     * microsecond. Site s1's hop is 16.9997 ms after the creation, but 17.0005 ms after its microsecond.
     */
    @Test
    void aTracesHopTimesAreKeptAsTheTableKeepsThem() {
        Envelope e = COPY.envelope();
        HopTrace trace = HopTrace.EMPTY.with(Hop.node(NodeId.of("a"), Action.SENT, e.createdAt().plusNanos(3_500_000)))
                .with(Hop.site(SiteId.of("s1"), Action.RELAYED, Instant.parse("2026-11-23T12:00:00.140456500Z")));
        CopyCache cache = new CopyCache(100);

        cache.put(1, new RelayedEnvelope(e.withTrace(trace), COPY.crossed(), COPY.boundFor()), 60);

        Envelope cached = cache.get(1).envelope();
        assertThat(cached.traceText()).isEqualTo(e.withTrace(trace).traceText()).isEqualTo(
                "node a sent +3ms; site s1 relayed +16ms");
        assertThat(cached.trace()).isEqualTo(HopTrace.parse(e.withTrace(trace).traceText(), cached.createdAt()));
    }

    /** Its creation time cut to the microsecond makes the cache rebuild the envelope: the trace context stays. */
    @Test
    void theTraceContextIsKept() {
        TraceParent context = new TraceParent("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01");
        CopyCache cache = new CopyCache(100);

        cache.put(1, new RelayedEnvelope(COPY.envelope().withTraceParent(context), COPY.crossed(), COPY.boundFor()),
                60);

        assertThat(cache.get(1).envelope().createdAt()).isNotEqualTo(COPY.envelope().createdAt());
        assertThat(cache.get(1).envelope().traceParent()).isEqualTo(context);
    }

    @Test
    void aCopyKeptAgainUnderItsIdCountsOnce() {
        CopyCache cache = new CopyCache(100);
        cache.put(1, COPY, 60);
        cache.put(1, COPY, 30);
        cache.put(2, COPY, 50);

        assertThat(cache.get(2)).as("30 + 50 bytes are within 100").isNotNull();
        assertThat(cache.size()).isEqualTo(2);
    }
}
