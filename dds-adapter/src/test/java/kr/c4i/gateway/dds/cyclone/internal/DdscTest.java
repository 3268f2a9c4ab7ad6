package kr.c4i.gateway.dds.cyclone.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;

import org.junit.jupiter.api.Test;

import kr.c4i.gateway.dds.DdsException;
import kr.c4i.gateway.dds.DdsLibraryUnavailableException;

class DdscTest {

    @Test
    void aConfiguredLibraryThatDoesNotLoadFallsBackToDebiansName() {
        Ddsc ddsc = Ddsc.load("/nonexistent/libddsc.so");
        assertThat(ddsc.library()).isEqualTo(Ddsc.DEBIAN_LIBRARY);
    }

    @Test
    void whenNoCandidateLoadsEveryFailureIsKeptAndTheMessageSaysWhatToInstall() {
        assertThatThrownBy(() -> Ddsc.loadFirst(List.of("/nonexistent/libddsc.so", "libc.so.6")))
                .isInstanceOf(DdsLibraryUnavailableException.class)
                .hasMessageContaining("tried [/nonexistent/libddsc.so, libc.so.6]")
                .hasMessageContaining("libddsc0debian")
                .satisfies(ex -> {
                    assertThat(ex.getSuppressed()).hasSize(2);
                    assertThat(ex.getSuppressed()[0]).hasMessageContaining("/nonexistent/libddsc.so");
                    assertThat(ex.getSuppressed()[1]).hasMessageContaining("libc.so.6")
                            .hasMessageContaining("it lacks [dds_create_domain");
                });
    }

    @Test
    void everyNegativeReturnCodeBecomesItsTypedExceptionWithCyclonesText() {
        Ddsc ddsc = Ddsc.load(null);
        assertThat(ddsc.check(42, "dds_take")).isEqualTo(42);
        assertThatThrownBy(() -> ddsc.check(-10, "dds_write")).isInstanceOf(DdsException.Timeout.class)
                .hasMessage("dds_write failed: " + ddsc.strretcode(-10) + " (DDS return code 10)");
        assertThat(ddsc.strretcode(-10)).containsIgnoringCase("timeout");
        assertThatThrownBy(() -> ddsc.check(-3, "dds_create_topic")).isInstanceOf(DdsException.BadParameter.class);
        assertThatThrownBy(() -> ddsc.check(-9, "x")).isInstanceOf(DdsException.AlreadyDeleted.class);
        assertThatThrownBy(() -> ddsc.check(-1, "x")).isInstanceOf(DdsException.Unspecified.class);
        // Cyclone's extended codes (DDS_XRETCODE) have no standard name.
        assertThatThrownBy(() -> ddsc.check(-52, "x")).isInstanceOf(DdsException.Other.class)
                .satisfies(ex -> assertThat(((DdsException) ex).code()).isEqualTo(52));
    }

    @Test
    void deletingAHandleThatDoesNotExistIsReportedNotFatal() {
        Ddsc ddsc = Ddsc.load(null);
        assertThat(ddsc.delete(123456)).isNegative();
    }
}
