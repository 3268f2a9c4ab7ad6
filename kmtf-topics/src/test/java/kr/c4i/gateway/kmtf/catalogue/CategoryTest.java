package kr.c4i.gateway.kmtf.catalogue;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class CategoryTest {

    @Test
    void parseAcceptsLowerCaseLabels() {
        for (Category category : Category.values()) {
            assertThat(Category.parse(category.label())).isEqualTo(category);
        }
    }

    @Test
    void labelIsLowerCase() {
        assertThat(Category.CBRN.label()).isEqualTo("cbrn");
        assertThat(Category.COMMUNICATIONS.label()).isEqualTo("communications");
    }

    @Test
    void parseRejectsUnknownCategory() {
        assertThatIllegalArgumentException().isThrownBy(() -> Category.parse("space"))
            .withMessageContaining("operations, intelligence, fires");
    }
}
