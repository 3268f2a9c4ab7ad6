package kr.c4i.gateway.norm.link;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ParityPolicyTest {

    private static final double TARGET = 0.01;

    private final ParityPolicy policy = new ParityPolicy(32, TARGET);

    @ParameterizedTest(name = "loss {0}: {1} segments")
    @CsvSource({ "0, 0", "0.0099, 0", "0.01, 1", "0.0999, 1", "0.1, 2", "0.2, 2", "0.2155, 3", "0.3, 3", "0.3163, 4",
            "0.35, 4", "0.5, 6" })
    void theFewestSegmentsThatKeepAFrameUnderTheTargetAreChosen(double loss, int segments) {
        assertThat(this.policy.next(0, loss)).isEqualTo(segments);
        // The formula itself: with k segments a frame needs repair only when all k+1 packets are lost.
        assertThat(Math.pow(loss, segments + 1)).isLessThan(TARGET);
        if (segments > 0) {
            assertThat(Math.pow(loss, segments)).isGreaterThanOrEqualTo(TARGET);
        }
    }

    @Test
    void neverMoreThanTheMaximumNorLessThanNone() {
        ParityPolicy four = new ParityPolicy(4, TARGET);
        assertThat(four.next(0, 0.9)).isEqualTo(4);
        assertThat(four.next(4, 1.0)).isEqualTo(4);
        assertThat(new ParityPolicy(0, TARGET).next(0, 0.5)).isZero();
        assertThat(four.next(4, 0)).isZero();
    }

    @Test
    void risesAtOnceAndComesDownOnlyOnceAQuarterOfTheTargetWouldBeMetWithFewer() {
        int k = this.policy.next(0, 0.3);
        assertThat(k).isEqualTo(3);
        // 20% needs only 2, but 3 is kept while 2 would leave more than a quarter of the target (0.2^3 = 0.8%).
        assertThat(k = this.policy.next(k, 0.2)).isEqualTo(3);
        assertThat(k = this.policy.next(k, 0.14)).isEqualTo(3);
        // 0.13^3 = 0.22%: under a quarter of 1%.
        assertThat(k = this.policy.next(k, 0.13)).isEqualTo(2);
        assertThat(k = this.policy.next(k, 0.2)).as("not back up for what 2 segments meet").isEqualTo(2);
        assertThat(this.policy.next(k, 0.22)).isEqualTo(3);
        assertThat(this.policy.next(1, 0.003)).as("0.3% with one segment").isEqualTo(1);
        assertThat(this.policy.next(1, 0.002)).isZero();
    }

    @Test
    void anEstimateWaveringAroundAThresholdSwitchesTheParityOnce() {
        List<Integer> chosen = new ArrayList<>();
        int k = 2;
        for (int i = 0; i < 20; i++) {
            k = this.policy.next(k, i % 2 == 0 ? 0.23 : 0.20);
            chosen.add(k);
        }
        assertThat(chosen).containsOnly(3);
    }

    @Test
    void refusesATargetOrALossOutOfRange() {
        assertThatThrownBy(() -> new ParityPolicy(4, 0)).hasMessageContaining("target");
        assertThatThrownBy(() -> new ParityPolicy(4, 1)).hasMessageContaining("target");
        assertThatThrownBy(() -> new ParityPolicy(-1, TARGET)).hasMessageContaining("at least 0");
        assertThatThrownBy(() -> this.policy.next(0, Double.NaN)).hasMessageContaining("loss");
        assertThatThrownBy(() -> this.policy.next(0, 1.5)).hasMessageContaining("loss");
    }
}
