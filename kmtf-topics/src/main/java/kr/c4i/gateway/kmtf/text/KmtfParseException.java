package kr.c4i.gateway.kmtf.text;

import org.jspecify.annotations.Nullable;

/**
 * KMTF text that cannot be parsed, with where the problem is. Each kind of problem is a subclass, and
 * {@link #kind()} gives it a stable name that the gateway stores as the quarantine reason, so that operators can
 * count and filter rejected messages by cause.
 *
 * <p>Malformed input is expected traffic, not a bug, so these exceptions carry no stack trace.
 */
public sealed abstract class KmtfParseException extends Exception {

    private final int line;
    private final @Nullable String setName;
    private final int fieldIndex;
    private final String detail;

    private KmtfParseException(int line, @Nullable String setName, int fieldIndex, String detail) {
        super(position(line, setName, fieldIndex) + ": " + detail, null, false, false);
        this.line = line;
        this.setName = setName;
        this.fieldIndex = fieldIndex;
        this.detail = detail;
    }

    /** The 1-based line where the problem is. */
    public int line() {
        return this.line;
    }

    /** The set the problem is in, or {@code null} when it is not in a set. */
    public @Nullable String setName() {
        return this.setName;
    }

    /** The 1-based field (field 1 follows the set name), or -1 when the problem is not in a field. */
    public int fieldIndex() {
        return this.fieldIndex;
    }

    /** What is wrong, without the position. */
    public String detail() {
        return this.detail;
    }

    /** The stable lower-case-with-dashes name of this kind of problem, such as {@code missing-msgid}. */
    public abstract String kind();

    private static String position(int line, @Nullable String setName, int fieldIndex) {
        StringBuilder text = new StringBuilder("line ").append(line);
        if (setName != null) {
            text.append(", set ").append(setName);
        }
        if (fieldIndex >= 0) {
            text.append(", field ").append(fieldIndex);
        }
        return text.toString();
    }

    /** No MSGID set anywhere, which includes empty text. */
    public static final class MissingMsgid extends KmtfParseException {

        MissingMsgid(int line, String setName, String detail) {
            super(line, setName, -1, detail);
        }

        @Override
        public String kind() {
            return "missing-msgid";
        }
    }

    /** MSGID is present but another set comes before it. */
    public static final class MsgidNotFirst extends KmtfParseException {

        MsgidNotFirst(int line, String detail) {
            super(line, TextRules.MSGID, -1, detail);
        }

        @Override
        public String kind() {
            return "msgid-not-first";
        }
    }

    /** MSGID appears more than once, so the message type would be ambiguous. */
    public static final class DuplicateMsgid extends KmtfParseException {

        DuplicateMsgid(int line, String detail) {
            super(line, TextRules.MSGID, -1, detail);
        }

        @Override
        public String kind() {
            return "duplicate-msgid";
        }
    }

    /** A set is not closed by {@code //}: the text ends inside it, or a field runs over a line break. */
    public static final class UnterminatedSet extends KmtfParseException {

        UnterminatedSet(int line, String setName, String detail) {
            super(line, setName, -1, detail);
        }

        @Override
        public String kind() {
            return "unterminated-set";
        }
    }

    /** A set starts with {@code /}, or a stray {@code /} follows a set's {@code //}. */
    public static final class EmptySetName extends KmtfParseException {

        EmptySetName(int line, String detail) {
            super(line, null, -1, detail);
        }

        @Override
        public String kind() {
            return "empty-set-name";
        }
    }

    /** A set name that is not 1 to 20 upper-case letters and digits. */
    public static final class InvalidSetName extends KmtfParseException {

        InvalidSetName(int line, String setName, String detail) {
            super(line, setName, -1, detail);
        }

        @Override
        public String kind() {
            return "invalid-set-name";
        }
    }

    /** A field that is empty, badly spaced, a keyword without value, or missing where the set requires it. */
    public static final class InvalidField extends KmtfParseException {

        InvalidField(int line, String setName, int fieldIndex, String detail) {
            super(line, setName, fieldIndex, detail);
        }

        @Override
        public String kind() {
            return "invalid-field";
        }
    }

    /** A field in a DTG set, a {@code DTG:} keyword or a DTG-shaped field that is not a real date and time. */
    public static final class InvalidDateTimeGroup extends KmtfParseException {

        InvalidDateTimeGroup(int line, String setName, int fieldIndex, String detail) {
            super(line, setName, fieldIndex, detail);
        }

        @Override
        public String kind() {
            return "invalid-date-time-group";
        }
    }

    /** A first line that is meant as a classification but is not a valid one. */
    public static final class InvalidClassification extends KmtfParseException {

        InvalidClassification(int line, String detail) {
            super(line, null, -1, detail);
        }

        @Override
        public String kind() {
            return "invalid-classification";
        }
    }

    /** A control character other than tab and line break. */
    public static final class InvalidCharacter extends KmtfParseException {

        InvalidCharacter(int line, String detail) {
            super(line, null, -1, detail);
        }

        @Override
        public String kind() {
            return "invalid-character";
        }
    }
}
