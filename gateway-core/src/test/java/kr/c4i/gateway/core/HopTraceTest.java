package kr.c4i.gateway.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;

import kr.c4i.gateway.core.HopTrace.Action;
import kr.c4i.gateway.core.HopTrace.Hop;
import kr.c4i.gateway.core.link.SiteId;

class HopTraceTest {

    private static final Instant CREATED = Instant.parse("2026-11-26T12:03:04.100Z");

    private static HopTrace acrossTwoSites() {
        return HopTrace.EMPTY.with(Hop.node(NodeId.of("a"), Action.SENT, CREATED.plusMillis(3)))
                .with(Hop.site(SiteId.of("s1"), Action.RELAYED, CREATED.plusMillis(17)))
                .with(Hop.site(SiteId.of("s2"), Action.RELAYED, CREATED.plusMillis(340)));
    }

    @Test
    void textGivesEachHopItsTimeAfterCreation() {
        assertThat(acrossTwoSites().format(CREATED))
                .isEqualTo("node a sent +3ms; site s1 relayed +17ms; site s2 relayed +340ms");
    }

    @Test
    void textReadsBackToTheSameHops() {
        HopTrace trace = acrossTwoSites().with(Hop.node(NodeId.of("c"), Action.DELIVERED, CREATED.minusMillis(5)));
        String text = trace.format(CREATED);
        assertThat(text).endsWith("node c delivered -5ms");
        assertThat(HopTrace.parse(text, CREATED)).isEqualTo(trace);
        assertThat(HopTrace.parse("", CREATED)).isEqualTo(HopTrace.EMPTY);
        assertThat(HopTrace.EMPTY.format(CREATED)).isEmpty();
    }

    @Test
    void hopTimesCountWholeMillisecondsTowardsTheCreation() {
        HopTrace trace = HopTrace.EMPTY
                .with(Hop.node(NodeId.of("a"), Action.SENT, CREATED.plusNanos(2_700_000)))
                .with(Hop.site(SiteId.of("s1"), Action.RELAYED, CREATED.minusNanos(1_400_000)))
                .with(Hop.site(SiteId.of("s2"), Action.RELAYED, CREATED.minusSeconds(2).minusNanos(300_000)))
                .with(Hop.site(SiteId.of("s3"), Action.RELAYED, CREATED.plusSeconds(3).plusNanos(999_999)));
        assertThat(trace.format(CREATED)).isEqualTo("node a sent +2ms; site s1 relayed -1ms; site s2 relayed -2000ms; "
                + "site s3 relayed +3000ms");
        assertThatThrownBy(() -> HopTrace.millisAfter(CREATED, Instant.MAX)).as("past 64 bits of milliseconds")
                .isInstanceOf(ArithmeticException.class);
    }

    @Test
    void aMessageCreatedLongAgoReadsBack() {
        Instant created = Envelope.EARLIEST_CREATED_AT;
        HopTrace trace = HopTrace.EMPTY.with(Hop.node(NodeId.of("a"), Action.SENT, Instant.parse("2026-11-26T12:00:00Z")));
        assertThat(HopTrace.parse(trace.format(created), created)).isEqualTo(trace);
        assertThatIllegalArgumentException()
                .isThrownBy(() -> HopTrace.parse("node a sent +9999999999999999999ms", created))
                .withMessageStartingWith("Invalid trace: 'node a sent +9999999999999999999ms' is no time after");
    }

    @Test
    void pastTheBoundTheHopsAfterTheOriginAreLeftOutAndCounted() {
        HopTrace trace = HopTrace.EMPTY.with(Hop.node(NodeId.of("a"), Action.SENT, CREATED));
        for (int i = 1; i <= HopTrace.MAX_HOPS + 2; i++) {
            trace = trace.with(Hop.site(SiteId.of("s" + i), Action.RELAYED, CREATED.plusMillis(i)));
        }
        assertThat(trace.hops()).hasSize(HopTrace.MAX_HOPS);
        assertThat(trace.omitted()).isEqualTo(3);
        assertThat(trace.hops().getFirst().name()).isEqualTo("a");
        assertThat(trace.hops().get(1).name()).isEqualTo("s4");
        assertThat(trace.hops().getLast().name()).isEqualTo("s" + (HopTrace.MAX_HOPS + 2));
        String text = trace.format(CREATED);
        assertThat(text).startsWith("node a sent +0ms; (3 hops omitted); site s4 relayed +4ms");
        assertThat(HopTrace.parse(text, CREATED)).isEqualTo(trace);
    }

    @Test
    void textThatIsNotATraceIsRefusedNamingThePart() {
        assertThatIllegalArgumentException().isThrownBy(() -> HopTrace.parse("node a sent +3ms; hello", CREATED))
                .withMessage("Invalid trace: 'hello' is not a hop such as 'site s1 relayed +17ms'");
        assertThatIllegalArgumentException().isThrownBy(() -> HopTrace.parse("node A! sent +3ms", CREATED));
        assertThatIllegalArgumentException().isThrownBy(() -> HopTrace.parse("(2 hops omitted)", CREATED));
        String tooLong = String.join("; ", IntStream.rangeClosed(0, HopTrace.MAX_HOPS)
                .mapToObj(i -> "site s" + i + " relayed +" + i + "ms").toList());
        assertThatIllegalArgumentException().isThrownBy(() -> HopTrace.parse(tooLong, CREATED))
                .withMessageContaining("more than " + HopTrace.MAX_HOPS + " hops");
    }
}
