package kr.c4i.gateway.kmtf.text;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class KmtfFieldTest {

    @Test
    void dashMeansNoData() {
        assertThat(new KmtfField("-").noData()).isTrue();
        assertThat(KmtfField.of(null)).isEqualTo(KmtfField.NO_DATA);
        assertThat(KmtfField.of("")).isEqualTo(KmtfField.NO_DATA);
        assertThat(KmtfField.of("1CORPS").noData()).isFalse();
    }

    @Test
    void keywordFieldSplitsKeyAndValue() {
        KmtfField field = new KmtfField("GRID:52SCG12345678");
        assertThat(field.keyword()).contains("GRID");
        assertThat(field.value()).isEqualTo("52SCG12345678");
        assertThat(field.raw()).isEqualTo("GRID:52SCG12345678");
    }

    @Test
    void plainFieldHasNoKeywordAndValueIsRaw() {
        KmtfField field = new KmtfField("TIME 14:30");
        assertThat(field.keyword()).isEmpty();
        assertThat(field.value()).isEqualTo("TIME 14:30");
        assertThat(new KmtfField("grid:1").keyword()).isEmpty();
    }

    @Test
    void keywordFactoryRejectsKeysThatWouldNotParseAsKeywords() {
        assertThat(KmtfField.keyword("AMMO", "HE").raw()).isEqualTo("AMMO:HE");
        assertThatIllegalArgumentException().isThrownBy(() -> KmtfField.keyword("ammo", "HE"));
    }
}
