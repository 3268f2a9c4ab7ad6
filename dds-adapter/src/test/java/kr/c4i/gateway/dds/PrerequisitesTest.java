package kr.c4i.gateway.dds;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.opentest4j.AssertionFailedError;
import org.opentest4j.TestAbortedException;

class PrerequisitesTest {

    @Test
    void aPresentPrerequisiteNeitherSkipsNorFails() {
        assertThatCode(() -> Prerequisites.require(true, "gcc (apt-get install gcc)", true)).doesNotThrowAnyException();
        assertThatCode(() -> Prerequisites.require(true, "gcc (apt-get install gcc)", false))
                .doesNotThrowAnyException();
    }

    @Test
    void aMissingOneSkipsOutsideCi() {
        assertThatThrownBy(() -> Prerequisites.require(false, "gcc (apt-get install gcc)", false))
                .isExactlyInstanceOf(TestAbortedException.class)
                .hasMessage("Missing: gcc (apt-get install gcc)");
    }

    @Test
    void aMissingOneFailsUnderCi() {
        assertThatThrownBy(() -> Prerequisites.require(false, "gcc (apt-get install gcc)", true))
                .isExactlyInstanceOf(AssertionFailedError.class)
                .hasMessage("Missing under CI, where no test may skip: gcc (apt-get install gcc)");
    }

    @Test
    void findsOnlyExecutablesOnThePath() {
        assertThat(Prerequisites.onPath("sh")).isTrue();
        assertThat(Prerequisites.onPath("no-such-tool-c4i")).isFalse();
    }
}
