package kr.c4i.gateway.wan.relay;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import org.junit.jupiter.api.Test;

import kr.c4i.gateway.kmtf.catalogue.Precedence;
import kr.c4i.gateway.wan.relay.InFlightFrames.SentFrame;
import kr.c4i.gateway.wan.schedule.Waiting;

/**
 * When an unreceipted frame goes again: not while the peer is still receipting the frames before it (a queue at the
 * peer, which resending would only lengthen), nor while the peer is silent and the link still holds frames it has not
 * delivered (a link repairing, or in a cut it has not declared yet), but when the peer receipted a later one without
 * it, or stopped receipting what the link delivered.
 */
class InFlightFramesOverdueTest {

    static final Duration TIMEOUT = Duration.ofSeconds(15);
    static final long S = 1_000_000_000L;

    private final InFlightFrames inFlight = new InFlightFrames();

    @Test
    void framesQueuedAtAPeerThatKeepsReceiptingAreNotSentAgain() {
        sent(1, 0);
        sent(2, 0);
        sent(3, 0);

        inFlight.receipted(List.of(1L), 10 * S);

        assertThat(inFlight.overdue(16 * S, TIMEOUT, false)).isEmpty();
        assertThat(inFlight.size()).isEqualTo(2);
        inFlight.receipted(List.of(2L), 24 * S);
        assertThat(inFlight.overdue(30 * S, TIMEOUT, false)).isEmpty();
    }

    @Test
    void aFrameThePeerSkippedIsSentAgainOnceItIsOld() {
        sent(1, 0);
        sent(2, 0);
        sent(3, 0);

        inFlight.receipted(List.of(1L, 3L), 10 * S);

        assertThat(inFlight.overdue(14 * S, TIMEOUT, false)).isEmpty();
        assertThat(inFlight.overdue(16 * S, TIMEOUT, false)).extracting(SentFrame::seq).containsExactly(2L);
    }

    @Test
    void framesOfAPeerThatStoppedReceiptingAreSentAgain() {
        sent(1, 0);
        sent(2, 5 * S);
        inFlight.receipted(List.of(1L), 6 * S);

        assertThat(inFlight.overdue(20 * S, TIMEOUT, false)).isEmpty();
        assertThat(inFlight.overdue(21 * S, TIMEOUT, false)).extracting(SentFrame::seq).containsExactly(2L);
    }

    @Test
    void withoutAnyReceiptAFrameIsLateAfterTheTimeout() {
        sent(1, 0);
        sent(2, 2 * S);

        assertThat(inFlight.overdue(15 * S, TIMEOUT, false)).extracting(SentFrame::seq).containsExactly(1L);
        assertThat(inFlight.overdue(17 * S, TIMEOUT, false)).extracting(SentFrame::seq).containsExactly(2L);
        assertThat(inFlight.bytes()).isZero();
    }

    @Test
    void aSilentPeerGetsNoFrameAgainWhileTheLinkStillHoldsUndeliveredFrames() {
        sent(1, 0);
        sent(2, 2 * S);

        assertThat(inFlight.overdue(40 * S, TIMEOUT, true)).isEmpty();
        assertThat(inFlight.size()).isEqualTo(2);
        // The link delivered all it held, and no receipt came: the peer lost them.
        assertThat(inFlight.overdue(41 * S, TIMEOUT, false)).extracting(SentFrame::seq).containsExactly(1L, 2L);
    }

    @Test
    void aFrameThePeerSkippedIsSentAgainWhileTheLinkStillDeliversLaterOnes() {
        sent(1, 0);
        sent(2, 0);
        sent(3, 0);
        sent(4, 0);

        inFlight.receipted(List.of(1L, 3L), 10 * S);

        assertThat(inFlight.overdue(16 * S, TIMEOUT, true)).extracting(SentFrame::seq).containsExactly(2L);
        assertThat(inFlight.overdue(30 * S, TIMEOUT, true)).isEmpty();
    }

    private void sent(long seq, long atNanos) {
        Waiting copy = new Waiting(seq, "M-" + seq, Precedence.ROUTINE, "SITREP", 300, Instant.EPOCH, Instant.EPOCH);
        inFlight.sent(new SentFrame(seq, List.of(copy), 1200, atNanos));
    }
}
