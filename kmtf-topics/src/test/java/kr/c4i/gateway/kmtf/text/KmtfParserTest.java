package kr.c4i.gateway.kmtf.text;

import java.util.List;
import java.util.Optional;
import java.util.Random;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatNoException;
import static org.assertj.core.api.Assertions.fail;

class KmtfParserTest {

    private final KmtfParser parser = new KmtfParser();

    @Test
    void sitrepWithClassificationAndNarrativeContainingSlashesParses() throws KmtfParseException {
        KmtfMessage message = this.parser.parse(SampleMessages.SITREP);
        assertThat(message.classification()).contains("UNCLASSIFIED");
        assertThat(message.messageType()).isEqualTo("SITREP");
        assertThat(message.sets()).extracting(KmtfSet::name)
            .containsExactly("MSGID", "REF", "DTG", "PERID", "OWNSIT", "NARR");
        assertThat(message.sets()).extracting(KmtfSet::line).containsExactly(2, 3, 4, 6, 7, 8);
        KmtfSet narr = message.set("NARR").orElseThrow();
        assertThat(narr.freeText()).isTrue();
        assertThat(narr.fields()).containsExactly(new KmtfField(
                "ENEMY ACTIVITY LOW ALONG MSR 1/2. NO CONTACT.\nPATROLS 1/A AND 2/B RETURNED AT 1530Z; 적 활동 없음"));
        assertThat(message.set("OWNSIT").orElseThrow().keyword("LOC")).contains("52SCG1234567890");
    }

    @Test
    void callForFireWithKeywordFieldsAndCaveatsParses() throws KmtfParseException {
        KmtfMessage message = this.parser.parse(SampleMessages.CALLFIRE);
        assertThat(message.classification()).contains("SECRET//REL TO USA, KOR");
        assertThat(message.messageType()).isEqualTo("CALLFIRE");
        KmtfSet mof = message.set("MOF").orElseThrow();
        assertThat(mof.keyword("ADJ")).contains("FIRE FOR EFFECT");
        assertThat(mof.fields()).extracting((field) -> field.keyword().orElseThrow())
            .containsExactly("ADJ", "AMMO", "FUZE", "RNDS");
        assertThat(message.set("RMKS").orElseThrow().fields().getFirst().raw())
            .isEqualTo("DANGER CLOSE 600M / REQUEST SMOKE");
    }

    @Test
    void setSpanningSeveralLinesWithCrLfParses() throws KmtfParseException {
        KmtfMessage message = this.parser.parse(SampleMessages.LOGSITREP_MULTILINE);
        assertThat(message.classification()).isEmpty();
        KmtfSet supply = message.set("SUPPLY").orElseThrow();
        assertThat(supply.fields()).extracting(KmtfField::raw)
            .containsExactly("CL:III", "QTY:45000L", "CL:V", "QTY:120T", "CL:I", "QTY:-");
        assertThat(supply.line()).isEqualTo(2);
        assertThat(message.set("AMPN").orElseThrow().line()).isEqualTo(5);
        assertThat(message.set("AMPN").orElseThrow().fields().getFirst().raw()).isEqualTo("RESUPPLY BY\n  CONVOY 7");
    }

    @Test
    void gentextHasHeadingThenFreeText() throws KmtfParseException {
        KmtfSet gentext = this.parser.parse(SampleMessages.GENADMIN).set("GENTEXT").orElseThrow();
        assertThat(gentext.fields()).extracting(KmtfField::raw)
            .containsExactly("REMARKS", "ALL UNITS REPORT READINESS BY 251200ZNOV2026 VIA J3/J6 CHANNELS.");
    }

    @Test
    void setWithoutFieldsAndNoDataFieldsParse() throws KmtfParseException {
        KmtfMessage message = this.parser.parse("MSGID/SITREP/-/-//\nENDAT//\n");
        assertThat(message.set("ENDAT").orElseThrow().fields()).isEmpty();
        assertThat(message.sets().getFirst().field(2)).contains(KmtfField.NO_DATA);
    }

    @ParameterizedTest
    @ValueSource(strings = { SampleMessages.SITREP, SampleMessages.CALLFIRE, SampleMessages.LOGSITREP_MULTILINE,
            SampleMessages.GENADMIN })
    void realisticMessagesRoundTripThroughRender(String text) throws KmtfParseException {
        KmtfMessage parsed = this.parser.parse(text);
        String rendered = parsed.render();
        assertThat(this.parser.parse(rendered)).isEqualTo(parsed);
        assertThat(this.parser.parse(rendered).render()).isEqualTo(rendered);
    }

    @Test
    void missingMsgidIsReported() {
        KmtfParseException ex = parseFailure("DTG/211430ZNOV2026//\nNARR/NOTHING TO REPORT//\n");
        assertFailure(ex, KmtfParseException.MissingMsgid.class, "missing-msgid", 1, "DTG", -1);
    }

    @Test
    void emptyTextIsMissingMsgid() {
        assertThat(parseFailure("  \n\n").kind()).isEqualTo("missing-msgid");
        assertThat(parseFailure("").kind()).isEqualTo("missing-msgid");
    }

    @Test
    void msgidNotFirstIsReportedAtTheMsgid() {
        KmtfParseException ex = parseFailure("DTG/211430ZNOV2026//\nMSGID/SITREP/1CORPS//\n");
        assertFailure(ex, KmtfParseException.MsgidNotFirst.class, "msgid-not-first", 2, "MSGID", -1);
        assertThat(ex.getMessage()).contains("DTG (line 1) comes before it");
    }

    @Test
    void secondMsgidIsReported() {
        KmtfParseException ex = parseFailure("MSGID/SITREP//\nMSGID/SPOTREP//\n");
        assertFailure(ex, KmtfParseException.DuplicateMsgid.class, "duplicate-msgid", 2, "MSGID", -1);
    }

    @Test
    void unterminatedLastSetIsReported() {
        KmtfParseException ex = parseFailure("MSGID/SITREP/1CORPS//\nDTG/211430ZNOV2026\n");
        assertFailure(ex, KmtfParseException.UnterminatedSet.class, "unterminated-set", 2, "DTG", -1);
        assertThat(parseFailure("MSGID/SITREP//\nNARR/TEXT WITHOUT END/\n").setName()).isEqualTo("NARR");
        assertThat(parseFailure("MSGID/SITREP//\nENDAT\n").setName()).isEqualTo("ENDAT");
    }

    @Test
    void missingTerminatorBeforeNextLineIsReportedAtThatLine() {
        KmtfParseException ex = parseFailure("MSGID/SITREP/1CORPS//\nREF/A/OPORD\nDTG/211430ZNOV2026//\n");
        assertFailure(ex, KmtfParseException.UnterminatedSet.class, "unterminated-set", 2, "REF", -1);
        assertThat(ex.getMessage()).contains("is '//' missing at the end of line 2?");
    }

    @Test
    void badDateTimeGroupIsReportedWithSetAndField() {
        KmtfParseException ex = parseFailure("MSGID/SITREP/1CORPS//\nREF/A//\nDTG/211430ZNOV2026/32XX00ZJAN2026//\n");
        assertFailure(ex, KmtfParseException.InvalidDateTimeGroup.class, "invalid-date-time-group", 3, "DTG", 2);
        assertThat(ex.getMessage())
            .isEqualTo("line 3, set DTG, field 2: '32XX00ZJAN2026' is not a date-time group DDHHMMZMONYYYY");
    }

    @ParameterizedTest
    @ValueSource(strings = { "311200ZNOV2026", "290000ZFEB2027", "002359ZJAN2026", "012400ZJAN2026",
            "011260ZJAN2026", "011200ZABC2026", "1200ZNOV2026" })
    void impossibleDateTimeGroupsInDtgSetAreRejected(String dtg) {
        assertThat(parseFailure("MSGID/SITREP//\nDTG/" + dtg + "//\n").kind()).isEqualTo("invalid-date-time-group");
    }

    @Test
    void dateTimeGroupsAreCheckedOutsideDtgSetsWhenTheyLookLikeOne() throws KmtfParseException {
        assertThat(parseFailure("MSGID/SITREP//\nPERID/311200ZNOV2026//\n").fieldIndex()).isEqualTo(1);
        assertThat(parseFailure("MSGID/SITREP//\nEVENT/X/DTG:ASAP//\n").kind()).isEqualTo("invalid-date-time-group");
        assertThat(this.parser.parse("MSGID/SITREP//\nPERID/290000ZFEB2028/DTG:-//\n").sets()).hasSize(2);
    }

    @Test
    void emptySetNameIsReported() {
        KmtfParseException ex = parseFailure("MSGID/SITREP//\n/A/B//\n");
        assertFailure(ex, KmtfParseException.EmptySetName.class, "empty-set-name", 2, null, -1);
        assertThat(parseFailure("MSGID/SITREP/1CORPS///\n").kind()).isEqualTo("empty-set-name");
    }

    @Test
    void lowerCaseSetNameIsReported() {
        KmtfParseException ex = parseFailure("MSGID/SITREP//\n\nnarr/all quiet//\n");
        assertFailure(ex, KmtfParseException.InvalidSetName.class, "invalid-set-name", 3, "narr", -1);
    }

    @Test
    void setNameFollowedByLineBreakIsReported() {
        KmtfParseException ex = parseFailure("MSGID/SITREP//\nJUNK\nDTG/211430ZNOV2026//\n");
        assertFailure(ex, KmtfParseException.InvalidSetName.class, "invalid-set-name", 2, "JUNK", -1);
    }

    @Test
    void blankFieldIsReportedWithItsPosition() {
        KmtfParseException ex = parseFailure("MSGID/SITREP//\nOWNSIT/UNIT:1ST INF DIV/\n   /STATUS:GREEN//\n");
        assertFailure(ex, KmtfParseException.InvalidField.class, "invalid-field", 2, "OWNSIT", 2);
    }

    @Test
    void keywordWithoutValueIsReported() {
        KmtfParseException ex = parseFailure("MSGID/CALLFIRE//\nOBSID/OBS:A21/FDC://\n");
        assertFailure(ex, KmtfParseException.InvalidField.class, "invalid-field", 2, "OBSID", 2);
    }

    @Test
    void msgidWithoutValidTypeIsReported() {
        assertFailure(parseFailure("MSGID//\n"), KmtfParseException.InvalidField.class, "invalid-field", 1, "MSGID", 1);
        assertFailure(parseFailure("MSGID/sitrep//\n"), KmtfParseException.InvalidField.class, "invalid-field", 1,
                "MSGID", 1);
    }

    @Test
    void emptyFreeTextIsReported() {
        assertFailure(parseFailure("MSGID/SITREP//\nNARR//\n"), KmtfParseException.InvalidField.class,
                "invalid-field", 2, "NARR", 1);
        assertFailure(parseFailure("MSGID/GENADMIN//\nGENTEXT/REMARKS//\n"), KmtfParseException.InvalidField.class,
                "invalid-field", 2, "GENTEXT", 2);
    }

    @Test
    void invalidClassificationIsReported() {
        assertFailure(parseFailure("SECRETT\nMSGID/SITREP//\n"), KmtfParseException.InvalidClassification.class,
                "invalid-classification", 1, null, -1);
        assertThat(parseFailure("\nSECRET//rel to usa\nMSGID/SITREP//\n").line()).isEqualTo(2);
        assertThat(parseFailure("TOP SECRET//\nMSGID/SITREP//\n").kind()).isEqualTo("invalid-classification");
    }

    @Test
    void classificationLevelsWithCaveatsAreAccepted() throws KmtfParseException {
        for (String line : List.of("UNCLASSIFIED", "RESTRICTED", "CONFIDENTIAL", "SECRET", "TOP SECRET",
                "TOP SECRET//REL TO USA, KOR//ORCON", "CONFIDENTIAL//FOUO")) {
            assertThat(this.parser.parse(line + "\nMSGID/SITREP//\n").classification()).isEqualTo(Optional.of(line));
        }
    }

    @Test
    void controlCharacterIsReported() {
        assertFailure(parseFailure("MSGID/SITREP//\nNARR/BELL\u0007//\n"), KmtfParseException.InvalidCharacter.class,
                "invalid-character", 2, null, -1);
    }

    @Test
    void arbitraryInputEitherParsesAndRoundTripsOrFailsWithParseException() {
        String alphabet = "//////\n\n  ::--AZMSGIDNARTX0123a\t적";
        Random random = new Random(7L);
        for (int i = 0; i < 20000; i++) {
            StringBuilder text = new StringBuilder(random.nextBoolean() ? "MSGID/SITREP/" : "");
            int length = random.nextInt(60);
            for (int c = 0; c < length; c++) {
                text.append(alphabet.charAt(random.nextInt(alphabet.length())));
            }
            try {
                KmtfMessage parsed = this.parser.parse(text.toString());
                assertThat(this.parser.parse(parsed.render())).as(text.toString()).isEqualTo(parsed);
            }
            catch (KmtfParseException ex) {
                assertThat(ex.line()).as(text.toString()).isPositive();
            }
        }
    }

    @Test
    void parserIsReusableAfterFailure() {
        parseFailure("garbage");
        assertThatNoException().isThrownBy(() -> this.parser.parse(SampleMessages.SITREP));
    }

    private KmtfParseException parseFailure(String text) {
        try {
            KmtfMessage message = this.parser.parse(text);
            return fail("expected a parse failure, got " + message);
        }
        catch (KmtfParseException ex) {
            return ex;
        }
    }

    private static void assertFailure(KmtfParseException ex, Class<? extends KmtfParseException> type, String kind,
            int line, String setName, int fieldIndex) {
        assertThat(ex).as(ex.getMessage()).isInstanceOf(type);
        assertThat(ex.kind()).isEqualTo(kind);
        assertThat(ex.line()).as(ex.getMessage()).isEqualTo(line);
        assertThat(ex.setName()).as(ex.getMessage()).isEqualTo(setName);
        assertThat(ex.fieldIndex()).as(ex.getMessage()).isEqualTo(fieldIndex);
        assertThat(ex.getMessage()).startsWith("line " + line);
    }
}
