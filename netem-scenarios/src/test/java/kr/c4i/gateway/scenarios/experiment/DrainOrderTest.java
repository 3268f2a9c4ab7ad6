package kr.c4i.gateway.scenarios.experiment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.within;

import java.util.List;

import org.junit.jupiter.api.Test;

class DrainOrderTest {

    @Test
    void strictPrecedenceOrderIsOneAndTheReverseZero() {
        assertThat(DrainOrder.inOrderShare(List.of("FLASH", "FLASH", "IMMEDIATE", "PRIORITY", "ROUTINE")))
                .isEqualTo(1.0);
        assertThat(DrainOrder.inOrderShare(List.of("ROUTINE", "PRIORITY", "IMMEDIATE", "FLASH"))).isEqualTo(0.0);
    }

    @Test
    void aFewLowerMessagesAheadCostOnlyTheirPairs() {
        // 1 ROUTINE (in flight at the cut) ahead of 3 FLASH: 3 of the 3 + 3 pairs are out of order
        assertThat(DrainOrder.inOrderShare(List.of("ROUTINE", "FLASH", "FLASH", "FLASH", "ROUTINE")))
                .isCloseTo(3 / 6.0, within(1e-9));
        assertThat(DrainOrder.inOrderShare(List.of("FLASH", "FLASH"))).isNaN();
        assertThatIllegalArgumentException().isThrownBy(() -> DrainOrder.inOrderShare(List.of("URGENT")));
    }

    @Test
    void theOrderReadsAsRuns() {
        assertThat(DrainOrder.runs(List.of("ROUTINE", "FLASH", "FLASH", "IMMEDIATE", "ROUTINE")))
                .isEqualTo("ROUTINE x1, FLASH x2, IMMEDIATE x1, ROUTINE x1");
        assertThat(DrainOrder.runs(List.of())).isEmpty();
    }

    @Test
    void percentilesAreNearestRank() {
        List<Double> ten = List.of(10.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0);
        assertThat(DrainOrder.percentile(ten, 50)).isEqualTo(5.0);
        assertThat(DrainOrder.percentile(ten, 99)).isEqualTo(10.0);
        assertThat(DrainOrder.percentile(List.of(), 50)).isNaN();
    }
}
