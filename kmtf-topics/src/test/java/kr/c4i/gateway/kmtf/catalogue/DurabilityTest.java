package kr.c4i.gateway.kmtf.catalogue;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class DurabilityTest {

    @Test
    void parseAcceptsAnyCaseAndDashes() {
        assertThat(Durability.parse("volatile")).isEqualTo(Durability.VOLATILE);
        assertThat(Durability.parse("Transient-Local")).isEqualTo(Durability.TRANSIENT_LOCAL);
        assertThat(Durability.parse("PERSISTENT")).isEqualTo(Durability.PERSISTENT);
    }

    @Test
    void parseRejectsUnknownValueListingAllowedValues() {
        assertThatIllegalArgumentException().isThrownBy(() -> Durability.parse("forever"))
            .withMessageContaining("volatile, transient_local, transient, persistent");
    }
}
