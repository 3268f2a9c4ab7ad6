package kr.c4i.gateway.kmtf.text;

import java.util.Objects;
import java.util.Optional;

/**
 * One field of a set, kept exactly as written (without surrounding white space), because field meaning depends on
 * the set and position and is the reader's business. Only the two conventions every set shares are interpreted:
 * {@code -} for no data and {@code KEY:value} keyword fields.
 *
 * @param raw the field text as written; the free text of AMPN, NARR, RMKS and GENTEXT may contain {@code /} and line
 *            breaks
 */
public record KmtfField(String raw) {

    /** The conventional "no data" field. */
    public static final KmtfField NO_DATA = new KmtfField("-");

    public KmtfField {
        Objects.requireNonNull(raw, "raw");
    }

    /** A field with this text, or {@link #NO_DATA} when the text is {@code null} or empty. */
    public static KmtfField of(String raw) {
        return (raw == null || raw.isEmpty()) ? NO_DATA : new KmtfField(raw);
    }

    /** A keyword field {@code KEY:value}. */
    public static KmtfField keyword(String key, String value) {
        KmtfField field = new KmtfField(key + ":" + value);
        if (field.keyword().isEmpty()) {
            throw new IllegalArgumentException("'" + key + "' is not a keyword: an upper-case letter, then upper-case "
                    + "letters and digits");
        }
        return field;
    }

    /** Whether this is the {@code -} "no data" field. */
    public boolean noData() {
        return "-".equals(this.raw);
    }

    /**
     * The keyword of a {@code KEY:value} field. Only meaningful outside free-text sets, whose text may happen to look
     * like a keyword.
     */
    public Optional<String> keyword() {
        int colon = TextRules.keywordColon(this.raw);
        return (colon >= 0) ? Optional.of(this.raw.substring(0, colon)) : Optional.empty();
    }

    /** The value of a keyword field, or the whole text of any other field. */
    public String value() {
        int colon = TextRules.keywordColon(this.raw);
        return (colon >= 0) ? this.raw.substring(colon + 1) : this.raw;
    }

    @Override
    public String toString() {
        return this.raw;
    }
}
