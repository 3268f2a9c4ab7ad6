package kr.c4i.gateway.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class TraceParentTest {

    private static final String W3C_EXAMPLE = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";

    @Test
    void readsTheIdsAndFlagsOfTheSpecificationsExample() {
        TraceParent parent = new TraceParent(W3C_EXAMPLE);
        assertThat(parent.traceId()).isEqualTo("4bf92f3577b34da6a3ce929d0e0e4736");
        assertThat(parent.parentId()).isEqualTo("00f067aa0ba902b7");
        assertThat(parent.flags()).isEqualTo(1);
        assertThat(parent.sampled()).isTrue();
        assertThat(TraceParent.of(parent.traceId(), parent.parentId(), 0).sampled()).isFalse();
    }

    @Test
    void theBinaryFormIsTwentyFiveBytesAndReadsBack() {
        TraceParent parent = new TraceParent(W3C_EXAMPLE);
        byte[] bytes = parent.toBytes();
        assertThat(bytes).hasSize(TraceParent.BINARY_LENGTH);
        assertThat(TraceParent.fromBytes(bytes)).isEqualTo(parent);
        assertThatIllegalArgumentException().isThrownBy(() -> TraceParent.fromBytes(new byte[24]))
                .withMessageContaining("25 bytes, not 24");
        assertThatIllegalArgumentException().isThrownBy(() -> TraceParent.fromBytes(new byte[25]))
                .withMessageContaining("all zeros");
    }

    @ParameterizedTest
    @ValueSource(strings = { "", "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7",
            "01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
            "00-4BF92F3577B34DA6A3CE929D0E0E4736-00F067AA0BA902B7-01",
            "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-extra",
            "00-00000000000000000000000000000000-00f067aa0ba902b7-01",
            "00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01" })
    void anythingButAValidVersionZeroHeaderIsRefusedByName(String text) {
        assertThatIllegalArgumentException().isThrownBy(() -> new TraceParent(text))
                .withMessageContaining("traceparent");
    }

    @Test
    void blankTextIsNoContextAndNoneIsEmptyText() {
        assertThat(TraceParent.parseOrNone(null)).isNull();
        assertThat(TraceParent.parseOrNone("  ")).isNull();
        assertThat(TraceParent.parseOrNone(" " + W3C_EXAMPLE + "\n")).isEqualTo(new TraceParent(W3C_EXAMPLE));
        assertThat(TraceParent.text(null)).isEmpty();
        assertThat(TraceParent.text(new TraceParent(W3C_EXAMPLE))).isEqualTo(W3C_EXAMPLE);
    }

    @Test
    void aCarriedContextThatDoesNotReadIsNoneAndSaysWhy() {
        List<String> why = new ArrayList<>();
        assertThat(TraceParent.carried(W3C_EXAMPLE, why::add)).isEqualTo(new TraceParent(W3C_EXAMPLE));
        assertThat(TraceParent.carried((String) null, why::add)).isNull();
        assertThat(why).isEmpty();
        assertThat(TraceParent.carried("00-nope", why::add)).isNull();
        assertThat(TraceParent.carried(new byte[25], why::add)).isNull();
        assertThat(TraceParent.carried(new TraceParent(W3C_EXAMPLE).toBytes(), why::add))
                .isEqualTo(new TraceParent(W3C_EXAMPLE));
        assertThat(why).hasSize(2).satisfiesExactly(first -> assertThat(first).contains("'00-nope'"),
                second -> assertThat(second).contains("all zeros"));
    }
}
