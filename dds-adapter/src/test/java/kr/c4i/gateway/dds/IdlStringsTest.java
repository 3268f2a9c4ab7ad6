package kr.c4i.gateway.dds;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

class IdlStringsTest {

    @Test
    void encodesAsciiAndEveryWellFormedCharacterAsUtf8() {
        String text = "MSGID/POSREP/위치/ü/\uD83D\uDEA9//";

        assertThat(IdlStrings.firstInvalid(text)).isEqualTo(-1);
        assertThat(IdlStrings.encode(text, "The body")).isEqualTo(text.getBytes(StandardCharsets.UTF_8));
        assertThat(IdlStrings.decode(IdlStrings.encode(text, "The body"), "The body")).isEqualTo(text);
    }

    @Test
    void refusesWhatJavaWouldReplaceSilently() {
        assertThat(IdlStrings.firstInvalid("ab\u0000c")).isEqualTo(2);
        assertThat(IdlStrings.firstInvalid("ab\uD83D")).as("high surrogate at the end").isEqualTo(2);
        assertThat(IdlStrings.firstInvalid("a\uDEA9b")).as("low surrogate alone").isEqualTo(1);
        assertThat(IdlStrings.firstInvalid("a\uD83Dxb")).as("high surrogate, then no low one").isEqualTo(1);

        assertThatThrownBy(() -> IdlStrings.encode("ab\u0000c", "The message id"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("The message id contains a NUL character at index 2; IDL strings cannot carry it");
        assertThatThrownBy(() -> IdlStrings.encode("x\uDEA9", "The origin")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("The origin contains an unpaired surrogate at index 1");
        assertThatThrownBy(() -> IdlStrings.decode(new byte[] { 'a', (byte) 0xC3 }, "The body"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("is not valid UTF-8");
    }
}
