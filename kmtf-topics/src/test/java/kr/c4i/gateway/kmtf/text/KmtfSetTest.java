package kr.c4i.gateway.kmtf.text;

import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class KmtfSetTest {

    @Test
    void equalityIgnoresWhereTheSetWasFound() {
        KmtfSet parsed = new KmtfSet("DTG", List.of(new KmtfField("211430ZNOV2026")), 7);
        KmtfSet built = KmtfSet.of("DTG", "211430ZNOV2026");
        assertThat(parsed).isEqualTo(built).hasSameHashCodeAs(built);
        assertThat(built.line()).isZero();
        assertThat(parsed).isNotEqualTo(KmtfSet.of("DTG", "221430ZNOV2026"));
    }

    @Test
    void freeTextSetsAreRecognised() {
        assertThat(KmtfSet.of("NARR", "A/B").freeText()).isTrue();
        assertThat(KmtfSet.of("GENTEXT", "HEADING", "A/B").freeText()).isTrue();
        assertThat(KmtfSet.of("OWNSIT", "A").freeText()).isFalse();
    }

    @Test
    void fieldAndKeywordLookups() {
        KmtfSet set = KmtfSet.of("MOF", "ADJ:FFE", "-", "AMMO:HE");
        assertThat(set.field(1)).contains(new KmtfField("ADJ:FFE"));
        assertThat(set.field(4)).isEmpty();
        assertThat(set.field(0)).isEmpty();
        assertThat(set.keyword("AMMO")).contains("HE");
        assertThat(set.keyword("FUZE")).isEmpty();
    }

    @Test
    void invalidNamesAreRejected() {
        assertThatIllegalArgumentException().isThrownBy(() -> KmtfSet.of("narr", "x"));
        assertThatIllegalArgumentException().isThrownBy(() -> KmtfSet.of("", "x"));
        assertThatIllegalArgumentException().isThrownBy(() -> KmtfSet.of("123", "x"));
        assertThatIllegalArgumentException().isThrownBy(() -> KmtfSet.of("MUCHTOOLONGSETNAME12345", "x"));
    }

    @Test
    void fieldsThatWouldNotParseBackAreRejected() {
        assertThatIllegalArgumentException().isThrownBy(() -> KmtfSet.of("UNIT", "A/B"))
            .withMessageContaining("field 1");
        assertThatIllegalArgumentException().isThrownBy(() -> KmtfSet.of("UNIT", " PADDED"));
        assertThatIllegalArgumentException().isThrownBy(() -> KmtfSet.of("UNIT", "TWO\nLINES"));
        assertThatIllegalArgumentException().isThrownBy(() -> KmtfSet.of("UNIT", "KEY:"));
        assertThatIllegalArgumentException().isThrownBy(() -> KmtfSet.of("NARR", "ENDS HERE// NOT"));
        assertThatIllegalArgumentException().isThrownBy(() -> KmtfSet.of("NARR", "TRAILING/"));
        assertThatIllegalArgumentException().isThrownBy(() -> KmtfSet.of("NARR", "ONE", "TWO"));
        assertThatIllegalArgumentException().isThrownBy(() -> KmtfSet.of("GENTEXT", "ONLY HEADING"));
        assertThatIllegalArgumentException().isThrownBy(() -> KmtfSet.of("GENTEXT", "A/B", "TEXT"));
    }
}
