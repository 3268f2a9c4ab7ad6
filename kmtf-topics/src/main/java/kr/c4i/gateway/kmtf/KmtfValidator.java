package kr.c4i.gateway.kmtf;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Objects;

import kr.c4i.gateway.kmtf.catalogue.KmtfCatalogue;
import kr.c4i.gateway.kmtf.catalogue.MessageType;
import kr.c4i.gateway.kmtf.text.KmtfMessage;
import kr.c4i.gateway.kmtf.text.KmtfParseException;
import kr.c4i.gateway.kmtf.text.KmtfParser;

/**
 * Decides whether a message body from an outbox may be forwarded. Checks run cheapest first, and the size check
 * comes before decoding so that an oversized body costs no parsing: empty, size, UTF-8, declared type in the
 * catalogue, KMTF syntax, and finally that the MSGID names the declared type. A leading UTF-8 byte order mark is
 * ignored, since some editors write one.
 *
 * <p>Thread-safe.
 */
public final class KmtfValidator {

    /** The size limit when the declared type is unknown, so that even a rejected body is bounded before decoding. */
    public static final int MAX_SIZE_UNKNOWN_TYPE = 64 * 1024;

    private final KmtfCatalogue catalogue;
    private final KmtfParser parser = new KmtfParser();

    public KmtfValidator(KmtfCatalogue catalogue) {
        this.catalogue = Objects.requireNonNull(catalogue, "catalogue");
    }

    /**
     * @param body the message text as stored in the outbox, UTF-8
     * @param declaredType the type the sending application declared, such as {@code SITREP}
     * @throws KmtfRejection with the kind of the first failed check
     */
    public ValidatedMessage validate(byte[] body, String declaredType) throws KmtfRejection {
        if (body == null || body.length == 0) {
            throw new KmtfRejection(KmtfRejection.EMPTY, "the message body is empty");
        }
        MessageType type = (declaredType != null) ? this.catalogue.find(declaredType).orElse(null) : null;
        int limit = (type != null) ? type.maxSize() : MAX_SIZE_UNKNOWN_TYPE;
        if (body.length > limit) {
            throw new KmtfRejection(KmtfRejection.OVERSIZE, "the message body has " + body.length
                    + " bytes, more than the " + limit + " allowed for "
                    + ((type != null) ? "type " + type.id() : "a type not in the catalogue"));
        }
        String text = decode(body);
        if (type == null) {
            throw new KmtfRejection(KmtfRejection.UNKNOWN_TYPE, (declaredType == null) ? "no message type was declared"
                    : "declared type '" + declaredType + "' is not in the catalogue of " + this.catalogue.size()
                            + " types");
        }
        KmtfMessage message;
        try {
            message = this.parser.parse(text);
        }
        catch (KmtfParseException ex) {
            throw new KmtfRejection(ex);
        }
        if (!message.messageType().equals(declaredType)) {
            throw new KmtfRejection(KmtfRejection.TYPE_MISMATCH, "declared type '" + declaredType
                    + "' but the MSGID names '" + message.messageType() + "'");
        }
        return new ValidatedMessage(type, message);
    }

    private static String decode(byte[] body) throws KmtfRejection {
        // The JDK's fast path; it turns each malformed sequence into U+FFFD, so a text without one was valid UTF-8.
        String text = new String(body, StandardCharsets.UTF_8);
        if (text.indexOf('\uFFFD') >= 0) {
            checkStrictly(body);
        }
        return text.startsWith("\uFEFF") ? text.substring(1) : text;
    }

    /** Malformed UTF-8 or a U+FFFD written as such: the strict decoder tells, and gives the rejection its text. */
    private static void checkStrictly(byte[] body) throws KmtfRejection {
        try {
            StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT)
                .decode(ByteBuffer.wrap(body));
        }
        catch (CharacterCodingException ex) {
            throw new KmtfRejection(KmtfRejection.INVALID_ENCODING,
                    "the message body is not valid UTF-8: " + ex.getMessage());
        }
    }
}
