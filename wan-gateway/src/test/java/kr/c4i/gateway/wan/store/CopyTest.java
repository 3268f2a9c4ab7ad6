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

class CopyTest {

    @Test
    void estimateCountsEveryHeaderFieldInUtf8BytesAndTheSites() {
        String id = "msg-ü-위치-\uD83D\uDEA9";
        String origin = "node-a";
        String type = "POSREP";
        String classification = "SECRET//REL KOR 한국";
        byte[] body = "MSGID/POSREP//".getBytes(StandardCharsets.UTF_8);
        RelayedEnvelope relayed = RelayedEnvelope.of(new Envelope(id, NodeId.of(origin), type, Precedence.FLASH,
                classification, Instant.parse("2026-11-23T08:00:00Z"), body), List.of(SiteId.of("alpha")),
                Set.of(SiteId.of("bravo"), SiteId.of("charlie")));

        int headers = utf8(id) + utf8(origin) + utf8(type) + utf8(classification);
        int sites = "alpha,".length() + "bravo,".length() + "charlie,".length();

        assertThat(utf8(id)).as("ü 2, 위치 3 each, the flag 4 bytes").isEqualTo(4 + 2 + 1 + 6 + 1 + 4);
        assertThat(Copy.estimateBytes(relayed)).isEqualTo(24 + body.length + headers + sites);
    }

    @Test
    void estimateCountsTheTrace() {
        Instant created = Instant.parse("2026-11-23T08:00:00Z");
        Envelope envelope = new Envelope("m-1", NodeId.of("node-a"), "POSREP", Precedence.FLASH, "SECRET", created,
                new byte[10]);
        HopTrace trace = HopTrace.EMPTY.with(Hop.node(NodeId.of("node-a"), Action.SENT, created))
                .with(Hop.site(SiteId.of("alpha"), Action.RELAYED, created.plusMillis(17)));
        RelayedEnvelope without = RelayedEnvelope.of(envelope, List.of(SiteId.of("alpha")), Set.of(SiteId.of("bravo")));
        RelayedEnvelope with = RelayedEnvelope.of(envelope.withTrace(trace), without.crossed(), without.boundFor());

        // Per hop its name and 4 bytes (kind and action, the name's length, the time), then the count left out.
        assertThat(Copy.estimateBytes(with) - Copy.estimateBytes(without))
                .isEqualTo("node-a".length() + 4 + "alpha".length() + 4 + 1);
    }

    /** A context is its length and 25 bytes; none is the byte the fixed part counts. */
    @Test
    void estimateCountsTheTraceContext() {
        Envelope envelope = new Envelope("m-1", NodeId.of("node-a"), "POSREP", Precedence.FLASH, "SECRET",
                Instant.parse("2026-11-23T08:00:00Z"), new byte[10]);
        RelayedEnvelope without = RelayedEnvelope.of(envelope, List.of(SiteId.of("alpha")), Set.of(SiteId.of("bravo")));
        RelayedEnvelope with = RelayedEnvelope.of(envelope.withTraceParent(
                new TraceParent("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01")), without.crossed(),
                without.boundFor());

        assertThat(Copy.estimateBytes(with) - Copy.estimateBytes(without)).isEqualTo(26);
    }

    private static int utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8).length;
    }
}
