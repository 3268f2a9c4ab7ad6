package kr.c4i.gateway.kmtf;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class KmtfRejectionTest {

    @Test
    void kindsAreStableLowerCaseNames() {
        assertThat(new String[] { KmtfRejection.EMPTY, KmtfRejection.OVERSIZE, KmtfRejection.INVALID_ENCODING,
                KmtfRejection.UNKNOWN_TYPE, KmtfRejection.TYPE_MISMATCH })
            .containsExactly("empty", "oversize", "invalid-encoding", "unknown-type", "type-mismatch");
    }

    @Test
    void rejectionKeepsKindAndMessageWithoutStackTrace() {
        KmtfRejection rejection = new KmtfRejection(KmtfRejection.OVERSIZE, "too big");
        assertThat(rejection.kind()).isEqualTo("oversize");
        assertThat(rejection.getMessage()).isEqualTo("too big");
        assertThat(rejection.getStackTrace()).isEmpty();
    }
}
