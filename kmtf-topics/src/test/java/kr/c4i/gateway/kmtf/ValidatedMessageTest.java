package kr.c4i.gateway.kmtf;

import org.junit.jupiter.api.Test;

import kr.c4i.gateway.kmtf.catalogue.KmtfCatalogue;
import kr.c4i.gateway.kmtf.text.KmtfMessageBuilder;

import static org.assertj.core.api.Assertions.assertThatNullPointerException;

class ValidatedMessageTest {

    @Test
    void typeAndMessageAreRequired() {
        assertThatNullPointerException().isThrownBy(
                () -> new ValidatedMessage(null, new KmtfMessageBuilder().msgid("SITREP", "A", "1").build()));
        assertThatNullPointerException()
            .isThrownBy(() -> new ValidatedMessage(KmtfCatalogue.loadDefault().require("SITREP"), null));
    }
}
