package kr.c4i.gateway.wan.schedule;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class LinkPacerTest {

    private static final long BUDGET = 256_000;
    private static final int FRAME = 1_400;

    private final FakeNanoClock clock = new FakeNanoClock();

    @Test
    void aSenderThatWaitsExactlyAsToldSendsAtTheBudget() {
        LinkPacer pacer = new LinkPacer(BUDGET, FRAME, Duration.ofHours(1), this.clock);
        long start = this.clock.nanoTime();
        long sent = 0;
        while (this.clock.nanoTime() - start < Duration.ofSeconds(60).toNanos()) {
            this.clock.advance(pacer.nanosUntilAvailable());
            assertThat(pacer.available()).isPositive();
            pacer.sent(FRAME);
            sent += FRAME;
        }

        long elapsed = this.clock.nanoTime() - start;
        long atBudget = BUDGET / 8 * elapsed / 1_000_000_000L;
        // The burst plus at most the one frame that overdraws the bucket.
        assertThat(sent).isBetween(atBudget, atBudget + 2L * FRAME);
    }

    @Test
    void aWholeFrameAtTheRateTakesItsLinkTimeAndNeverMoreThanTheBurst() {
        LinkPacer pacer = new LinkPacer(BUDGET, FRAME, Duration.ofSeconds(1), this.clock);
        assertThat(pacer.nanosUntilRate(1_200)).isZero();
        pacer.sent(FRAME);
        // An empty bucket: 1,200 bytes at 256 kbit/s take 37.5 ms.
        assertThat(pacer.nanosUntilRate(1_200)).isEqualTo(37_500_000);
        // More than the burst is never in the bucket: asking for it waits for a full bucket, not for ever.
        assertThat(pacer.nanosUntilRate(1_000_000)).isEqualTo(43_750_000);
        this.clock.advance(43_750_000);
        assertThat(pacer.nanosUntilRate(1_000_000)).isZero();
    }

    @Test
    void theWaitIsExactToTheNanosecond() {
        LinkPacer pacer = new LinkPacer(BUDGET, FRAME, Duration.ofSeconds(1), this.clock);
        pacer.sent(FRAME);
        // The bucket is empty: one byte (8 bits) at 256 kbit/s takes 31,250 ns.
        assertThat(pacer.nanosUntilAvailable()).isEqualTo(31_250);
        pacer.sent(FRAME);
        // 1,400 bytes of debt first: 11,200 bits more, 43.75 ms.
        assertThat(pacer.nanosUntilAvailable()).isEqualTo(31_250 + 43_750_000);
        this.clock.advance(31_250 + 43_750_000 - 1);
        assertThat(pacer.available()).isZero();
        this.clock.advance(1);
        assertThat(pacer.available()).isEqualTo(1);
    }

    @Test
    void bytesInFlightStayUnderOneSecondOfLinkTimeUntilReceipted() {
        LinkPacer pacer = new LinkPacer(BUDGET, FRAME, Duration.ofSeconds(1), this.clock);
        assertThat(pacer.windowBytes()).isEqualTo(32_000);
        while (pacer.nanosUntilAvailable() != LinkPacer.UNTIL_RECEIPT) {
            this.clock.advance(pacer.nanosUntilAvailable());
            assertThat(pacer.available()).isLessThanOrEqualTo(pacer.windowBytes() - pacer.inFlight());
            pacer.sent(Math.min(FRAME, pacer.available()));
        }
        assertThat(pacer.inFlight()).isEqualTo(32_000);

        this.clock.advance(Duration.ofMinutes(1));
        assertThat(pacer.available()).as("time alone frees no credit").isZero();

        pacer.receipted(2_800);
        assertThat(pacer.available()).isEqualTo(FRAME);
        pacer.lost(29_200);
        assertThat(pacer.inFlight()).isZero();
        pacer.receipted(5_000);
        assertThat(pacer.inFlight()).as("a receipt for more than is in flight").isZero();
    }

    @Test
    void theCreditGrowsByTheLinkTimeOfTheRoundTripTheLinkMeasures() {
        LinkPacer pacer = new LinkPacer(BUDGET, FRAME, Duration.ofMillis(500), this.clock);
        assertThat(pacer.windowBytes()).isEqualTo(16_000);
        pacer.sent(16_000);
        assertThat(pacer.nanosUntilAvailable()).isEqualTo(LinkPacer.UNTIL_RECEIPT);

        // A satellite hop: half a second there and back is 16,000 bytes more at 256 kbit/s.
        pacer.roundTrip(Duration.ofMillis(500));
        assertThat(pacer.windowBytes()).isEqualTo(32_000);
        this.clock.advance(Duration.ofSeconds(1).toNanos());
        assertThat(pacer.available()).isEqualTo(FRAME);

        pacer.roundTrip(Duration.ZERO);
        assertThat(pacer.windowBytes()).isEqualTo(16_000);
        assertThat(pacer.available()).isZero();
        pacer.roundTrip(Duration.ofMinutes(1));
        assertThat(pacer.windowBytes()).as("at most five seconds of round trip").isEqualTo(16_000 + 160_000);
    }

    @Test
    void aParkedSenderWakesWhenAReceiptFreesCredit() throws Exception {
        LinkPacer pacer = new LinkPacer(BUDGET, FRAME, Duration.ofMillis(10), NanoClock.SYSTEM);
        pacer.sent(pacer.windowBytes());
        assertThat(pacer.nanosUntilAvailable()).isEqualTo(LinkPacer.UNTIL_RECEIPT);
        CompletableFuture<Boolean> parked = CompletableFuture.supplyAsync(() -> {
            try {
                return pacer.awaitAvailable(Duration.ofMinutes(1));
            }
            catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
                return false;
            }
        });

        pacer.receipted(pacer.windowBytes());

        assertThat(parked.get(30, TimeUnit.SECONDS)).isTrue();
    }
}
