package kr.c4i.gateway.kmtf;

import java.util.Optional;

import kr.c4i.gateway.kmtf.text.KmtfParseException;

/**
 * A message the gateway must not forward. {@link #kind()} is a stable name that goes into the quarantine's reason
 * column, so that operators can count rejections by cause; the message explains the case for a person.
 *
 * <p>Rejections are expected traffic, not bugs, so they carry no stack trace.
 */
public final class KmtfRejection extends Exception {

    /** The body has no bytes. */
    public static final String EMPTY = "empty";

    /** The body is larger than the type's max_size, or than {@link KmtfValidator#MAX_SIZE_UNKNOWN_TYPE}. */
    public static final String OVERSIZE = "oversize";

    /** The body is not valid UTF-8. */
    public static final String INVALID_ENCODING = "invalid-encoding";

    /** The declared type is not in the catalogue. */
    public static final String UNKNOWN_TYPE = "unknown-type";

    /** The MSGID names another type than the one declared. */
    public static final String TYPE_MISMATCH = "type-mismatch";

    private final String kind;

    KmtfRejection(String kind, String message) {
        super(message, null, false, false);
        this.kind = kind;
    }

    KmtfRejection(KmtfParseException cause) {
        super("malformed KMTF text: " + cause.getMessage(), cause, false, false);
        this.kind = cause.kind();
    }

    /**
     * One of the constants of this class, or the {@link KmtfParseException#kind()} of a parse failure such as
     * {@code missing-msgid}.
     */
    public String kind() {
        return this.kind;
    }

    /** The parse failure behind this rejection, with line, set and field. */
    public Optional<KmtfParseException> parseError() {
        return Optional.ofNullable((KmtfParseException) getCause());
    }
}
