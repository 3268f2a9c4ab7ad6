package kr.c4i.gateway.kmtf;

import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import kr.c4i.gateway.kmtf.catalogue.KmtfCatalogue;
import kr.c4i.gateway.kmtf.text.KmtfField;
import kr.c4i.gateway.kmtf.text.KmtfMessageBuilder;
import kr.c4i.gateway.kmtf.text.KmtfParseException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

class KmtfValidatorTest {

    private static final String SITREP = """
            UNCLASSIFIED
            MSGID/SITREP/1CORPS/0042//
            DTG/211430ZNOV2026//
            NARR/ALL QUIET ON MSR 1/2//
            """;

    private KmtfCatalogue catalogue;
    private KmtfValidator validator;

    @BeforeEach
    void createValidator() {
        this.catalogue = KmtfCatalogue.loadDefault();
        this.validator = new KmtfValidator(this.catalogue);
    }

    @Test
    void goodMessageIsValidatedWithItsCatalogueEntry() throws KmtfRejection {
        ValidatedMessage validated = this.validator.validate(utf8(SITREP), "SITREP");
        assertThat(validated.type()).isEqualTo(this.catalogue.require("SITREP"));
        assertThat(validated.message().messageType()).isEqualTo("SITREP");
    }

    @Test
    void builtMessageIsValid() throws KmtfRejection {
        String text = new KmtfMessageBuilder().msgid("CALLFIRE", "FDC1", "0117")
            .set("TGTLOC", "GRID:52SCG12345678")
            .freeText("RMKS", "DANGER CLOSE")
            .build()
            .render();
        assertThat(this.validator.validate(utf8(text), "CALLFIRE").type().id()).isEqualTo("CALLFIRE");
    }

    @Test
    void byteOrderMarkIsIgnored() throws KmtfRejection {
        assertThat(this.validator.validate(utf8("\uFEFF" + SITREP), "SITREP").message().classification())
            .contains("UNCLASSIFIED");
    }

    @Test
    void emptyBodyIsRejected() {
        assertRejected(new byte[0], "SITREP", KmtfRejection.EMPTY);
        assertRejected(null, "SITREP", KmtfRejection.EMPTY);
    }

    @Test
    void bodyLargerThanTheTypesMaxSizeIsRejected() {
        int maxSize = this.catalogue.require("HEARTBEAT").maxSize();
        String text = "MSGID/HEARTBEAT/NODE1/1//\nRMKS/" + "X".repeat(maxSize) + "//\n";
        KmtfRejection rejection = assertRejected(utf8(text), "HEARTBEAT", KmtfRejection.OVERSIZE);
        assertThat(rejection.getMessage()).contains(String.valueOf(maxSize)).contains("HEARTBEAT");
    }

    @Test
    void oversizeIsCheckedBeforeEncoding() {
        byte[] body = new byte[KmtfValidator.MAX_SIZE_UNKNOWN_TYPE + 1];
        body[0] = (byte) 0xFF;
        assertRejected(body, "NOSUCHTYPE", KmtfRejection.OVERSIZE);
    }

    @Test
    void invalidUtf8IsRejected() {
        byte[] body = utf8(SITREP);
        body[body.length - 5] = (byte) 0xC3;
        body[body.length - 4] = (byte) 0x28;
        assertRejected(body, "SITREP", KmtfRejection.INVALID_ENCODING);
    }

    @Test
    void invalidUtf8IsRejectedWithTheDecodersReason() {
        byte[] body = utf8(SITREP);
        body[body.length - 5] = (byte) 0xFF;
        assertThat(assertRejected(body, "SITREP", KmtfRejection.INVALID_ENCODING).getMessage())
            .isEqualTo("the message body is not valid UTF-8: Input length = 1");
    }

    @Test
    void replacementCharacterWrittenAsSuchIsValidUtf8() throws KmtfRejection {
        String text = SITREP.replace("ALL QUIET", "SIGNAL \uFFFD LOST");
        assertThat(this.validator.validate(utf8(text), "SITREP").message().set("NARR").orElseThrow().fields())
            .extracting(KmtfField::raw).containsExactly("SIGNAL \uFFFD LOST ON MSR 1/2");
    }

    @Test
    void unknownTypeIsRejected() {
        assertThat(assertRejected(utf8(SITREP), "NOSUCHTYPE", KmtfRejection.UNKNOWN_TYPE).getMessage())
            .contains("NOSUCHTYPE");
        assertRejected(utf8(SITREP), null, KmtfRejection.UNKNOWN_TYPE);
    }

    @Test
    void msgidNamingAnotherTypeIsRejected() {
        assertThat(assertRejected(utf8(SITREP), "SPOTREP", KmtfRejection.TYPE_MISMATCH).getMessage())
            .contains("SPOTREP")
            .contains("SITREP");
    }

    @Test
    void parseFailureIsRejectedWithTheParseKindAndPosition() {
        KmtfRejection rejection = assertRejected(utf8("DTG/211430ZNOV2026//\nMSGID/SITREP//\n"), "SITREP",
                "msgid-not-first");
        KmtfParseException cause = rejection.parseError().orElseThrow();
        assertThat(cause.line()).isEqualTo(2);
        assertThat(rejection.getMessage()).contains("line 2, set MSGID");
    }

    @Test
    void nonParseRejectionsHaveNoParseError() {
        assertThat(assertRejected(new byte[0], "SITREP", KmtfRejection.EMPTY).parseError()).isEmpty();
    }

    private KmtfRejection assertRejected(byte[] body, String declaredType, String kind) {
        try {
            ValidatedMessage validated = this.validator.validate(body, declaredType);
            return fail("expected rejection '" + kind + "', got " + validated);
        }
        catch (KmtfRejection ex) {
            assertThat(ex.kind()).as(ex.getMessage()).isEqualTo(kind);
            return ex;
        }
    }

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
