package kr.c4i.gateway.kmtf.text;

import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class KmtfParseExceptionTest {

    @Test
    void messageNamesLineSetAndFieldWhenKnown() {
        assertThat(new KmtfParseException.InvalidField(3, "OBSID", 2, "bad").getMessage())
            .isEqualTo("line 3, set OBSID, field 2: bad");
        assertThat(new KmtfParseException.UnterminatedSet(4, "DTG", "open").getMessage())
            .isEqualTo("line 4, set DTG: open");
        assertThat(new KmtfParseException.EmptySetName(5, "empty").getMessage()).isEqualTo("line 5: empty");
    }

    @Test
    void everyKindHasAStableDistinctName() {
        List<KmtfParseException> all = List.of(new KmtfParseException.MissingMsgid(1, null, ""),
                new KmtfParseException.MsgidNotFirst(1, ""), new KmtfParseException.DuplicateMsgid(1, ""),
                new KmtfParseException.UnterminatedSet(1, "A", ""), new KmtfParseException.EmptySetName(1, ""),
                new KmtfParseException.InvalidSetName(1, "a", ""), new KmtfParseException.InvalidField(1, "A", 1, ""),
                new KmtfParseException.InvalidDateTimeGroup(1, "A", 1, ""),
                new KmtfParseException.InvalidClassification(1, ""), new KmtfParseException.InvalidCharacter(1, ""));
        assertThat(all).extracting(KmtfParseException::kind)
            .containsExactly("missing-msgid", "msgid-not-first", "duplicate-msgid", "unterminated-set",
                    "empty-set-name", "invalid-set-name", "invalid-field", "invalid-date-time-group",
                    "invalid-classification", "invalid-character")
            .allMatch((kind) -> kind.matches("[a-z]+(-[a-z]+)*"));
    }

    @Test
    void noStackTraceIsCaptured() {
        assertThat(new KmtfParseException.MissingMsgid(1, null, "x").getStackTrace()).isEmpty();
    }
}
