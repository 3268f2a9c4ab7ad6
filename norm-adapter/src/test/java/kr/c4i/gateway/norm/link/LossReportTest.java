package kr.c4i.gateway.norm.link;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;

class LossReportTest {

    @Test
    void aReportReadsBackAsSentAndNamesEachPeersTally() {
        LossReport report = new LossReport(List.of(new LossReport.Tally(7, 200, 61, 32, 12),
                new LossReport.Tally(-3, 20, 0, 20, 0)));

        LossReport read = LossReport.parse(report.bytes());

        assertThat(read).isEqualTo(report);
        assertThat(read.tallyOf(-3)).isEqualTo(new LossReport.Tally(-3, 20, 0, 20, 0));
        assertThat(read.tallyOf(8)).isNull();
    }

    @Test
    void theParityFollowsTheRecentLossWhenItIsHigherAndTheWholeWindowOtherwise() {
        assertThat(new LossReport.Tally(7, 200, 20, 32, 10).parityLoss()).as("loss that started")
                .isEqualTo(10 / 32.0);
        assertThat(new LossReport.Tally(7, 200, 60, 32, 0).parityLoss()).as("loss that stopped").isEqualTo(0.3);
        assertThat(new LossReport.Tally(7, 25, 2, 25, 2).parityLoss()).as("too few recent samples alone")
                .isEqualTo(0.08);
        assertThat(new LossReport.Tally(7, 200, 60, 32, 0).loss()).isEqualTo(0.3);
    }

    @Test
    void urgentParityFollowsTheMostLossTheSamplesAllowFromTheFirstOn() {
        ParityPolicy policy = new ParityPolicy(32, 0.01);
        assertThat(LossReport.Tally.upperBound(0, 0)).as("nothing known").isEqualTo(1);
        // A young clean link comes down as its samples come in: 3, then 2, then 1 segment.
        LossReport.Tally young = new LossReport.Tally(7, 6, 0, 6, 0);
        assertThat(young.urgentParityLoss()).isCloseTo(0.311, within(0.001));
        assertThat(policy.parityFor(young.urgentParityLoss(), policy.target())).isEqualTo(3);
        LossReport.Tally twenty = new LossReport.Tally(7, 20, 0, 20, 0);
        assertThat(twenty.urgentParityLoss()).isCloseTo(0.119, within(0.001));
        assertThat(policy.parityFor(twenty.urgentParityLoss(), policy.target())).isEqualTo(2);
        LossReport.Tally clean = new LossReport.Tally(7, 200, 0, 32, 0);
        assertThat(clean.urgentParityLoss()).as("a clean window").isCloseTo(0.0133, within(0.0001));
        assertThat(policy.parityFor(clean.urgentParityLoss(), policy.target())).isEqualTo(1);
        assertThat(policy.parityFor(clean.parityLoss(), policy.target())).as("by the estimate").isZero();
        // Loss that starts: the first lost recent sample raises it, where the estimate barely moves.
        LossReport.Tally started = new LossReport.Tally(7, 200, 1, 32, 1);
        assertThat(started.urgentParityLoss()).as("the first lost sample").isCloseTo(0.129, within(0.001));
        assertThat(policy.parityFor(started.urgentParityLoss(), policy.target())).isEqualTo(2);
        assertThat(policy.parityFor(started.parityLoss(), policy.target())).as("by the estimate").isEqualTo(1);
        LossReport.Tally four = new LossReport.Tally(7, 200, 4, 32, 4);
        assertThat(four.urgentParityLoss()).isCloseTo(0.251, within(0.001));
        assertThat(policy.parityFor(four.urgentParityLoss(), policy.target())).isEqualTo(3);
        // Loss that stopped: the whole window's bound, above its estimate.
        assertThat(new LossReport.Tally(7, 200, 60, 32, 0).urgentParityLoss()).isCloseTo(0.355, within(0.001));
        assertThat(new LossReport.Tally(7, 32, 32, 32, 32).urgentParityLoss()).as("everything lost")
                .isCloseTo(1, within(1e-9));
    }

    @Test
    void theInfoOfFramesAndProbesIsNoReport() {
        assertThat(LossReport.parse(new byte[] {'p'})).as("a unicast probe").isNull();
        assertThat(LossReport.parse(NormGroup.Marker.bytes(NormGroup.Marker.FRAME, 7))).isNull();
        byte[] report = new LossReport(List.of(new LossReport.Tally(7, 200, 61, 32, 12))).bytes();
        assertThat(LossReport.parse(Arrays.copyOf(report, report.length - 1))).as("cut short").isNull();
        assertThat(LossReport.parse(new LossReport(List.of(new LossReport.Tally(7, 20, 21, 20, 0))).bytes()))
                .as("more lost than sampled").isNull();
        assertThat(LossReport.parse(new LossReport(List.of(new LossReport.Tally(7, 20, 0, 32, 0))).bytes()))
                .as("more recent samples than samples").isNull();
        assertThat(LossReport.parse(new LossReport(List.of(new LossReport.Tally(7, 200, 60, 32, 33))).bytes()))
                .as("more lost recently than sampled recently").isNull();
    }

    @Test
    void reportsTakeTwoPercentOfTheRateAndComeAtMostOnceACheck() {
        // A unicast report (one tally, 15 bytes of info): info, data and parity packets on the wire.
        int infoPacket = 42 + LossReport.NORM_INFO_HEADER_BYTES + 15;
        int dataPacket = 42 + 40 + 1;
        double rate = 128_000 * 1440.0 / 1482;
        long bare = LossReport.intervalNanos(15, 0, rate);
        assertThat(8.0 * (infoPacket + dataPacket) / (bare / 1e9)).isCloseTo(0.02 * rate, within(1.0));
        assertThat(bare / 1e9).as("seconds at 128 kbit/s").isBetween(0.5, 0.6);
        assertThat(LossReport.intervalNanos(15, 3, rate)).isEqualTo(
                Math.round(8.0 * (infoPacket + 4 * dataPacket) / (0.02 * rate) * 1e9));
        assertThat(LossReport.intervalNanos(15, 0, 10_000_000)).isEqualTo(NormWanLink.CHECK_MILLIS * 1_000_000);
    }
}
