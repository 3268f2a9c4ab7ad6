package kr.c4i.gateway.kmtf;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

import kr.c4i.gateway.kmtf.catalogue.KmtfCatalogue;
import kr.c4i.gateway.kmtf.text.KmtfParseException;
import kr.c4i.gateway.kmtf.text.KmtfSet;
import kr.c4i.gateway.kmtf.text.KmtfTexts;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The validator answers every generated body exactly as the code before the hand-written scanning did (kept
 * verbatim as {@link OriginalKmtfValidator}): bodies with byte order marks and broken UTF-8 in them, declared types
 * in and out of the catalogue.
 */
class OriginalValidatorBehaviourTest {

    private static final KmtfCatalogue CATALOGUE = KmtfCatalogue.loadDefault();

    private static final List<byte[]> BYTES = List.of(new byte[] { (byte) 0xEF, (byte) 0xBB, (byte) 0xBF },
            new byte[] { (byte) 0xFF }, new byte[] { (byte) 0xC0, (byte) 0x80 }, new byte[] { (byte) 0x80 },
            new byte[] { (byte) 0xE2, (byte) 0x82 }, new byte[] { (byte) 0xED, (byte) 0xA0, (byte) 0x80 },
            new byte[] { (byte) 0xEF, (byte) 0xBF, (byte) 0xBD }, new byte[] { (byte) 0xF4, (byte) 0x90, 0, 0 },
            new byte[] { (byte) 0xF0, (byte) 0x9F, (byte) 0x98, (byte) 0x80 }, new byte[] { 0 });

    private final KmtfValidator validator = new KmtfValidator(CATALOGUE);
    private final OriginalKmtfValidator original = new OriginalKmtfValidator(CATALOGUE);

    /** A body, where raw bytes go in it, and the declared type. */
    record Body(byte[] bytes, String declaredType) {

        @Override
        public String toString() {
            return declaredType + ": " + new String(bytes, StandardCharsets.ISO_8859_1);
        }
    }

    @Property(tries = 20_000)
    void bodiesAreValidatedAsBefore(@ForAll("bodies") Body body) {
        assertThat(validated(this.validator, body)).as(body.toString()).isEqualTo(validated(this.original, body));
    }

    @Provide
    Arbitrary<Body> bodies() {
        Arbitrary<byte[]> raw = Arbitraries.of(BYTES);
        return Combinators.combine(KmtfTexts.mutatedMessages(), raw.list().ofMaxSize(2),
                Arbitraries.doubles().between(0, 1), Arbitraries.oneOf(KmtfTexts.types(), Arbitraries.just(null)),
                Arbitraries.integers().between(0, 40))
                .as((text, inserts, where, type, size) -> {
                    byte[] utf8 = text.getBytes(StandardCharsets.UTF_8);
                    ByteArrayOutputStream out = new ByteArrayOutputStream();
                    int at = (int) (where * utf8.length);
                    out.write(utf8, 0, at);
                    inserts.forEach(out::writeBytes);
                    out.write(utf8, at, utf8.length - at);
                    // Now and then past a type's size or the limit for unknown types.
                    if (size == 0) {
                        out.writeBytes("X".repeat(KmtfValidator.MAX_SIZE_UNKNOWN_TYPE).getBytes(StandardCharsets.UTF_8));
                    }
                    String declared = (type != null && size == 1) ? text.replaceAll("(?s).*?MSGID/([^/]*)/.*", "$1")
                            : type;
                    return new Body(out.toByteArray(), declared);
                });
    }

    private static String validated(Object validator, Body body) {
        try {
            ValidatedMessage valid = (validator instanceof KmtfValidator v) ? v.validate(body.bytes(), body.declaredType())
                    : ((OriginalKmtfValidator) validator).validate(body.bytes(), body.declaredType());
            return "accepted " + valid + " " + valid.message().sets().stream().map(KmtfSet::line).toList();
        }
        catch (KmtfRejection ex) {
            KmtfParseException cause = ex.parseError().orElse(null);
            return "rejected " + ex.kind() + ": " + ex.getMessage() + (cause == null ? ""
                    : " (" + cause.getClass().getName() + " line " + cause.line() + ", set " + cause.setName()
                            + ", field " + cause.fieldIndex() + ", " + cause.detail() + ")");
        }
        catch (RuntimeException ex) {
            return ex.toString();
        }
    }
}
