package kr.c4i.gateway.tools.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;

import kr.c4i.gateway.tools.embedded.ProgressLine.Phase;
import kr.c4i.gateway.tools.embedded.ProgressLine.Status;

class ProgressLineTest {

    @Test
    void whileSendingEveryFieldStandsApartWithItsUnit() {
        Status status = new Status(Phase.SENDING, 3_104, 10_000, 3_200, 5_000, 12, 0, "41 ms");
        assertThat(ProgressLine.render(status, Duration.ofMillis(4_400), 200)).isEqualTo(
                "[======>             ]  31% | delivered 3,104 of 10,000 | sent 3,200 of 5,000 | 705 msg/s"
                        + " | quarantined 12 | p99 41 ms | 4.4 s");
    }

    @Test
    void onceSentTheLastPhaseIsNamedInsteadOfAPercentage() {
        Status receipts = new Status(Phase.RECEIPTS, 9_890, 10_000, 5_000, 5_000, 20, 110, "41 ms");
        assertThat(ProgressLine.render(receipts, Duration.ofSeconds(65), 200))
                .startsWith("[===================>] waiting for receipts/resends (110 unreceipted) | delivered 9,890 of 10,000")
                .endsWith(" | 1 min 05 s")
                .doesNotContain("%");
        Status settling = new Status(Phase.SETTLING, 9_950, 10_000, 5_000, 5_000, 20, 0, "-");
        assertThat(ProgressLine.render(settling, Duration.ofSeconds(9), 200)).contains("] waiting for the last deliveries | ");
    }

    @Test
    void aNarrowTerminalLosesTheBarFirst() {
        Status status = new Status(Phase.SENDING, 10_000, 10_000, 5_000, 5_000, 0, 0, "-");
        String line = ProgressLine.render(status, Duration.ofSeconds(8), 90);
        assertThat(line).startsWith("100% | delivered 10,000 of 10,000").hasSizeLessThanOrEqualTo(90);
        assertThat(ProgressLine.render(status, Duration.ofSeconds(8), 20)).hasSize(20);
    }

    @Test
    void eachReceiverCountsAtMostWhatItShouldGet() {
        assertThat(ProgressLine.delivered(List.of(5_000L, 5_000L), 5_000)).isEqualTo(10_000);
        assertThat(ProgressLine.delivered(List.of(5_003L, 4_000L), 5_000)).isEqualTo(9_000);
    }

    @Test
    void durationsReadAsAPersonWouldWriteThem() {
        assertThat(ProgressLine.duration(Duration.ofMillis(8_249))).isEqualTo("8.2 s");
        assertThat(ProgressLine.duration(Duration.ofMillis(59_990))).isEqualTo("59.9 s");
        assertThat(ProgressLine.duration(Duration.ofSeconds(65))).isEqualTo("1 min 05 s");
        assertThat(ProgressLine.duration(Duration.ofMinutes(5))).isEqualTo("5 min 00 s");
        assertThat(ProgressLine.duration(Duration.ofSeconds(7_380))).isEqualTo("2 h 03 min");
    }
}
