package kr.c4i.gateway.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.nio.charset.StandardCharsets;
import java.time.Instant;

import org.junit.jupiter.api.Test;

import kr.c4i.gateway.kmtf.catalogue.Precedence;

class EnvelopeTest {

    private static Envelope envelope(String body) {
        return new Envelope("m-1", NodeId.of("a"), "SITREP", Precedence.FLASH, "SECRET",
                Instant.parse("2026-11-21T14:30:00Z"), body.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void equalityComparesBodyContentNotArrayIdentity() {
        assertThat(envelope("MSGID/SITREP//")).isEqualTo(envelope("MSGID/SITREP//"))
                .hasSameHashCodeAs(envelope("MSGID/SITREP//"));
        assertThat(envelope("MSGID/SITREP//")).isNotEqualTo(envelope("MSGID/OPORD//"));
    }

    @Test
    void copiesThatTookDifferentPathsAreTheSameMessage() {
        Envelope sent = envelope("MSGID/SITREP//");
        Envelope relayed = sent.withHop(HopTrace.Hop.site(kr.c4i.gateway.core.link.SiteId.of("s1"),
                HopTrace.Action.RELAYED, sent.createdAt().plusMillis(17)));
        assertThat(relayed).isEqualTo(sent).hasSameHashCodeAs(sent);
        assertThat(relayed.traceText()).isEqualTo("site s1 relayed +17ms");
        assertThat(sent.trace().isEmpty()).isTrue();
    }

    @Test
    void theTraceContextTravelsWithHopsAndIsNotPartOfTheIdentity() {
        TraceParent context = new TraceParent("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01");
        Envelope sent = envelope("MSGID/SITREP//").withTraceParent(context);
        Envelope relayed = sent.withHop(HopTrace.Hop.site(kr.c4i.gateway.core.link.SiteId.of("s1"),
                HopTrace.Action.RELAYED, sent.createdAt().plusMillis(17)));
        assertThat(relayed.traceParent()).isEqualTo(context);
        assertThat(relayed).isEqualTo(envelope("MSGID/SITREP//"));
        assertThat(envelope("MSGID/SITREP//").traceParent()).isNull();
    }

    @Test
    void blankMessageIdIsRefused() {
        assertThatIllegalArgumentException().isThrownBy(() -> new Envelope(" ", NodeId.of("a"), "SITREP",
                Precedence.ROUTINE, "UNCLASSIFIED", Instant.now(), new byte[1]));
    }
}
