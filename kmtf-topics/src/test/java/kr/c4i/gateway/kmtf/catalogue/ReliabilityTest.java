package kr.c4i.gateway.kmtf.catalogue;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class ReliabilityTest {

    @Test
    void parseAcceptsAnyCaseAndDashes() {
        assertThat(Reliability.parse("reliable")).isEqualTo(Reliability.RELIABLE);
        assertThat(Reliability.parse("BEST_EFFORT")).isEqualTo(Reliability.BEST_EFFORT);
        assertThat(Reliability.parse("best-effort")).isEqualTo(Reliability.BEST_EFFORT);
    }

    @Test
    void parseRejectsUnknownValueListingAllowedValues() {
        assertThatIllegalArgumentException().isThrownBy(() -> Reliability.parse("sometimes"))
            .withMessageContaining("reliable, best_effort");
    }

    @Test
    void labelIsLowerCaseName() {
        assertThat(Reliability.BEST_EFFORT.label()).isEqualTo("best_effort");
    }
}
