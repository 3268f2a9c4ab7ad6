package kr.c4i.gateway.kmtf.text;

import java.time.Month;
import java.time.Year;
import java.util.List;
import java.util.Set;

import org.jspecify.annotations.Nullable;

/**
 * The lexical rules of KMTF text, shared by the parser (which turns a broken rule into a positioned exception) and
 * the model's constructors (which turn it into IllegalArgumentException), so that whatever the model can hold, the
 * parser accepts. Each check returns why a value is wrong, or {@code null}.
 *
 * <p>Every message a bridge sends or receives passes these checks, in the parser and again in the model's
 * constructors, so they scan characters by hand instead of with regular expressions, and build a String only to
 * explain a problem.
 */
final class TextRules {

    static final String MSGID = "MSGID";

    static final String DTG_SET = "DTG";

    static final String GENTEXT = "GENTEXT";

    /** Sets whose text runs to the terminating {@code //} and may therefore contain {@code /}. */
    static final Set<String> FREE_TEXT_SETS = Set.of("AMPN", "NARR", "RMKS", GENTEXT);

    /** The labels of {@link Classification}, lowest first. */
    static final List<String> CLASSIFICATION_LEVELS = List.of("UNCLASSIFIED", "RESTRICTED", "CONFIDENTIAL",
            "SECRET", "TOP SECRET");

    /** Longest set name and message type identifier. */
    private static final int MAX_IDENTIFIER = 20;

    /** {@code DDHHMMZMONYYYY}. */
    private static final int DTG_LENGTH = 14;

    private static final String MONTHS = "JANFEBMARAPRMAYJUNJULAUGSEPOCTNOVDEC";

    private TextRules() {
    }

    static boolean isFreeText(String setName) {
        return FREE_TEXT_SETS.contains(setName);
    }

    static @Nullable String setNameProblem(String name) {
        if (name.isEmpty()) {
            return "the set name is empty";
        }
        if (identifierLetters(name) < 1) {
            return "'" + name + "' is not a set name: 1 to 20 upper-case letters and digits, at least one letter";
        }
        return null;
    }

    static @Nullable String messageTypeProblem(String type) {
        return (identifierLetters(type) >= 0) ? null
                : "'" + type + "' is not a message type identifier: 1 to 20 upper-case letters and digits";
    }

    /** For fields of ordinary sets, and for the heading of GENTEXT. */
    static @Nullable String fieldProblem(String raw) {
        if (raw.isEmpty()) {
            return "the field is empty; write '-' for no data";
        }
        if (Character.isWhitespace(raw.charAt(0)) || Character.isWhitespace(raw.charAt(raw.length() - 1))) {
            return "'" + raw + "' has leading or trailing white space";
        }
        // One pass for three rules; the first rule broken, in this order, is the one reported.
        boolean lineBreak = false;
        boolean control = false;
        for (int i = 0; i < raw.length(); i++) {
            char c = raw.charAt(i);
            if (c == '/') {
                return "'" + raw + "' contains '/', which separates fields";
            }
            lineBreak |= c == '\n';
            control |= Character.isISOControl(c) && c != '\t';
        }
        if (lineBreak) {
            return "'" + raw + "' contains a line break; a field must not be split across lines";
        }
        if (control) {
            return "'" + raw + "' contains a control character";
        }
        int colon = keywordColon(raw);
        if (colon >= 0 && isBlank(raw, colon + 1, raw.length())) {
            String key = raw.substring(0, colon);
            return "keyword " + key + " has no value; write " + key + ":- for no data";
        }
        return null;
    }

    /** For the text of AMPN, NARR, RMKS and the second field of GENTEXT. */
    static @Nullable String freeTextProblem(String text) {
        String problem = freeTextShapeProblem(text);
        if (problem == null && firstControl(text) >= 0) {
            return "free text contains a control character";
        }
        return problem;
    }

    /** {@link #freeTextProblem} without looking for control characters, for text known to have none. */
    static @Nullable String freeTextShapeProblem(String text) {
        int length = text.length();
        if (isBlank(text, 0, length)) {
            return "the free text is empty; write '-' for no data";
        }
        if (Character.isWhitespace(text.charAt(0)) || Character.isWhitespace(text.charAt(length - 1))) {
            return "free text has leading or trailing white space";
        }
        if (text.contains("//")) {
            return "free text contains '//', which ends the set";
        }
        if (text.charAt(0) == '/' || text.charAt(length - 1) == '/') {
            return "free text must not start or end with '/'";
        }
        return null;
    }

    /**
     * The classification line is a level in upper case, optionally followed by caveats each introduced by
     * {@code //}, such as {@code SECRET//REL TO USA, KOR}.
     */
    static @Nullable String classificationProblem(String line) {
        String level = classificationLevel(line);
        if (level == null) {
            return "'" + line + "' is not a classification; it must start with one of "
                    + String.join(", ", CLASSIFICATION_LEVELS);
        }
        if (line.length() == level.length()) {
            return null;
        }
        // The level is followed by "//" (classificationLevel), then caveats separated by "//".
        int from = level.length() + 2;
        while (true) {
            int next = line.indexOf("//", from);
            int end = (next < 0) ? line.length() : next;
            if (!isCaveat(line, from, end)) {
                return "'" + line + "': caveat '" + line.substring(from, end)
                        + "' must be upper-case letters and digits, separated by spaces, commas, dots or '-'";
            }
            if (next < 0) {
                return null;
            }
            from = next + 2;
        }
    }

    /** The level a line starts with, as a whole word, or {@code null}. */
    static @Nullable String classificationLevel(String line) {
        for (String level : CLASSIFICATION_LEVELS) {
            if (line.startsWith(level) && (line.length() == level.length() || line.startsWith("//", level.length()))) {
                // No level is a prefix of another, so at most one matches.
                return level;
            }
        }
        return null;
    }

    /**
     * The position of the {@code :} that ends the keyword of a {@code KEY:value} field (an upper-case letter, then
     * upper-case letters and digits), or -1 when the field is not a keyword field.
     */
    static int keywordColon(String raw) {
        if (raw.isEmpty() || !isUpper(raw.charAt(0))) {
            return -1;
        }
        int i = 1;
        while (i < raw.length() && isUpperOrDigit(raw.charAt(i))) {
            i++;
        }
        return (i < raw.length() && raw.charAt(i) == ':') ? i : -1;
    }

    /**
     * Whether a field's value, from {@code from} to the end, should be checked as a date-time group even though it is
     * not in a DTG set: shaped like one, with upper-case letters or digits in place of the day, hour and minute.
     */
    static boolean looksLikeDtg(String text, int from) {
        if (text.length() - from != DTG_LENGTH) {
            return false;
        }
        for (int i = from; i < from + 6; i++) {
            if (!isUpperOrDigit(text.charAt(i))) {
                return false;
            }
        }
        return isDtgTail(text, from);
    }

    /** Checks {@code DDHHMMZMONYYYY}. */
    static @Nullable String dtgProblem(String value) {
        if (!isDtg(value)) {
            return dtgPrefix(value);
        }
        int day = number(value, 0, 2);
        int hour = number(value, 2, 4);
        int minute = number(value, 4, 6);
        int month = month(value, 7);
        int year = number(value, 10, 14);
        if (month == 0) {
            return dtgPrefix(value) + ": month '" + value.substring(7, 10) + "' is not one of JAN..DEC";
        }
        if (hour > 23) {
            return dtgPrefix(value) + ": hour " + value.substring(2, 4) + " is not 00..23";
        }
        if (minute > 59) {
            return dtgPrefix(value) + ": minute " + value.substring(4, 6) + " is not 00..59";
        }
        // What LocalDate.of accepts, without its exception.
        if (day < 1 || day > Month.of(month).length(Year.isLeap(year))) {
            return dtgPrefix(value) + ": day " + value.substring(0, 2) + " does not exist in "
                    + value.substring(7, 10) + " " + value.substring(10, 14);
        }
        return null;
    }

    private static String dtgPrefix(String value) {
        return "'" + value + "' is not a date-time group DDHHMMZMONYYYY";
    }

    /** Digits for day, hour and minute, then the tail of {@link #isDtgTail}. */
    private static boolean isDtg(String value) {
        if (value.length() != DTG_LENGTH) {
            return false;
        }
        for (int i = 0; i < 6; i++) {
            if (!isDigit(value.charAt(i))) {
                return false;
            }
        }
        return isDtgTail(value, 0);
    }

    /** {@code Z}, three upper-case letters and four digits after the six characters from {@code from}. */
    private static boolean isDtgTail(String text, int from) {
        if (text.charAt(from + 6) != 'Z') {
            return false;
        }
        for (int i = from + 7; i < from + 10; i++) {
            if (!isUpper(text.charAt(i))) {
                return false;
            }
        }
        for (int i = from + 10; i < from + DTG_LENGTH; i++) {
            if (!isDigit(text.charAt(i))) {
                return false;
            }
        }
        return true;
    }

    /** The number the ASCII digits from {@code from} to {@code to} write. */
    private static int number(String digits, int from, int to) {
        int value = 0;
        for (int i = from; i < to; i++) {
            value = value * 10 + (digits.charAt(i) - '0');
        }
        return value;
    }

    /** 1 for the JAN at {@code at}, ..., 12 for DEC, 0 for anything else. */
    private static int month(String text, int at) {
        for (int month = 1; month <= 12; month++) {
            if (text.regionMatches(at, MONTHS, 3 * (month - 1), 3)) {
                return month;
            }
        }
        return 0;
    }

    /** Upper-case letters and digits, then runs of them separated by runs of spaces, commas, dots and {@code -}. */
    private static boolean isCaveat(String line, int from, int to) {
        if (from == to || !isUpperOrDigit(line.charAt(from)) || !isUpperOrDigit(line.charAt(to - 1))) {
            return false;
        }
        for (int i = from + 1; i < to - 1; i++) {
            char c = line.charAt(i);
            if (!isUpperOrDigit(c) && c != ' ' && c != ',' && c != '.' && c != '-') {
                return false;
            }
        }
        return true;
    }

    /**
     * How many letters an identifier has when it is 1 to {@value #MAX_IDENTIFIER} upper-case letters and digits,
     * as set names and message types are; -1 when it is not one.
     */
    private static int identifierLetters(String text) {
        if (text.isEmpty() || text.length() > MAX_IDENTIFIER) {
            return -1;
        }
        int letters = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (isUpper(c)) {
                letters++;
            }
            else if (!isDigit(c)) {
                return -1;
            }
        }
        return letters;
    }

    private static boolean isBlank(String text, int from, int to) {
        for (int i = from; i < to; i++) {
            if (!Character.isWhitespace(text.charAt(i))) {
                return false;
            }
        }
        return true;
    }

    /** Where the text's first control character other than tab and line break is, or -1. */
    static int firstControl(String text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (Character.isISOControl(c) && c != '\t' && c != '\n') {
                return i;
            }
        }
        return -1;
    }

    private static boolean isUpper(char c) {
        return c >= 'A' && c <= 'Z';
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    private static boolean isUpperOrDigit(char c) {
        return isUpper(c) || isDigit(c);
    }
}
