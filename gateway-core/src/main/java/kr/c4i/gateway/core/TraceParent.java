package kr.c4i.gateway.core;

import java.util.HexFormat;
import java.util.function.Consumer;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;

/**
 * The W3C Trace Context {@code traceparent} of a message's creation: the span of whoever wrote it into the outbox (or
 * of the send that started its trace), carried with the message so that every hop's spans link to it. Only version
 * {@code 00} is read, as a receiver of that version must: 55 characters, lower-case hex, neither id all zeros.
 *
 * @param value the header's text, e.g. {@code 00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01}
 */
public record TraceParent(String value) {

    /** Length of a version-00 {@code traceparent}. */
    public static final int LENGTH = 55;

    /** Bytes of its binary form ({@link #toBytes}): trace id, parent id, flags. */
    public static final int BINARY_LENGTH = 16 + 8 + 1;

    private static final Pattern FORMAT = Pattern.compile("00-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}");
    private static final String ZERO_TRACE_ID = "0".repeat(32);
    private static final String ZERO_PARENT_ID = "0".repeat(16);
    private static final HexFormat HEX = HexFormat.of();

    public TraceParent {
        if (value == null || !FORMAT.matcher(value).matches()) {
            throw new IllegalArgumentException("Not a W3C traceparent of version 00 (00-<32 hex>-<16 hex>-<2 hex>, "
                    + "lower case): " + quoted(value));
        }
        if (value.substring(3, 35).equals(ZERO_TRACE_ID) || value.substring(36, 52).equals(ZERO_PARENT_ID)) {
            throw new IllegalArgumentException("A traceparent's trace id and parent id must not be all zeros: "
                    + value);
        }
    }

    /** The traceparent of these ids and flags. */
    public static TraceParent of(String traceId, String parentId, int flags) {
        return new TraceParent("00-" + traceId + "-" + parentId + "-" + HEX.toHexDigits((byte) flags));
    }

    /** The 32 hex digits of the trace id. */
    public String traceId() {
        return value.substring(3, 35);
    }

    /** The 16 hex digits of the parent span's id. */
    public String parentId() {
        return value.substring(36, 52);
    }

    /** The trace flags (bit 0: sampled). */
    public int flags() {
        return HEX.fromHexDigits(value, 53, 55);
    }

    public boolean sampled() {
        return (flags() & 1) != 0;
    }

    /** The binary form, {@value #BINARY_LENGTH} bytes: the trace id, the parent id, the flags. */
    public byte[] toBytes() {
        byte[] bytes = new byte[BINARY_LENGTH];
        System.arraycopy(HEX.parseHex(value, 3, 35), 0, bytes, 0, 16);
        System.arraycopy(HEX.parseHex(value, 36, 52), 0, bytes, 16, 8);
        bytes[24] = (byte) flags();
        return bytes;
    }

    /**
     * The traceparent of a binary form written by {@link #toBytes}.
     *
     * @throws IllegalArgumentException when it is not {@value #BINARY_LENGTH} bytes or an id is all zeros
     */
    public static TraceParent fromBytes(byte[] bytes) {
        if (bytes.length != BINARY_LENGTH) {
            throw new IllegalArgumentException("A binary traceparent has " + BINARY_LENGTH + " bytes, not "
                    + bytes.length);
        }
        return of(HEX.formatHex(bytes, 0, 16), HEX.formatHex(bytes, 16, 24), bytes[24] & 0xff);
    }

    /**
     * The traceparent a text names, or {@code null} for none (null or blank).
     *
     * @throws IllegalArgumentException when the text is not blank and not a version-00 traceparent
     */
    public static @Nullable TraceParent parseOrNone(@Nullable String text) {
        return text == null || text.isBlank() ? null : new TraceParent(text.strip());
    }

    /**
     * The context a message carries as text, {@code null} for none; a malformed one is read as none after telling
     * {@code malformed} why. Every reader takes it so: the context is diagnostics only, never a reason to refuse or
     * hold up a message.
     */
    public static @Nullable TraceParent carried(@Nullable String text, Consumer<String> malformed) {
        try {
            return parseOrNone(text);
        }
        catch (IllegalArgumentException ex) {
            malformed.accept(ex.getMessage());
            return null;
        }
    }

    /** The context a message carries in its binary form ({@link #toBytes}), read as its text is. */
    public static @Nullable TraceParent carried(byte[] bytes, Consumer<String> malformed) {
        try {
            return fromBytes(bytes);
        }
        catch (IllegalArgumentException ex) {
            malformed.accept(ex.getMessage());
            return null;
        }
    }

    /** The text of a traceparent, empty for none: what text fields carry. */
    public static String text(@Nullable TraceParent traceParent) {
        return traceParent == null ? "" : traceParent.value();
    }

    private static String quoted(@Nullable String value) {
        if (value == null) {
            return "null";
        }
        return "'" + (value.length() > 80 ? value.substring(0, 80) + "..." : value) + "'";
    }
}
