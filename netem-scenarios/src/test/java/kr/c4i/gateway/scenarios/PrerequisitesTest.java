package kr.c4i.gateway.scenarios;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.opentest4j.AssertionFailedError;
import org.opentest4j.TestAbortedException;

class PrerequisitesTest {

    @Test
    void aPresentPrerequisiteNeitherSkipsNorFails() {
        assertThatCode(() -> Prerequisites.require(true, "nft (apt-get install nftables)", true))
                .doesNotThrowAnyException();
        assertThatCode(() -> Prerequisites.require(true, "nft (apt-get install nftables)", false))
                .doesNotThrowAnyException();
    }

    @Test
    void aMissingOneSkipsOutsideCi() {
        assertThatThrownBy(() -> Prerequisites.require(false, "nft (apt-get install nftables)", false))
                .isExactlyInstanceOf(TestAbortedException.class)
                .hasMessage("Missing: nft (apt-get install nftables)");
    }

    @Test
    void aMissingOneFailsUnderCi() {
        assertThatThrownBy(() -> Prerequisites.require(false, "nft (apt-get install nftables)", true))
                .isExactlyInstanceOf(AssertionFailedError.class)
                .hasMessage("Missing under CI, where no test may skip: nft (apt-get install nftables)");
    }

    @Test
    void findsOnlyExecutablesOnThePath() {
        assertThat(Prerequisites.onPath("sh")).isTrue();
        assertThat(Prerequisites.onPath("no-such-tool-c4i")).isFalse();
    }
}
