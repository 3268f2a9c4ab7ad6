package kr.c4i.gateway.kmtf.text;

import java.util.List;
import java.util.Optional;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class KmtfMessageTest {

    @Test
    void renderWritesOneSetPerLineAfterTheClassification() {
        KmtfMessage message = new KmtfMessage(Optional.of("CONFIDENTIAL"),
                List.of(KmtfSet.of("MSGID", "SPOTREP", "A21", "0001"), KmtfSet.of("ENDAT"),
                        KmtfSet.of("NARR", "TWO T-72 AT GRID 1/2\nMOVING NORTH")));
        assertThat(message.render()).isEqualTo("""
                CONFIDENTIAL
                MSGID/SPOTREP/A21/0001//
                ENDAT//
                NARR/TWO T-72 AT GRID 1/2
                MOVING NORTH//
                """);
    }

    @Test
    void messageTypeIsFirstFieldOfMsgid() {
        KmtfMessage message = new KmtfMessage(Optional.empty(), List.of(KmtfSet.of("MSGID", "INTREP", "-")));
        assertThat(message.messageType()).isEqualTo("INTREP");
        assertThat(message.set("MSGID")).isPresent();
        assertThat(message.set("NARR")).isEmpty();
    }

    @Test
    void renderedTextParsesBackToAnEqualMessage() throws KmtfParseException {
        KmtfMessage message = new KmtfParser().parse(SampleMessages.CALLFIRE);
        assertThat(new KmtfParser().parse(message.render())).isEqualTo(message);
    }

    @Test
    void messagesWithoutLeadingMsgidAreRejected() {
        assertThatIllegalArgumentException().isThrownBy(() -> new KmtfMessage(Optional.empty(), List.of()));
        assertThatIllegalArgumentException()
            .isThrownBy(() -> new KmtfMessage(Optional.empty(), List.of(KmtfSet.of("DTG", "211430ZNOV2026"))));
        assertThatIllegalArgumentException().isThrownBy(() -> new KmtfMessage(Optional.empty(),
                List.of(KmtfSet.of("MSGID", "SITREP"), KmtfSet.of("MSGID", "SITREP"))));
        assertThatIllegalArgumentException()
            .isThrownBy(() -> new KmtfMessage(Optional.empty(), List.of(KmtfSet.of("MSGID"))));
        assertThatIllegalArgumentException()
            .isThrownBy(() -> new KmtfMessage(Optional.empty(), List.of(KmtfSet.of("MSGID", "sitrep"))));
    }

    @Test
    void invalidClassificationIsRejected() {
        assertThatIllegalArgumentException().isThrownBy(
                () -> new KmtfMessage(Optional.of("SEKRET"), List.of(KmtfSet.of("MSGID", "SITREP"))));
    }
}
