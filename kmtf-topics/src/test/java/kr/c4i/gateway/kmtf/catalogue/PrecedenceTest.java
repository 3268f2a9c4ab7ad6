package kr.c4i.gateway.kmtf.catalogue;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class PrecedenceTest {

    @Test
    void parseAcceptsNamesInAnyCase() {
        assertThat(Precedence.parse("flash")).isEqualTo(Precedence.FLASH);
        assertThat(Precedence.parse(" Immediate ")).isEqualTo(Precedence.IMMEDIATE);
        assertThat(Precedence.parse("ROUTINE")).isEqualTo(Precedence.ROUTINE);
    }

    @Test
    void parseAcceptsProsignLetters() {
        assertThat(Precedence.parse("Z")).isEqualTo(Precedence.FLASH);
        assertThat(Precedence.parse("o")).isEqualTo(Precedence.IMMEDIATE);
        assertThat(Precedence.parse("P")).isEqualTo(Precedence.PRIORITY);
        assertThat(Precedence.parse("r")).isEqualTo(Precedence.ROUTINE);
    }

    @Test
    void parseRejectsUnknownValueListingAllowedValues() {
        assertThatIllegalArgumentException().isThrownBy(() -> Precedence.parse("urgent"))
            .withMessageContaining("'urgent'")
            .withMessageContaining("flash, immediate, priority, routine")
            .withMessageContaining("z, o, p, r");
        assertThatIllegalArgumentException().isThrownBy(() -> Precedence.parse(null));
    }

    @Test
    void labelIsLowerCaseName() {
        assertThat(Precedence.IMMEDIATE.label()).isEqualTo("immediate");
        assertThat(Precedence.FLASH.prosign()).isEqualTo('Z');
    }
}
