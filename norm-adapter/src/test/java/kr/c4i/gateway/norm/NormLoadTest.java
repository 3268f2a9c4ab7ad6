package kr.c4i.gateway.norm;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

import kr.c4i.gateway.norm.internal.Norm;

class NormLoadTest {

    @Test
    void aLibraryThatDoesNotLoadIsItsOwnExceptionNamingThePackageToInstall() {
        assertThatThrownBy(() -> Norm.load("libno-such-norm.so.1"))
                .isInstanceOf(NormLibraryUnavailableException.class)
                .hasMessageContaining("libno-such-norm.so.1")
                .hasMessageContaining("Install the Debian package libnorm1");
    }
}
