package kr.c4i.gateway.dds;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * Strict UTF-8 for IDL strings, for bindings and for callers that validate before writing. Java's own conversions
 * replace what they cannot encode or decode with {@code ?} or U+FFFD; on the wire that would silently change
 * message ids, so both directions refuse instead.
 */
public final class IdlStrings {

    private IdlStrings() {
    }

    /**
     * The UTF-8 bytes of an IDL string.
     *
     * @param what names the value in the message, e.g. {@code Member message_id of kmtf::KmtfMessage}
     * @throws IllegalArgumentException for a NUL character (C strings end there) or an unpaired surrogate
     */
    public static byte[] encode(String value, String what) {
        int invalid = firstInvalid(value);
        if (invalid >= 0) {
            if (value.charAt(invalid) == 0) {
                throw new IllegalArgumentException(what + " contains a NUL character at index " + invalid
                        + "; IDL strings cannot carry it");
            }
            throw new IllegalArgumentException(what + " contains an unpaired surrogate at index " + invalid
                    + "; it is not valid Unicode and cannot be encoded as UTF-8");
        }
        return value.getBytes(StandardCharsets.UTF_8);
    }

    /**
     * The index of the first character an IDL string cannot carry (a NUL, or an unpaired surrogate), or -1: a check
     * for callers that validate before writing, without encoding or building a message.
     */
    public static int firstInvalid(String value) {
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c == 0) {
                return i;
            }
            if (Character.isSurrogate(c)) {
                if (Character.isHighSurrogate(c) && i + 1 < value.length()
                        && Character.isLowSurrogate(value.charAt(i + 1))) {
                    i++;
                    continue;
                }
                return i;
            }
        }
        return -1;
    }

    /**
     * The string of received IDL string bytes (without the terminating NUL).
     *
     * @throws IllegalArgumentException if the bytes are not well-formed UTF-8
     */
    public static String decode(byte[] bytes, String what) {
        boolean ascii = true;
        for (byte b : bytes) {
            if (b < 0) {
                ascii = false;
                break;
            }
        }
        if (ascii) {
            return new String(bytes, StandardCharsets.US_ASCII);
        }
        try {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes)).toString();
        }
        catch (CharacterCodingException ex) {
            throw new IllegalArgumentException(what + " is not valid UTF-8 (" + bytes.length + " bytes): "
                    + ex.getMessage(), ex);
        }
    }
}
