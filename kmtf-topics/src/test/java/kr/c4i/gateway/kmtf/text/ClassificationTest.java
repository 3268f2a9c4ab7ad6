package kr.c4i.gateway.kmtf.text;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.util.Arrays;

import org.junit.jupiter.api.Test;

class ClassificationTest {

    @Test
    void levelsAreOrderedLowestFirstAsTheTextRulesListThem() {
        assertThat(Arrays.stream(Classification.values()).map(Classification::label))
                .containsExactlyElementsOf(TextRules.CLASSIFICATION_LEVELS);
        assertThat(Classification.values()).isSortedAccordingTo(Classification::compareTo);
    }

    @Test
    void aClearanceDominatesItsOwnLevelAndThoseBelowButNoneAbove() {
        assertThat(Classification.CONFIDENTIAL.dominates(Classification.UNCLASSIFIED)).isTrue();
        assertThat(Classification.CONFIDENTIAL.dominates(Classification.RESTRICTED)).isTrue();
        assertThat(Classification.CONFIDENTIAL.dominates(Classification.CONFIDENTIAL)).isTrue();
        assertThat(Classification.CONFIDENTIAL.dominates(Classification.SECRET)).isFalse();
        assertThat(Classification.CONFIDENTIAL.dominates(Classification.TOP_SECRET)).isFalse();
        assertThat(Classification.UNCLASSIFIED.dominates(Classification.RESTRICTED)).isFalse();
        assertThat(Classification.TOP_SECRET.dominates(Classification.SECRET)).isTrue();
    }

    @Test
    void theLevelOfALineIgnoresItsCaveats() {
        assertThat(Classification.ofLine("SECRET")).isEqualTo(Classification.SECRET);
        assertThat(Classification.ofLine("SECRET//REL TO USA, KOR")).isEqualTo(Classification.SECRET);
        assertThat(Classification.ofLine("TOP SECRET//NOFORN")).isEqualTo(Classification.TOP_SECRET);
        assertThat(Classification.ofLine("UNCLASSIFIED")).isEqualTo(Classification.UNCLASSIFIED);
    }

    @Test
    void aLineThatIsNotAClassificationIsRefusedWithTheReason() {
        assertThatIllegalArgumentException().isThrownBy(() -> Classification.ofLine("SECRETISH"))
                .withMessageContaining("not a classification");
        assertThatIllegalArgumentException().isThrownBy(() -> Classification.ofLine("secret"));
        assertThatIllegalArgumentException().isThrownBy(() -> Classification.ofLine("SECRET REL"));
        assertThatIllegalArgumentException().isThrownBy(() -> Classification.ofLine("SECRET//rel to usa"))
                .withMessageContaining("caveat");
    }

    @Test
    void aMessageWithoutAClassificationLineIsUnclassified() throws KmtfParseException {
        KmtfParser parser = new KmtfParser();
        assertThat(Classification.of(parser.parse("MSGID/SITREP/X/1//\n"))).isEqualTo(Classification.UNCLASSIFIED);
        assertThat(Classification.of(parser.parse("CONFIDENTIAL//REL KOR\nMSGID/SITREP/X/1//\n")))
                .isEqualTo(Classification.CONFIDENTIAL);
    }

    @Test
    void configurationNamesALevelInAnyCaseWithASpaceOrUnderscore() {
        assertThat(Classification.parse("SECRET")).isEqualTo(Classification.SECRET);
        assertThat(Classification.parse(" confidential ")).isEqualTo(Classification.CONFIDENTIAL);
        assertThat(Classification.parse("TOP SECRET")).isEqualTo(Classification.TOP_SECRET);
        assertThat(Classification.parse("top_secret")).isEqualTo(Classification.TOP_SECRET);
        assertThatIllegalArgumentException().isThrownBy(() -> Classification.parse("SECRET//REL KOR"))
                .withMessageContaining("UNCLASSIFIED, RESTRICTED, CONFIDENTIAL, SECRET, TOP SECRET");
        assertThatIllegalArgumentException().isThrownBy(() -> Classification.parse("COSMIC"))
                .withMessageContaining("'COSMIC' is not a classification level");
    }
}
