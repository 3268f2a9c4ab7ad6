package kr.c4i.gateway.kmtf.text;

import java.time.DateTimeException;
import java.time.LocalDate;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;

/**
 * {@code TextRules} as it was before the hand-written scanning, verbatim: the reference of OriginalBehaviourTest.
 *
 * <p>The lexical rules of KMTF text, shared by the parser (which turns a broken rule into a positioned exception) and
 * the model's constructors (which turn it into IllegalArgumentException), so that whatever the model can hold, the
 * parser accepts. Each check returns why a value is wrong, or {@code null}.
 */
final class OriginalTextRules {

    static final String MSGID = "MSGID";

    static final String DTG_SET = "DTG";

    static final String GENTEXT = "GENTEXT";

    /** Sets whose text runs to the terminating {@code //} and may therefore contain {@code /}. */
    static final Set<String> FREE_TEXT_SETS = Set.of("AMPN", "NARR", "RMKS", GENTEXT);

    /** The labels of {@link Classification}, lowest first. */
    static final List<String> CLASSIFICATION_LEVELS = List.of("UNCLASSIFIED", "RESTRICTED", "CONFIDENTIAL",
            "SECRET", "TOP SECRET");

    static final Pattern KEYWORD = Pattern.compile("([A-Z][A-Z0-9]*):(.*)", Pattern.DOTALL);

    private static final Pattern SET_NAME = Pattern.compile("[A-Z0-9]{1,20}");

    private static final Pattern MESSAGE_TYPE = Pattern.compile("[A-Z0-9]{1,20}");

    private static final Pattern CAVEAT = Pattern.compile("[A-Z0-9]+(?:[ ,.\\-]+[A-Z0-9]+)*");

    private static final Pattern DTG_SHAPE = Pattern.compile("[0-9A-Z]{6}Z[A-Z]{3}[0-9]{4}");

    private static final Pattern DTG = Pattern.compile("([0-9]{2})([0-9]{2})([0-9]{2})Z([A-Z]{3})([0-9]{4})");

    private static final List<String> MONTHS = List.of("JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP",
            "OCT", "NOV", "DEC");

    private OriginalTextRules() {
    }

    static boolean isFreeText(String setName) {
        return FREE_TEXT_SETS.contains(setName);
    }

    static @Nullable String setNameProblem(String name) {
        if (name.isEmpty()) {
            return "the set name is empty";
        }
        if (!SET_NAME.matcher(name).matches() || name.chars().allMatch(Character::isDigit)) {
            return "'" + name + "' is not a set name: 1 to 20 upper-case letters and digits, at least one letter";
        }
        return null;
    }

    static @Nullable String messageTypeProblem(String type) {
        return MESSAGE_TYPE.matcher(type).matches() ? null
                : "'" + type + "' is not a message type identifier: 1 to 20 upper-case letters and digits";
    }

    /** For fields of ordinary sets, and for the heading of GENTEXT. */
    static @Nullable String fieldProblem(String raw) {
        if (raw.isEmpty()) {
            return "the field is empty; write '-' for no data";
        }
        if (!raw.equals(raw.strip())) {
            return "'" + raw + "' has leading or trailing white space";
        }
        if (raw.indexOf('/') >= 0) {
            return "'" + raw + "' contains '/', which separates fields";
        }
        if (raw.indexOf('\n') >= 0) {
            return "'" + raw + "' contains a line break; a field must not be split across lines";
        }
        if (hasControl(raw, false)) {
            return "'" + raw + "' contains a control character";
        }
        Matcher keyword = KEYWORD.matcher(raw);
        if (keyword.matches() && keyword.group(2).isBlank()) {
            return "keyword " + keyword.group(1) + " has no value; write " + keyword.group(1) + ":- for no data";
        }
        return null;
    }

    /** For the text of AMPN, NARR, RMKS and the second field of GENTEXT. */
    static @Nullable String freeTextProblem(String text) {
        if (text.isBlank()) {
            return "the free text is empty; write '-' for no data";
        }
        if (!text.equals(text.strip())) {
            return "free text has leading or trailing white space";
        }
        if (text.contains("//")) {
            return "free text contains '//', which ends the set";
        }
        if (text.startsWith("/") || text.endsWith("/")) {
            return "free text must not start or end with '/'";
        }
        if (hasControl(text, true)) {
            return "free text contains a control character";
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
        String rest = line.substring(level.length());
        if (rest.isEmpty()) {
            return null;
        }
        if (!rest.startsWith("//")) {
            return "'" + line + "': caveats follow the level after '//'";
        }
        for (String caveat : rest.substring(2).split("//", -1)) {
            if (!CAVEAT.matcher(caveat).matches()) {
                return "'" + line + "': caveat '" + caveat
                        + "' must be upper-case letters and digits, separated by spaces, commas, dots or '-'";
            }
        }
        return null;
    }

    /** The level a line starts with, as a whole word, or {@code null}. */
    static String classificationLevel(String line) {
        String found = null;
        for (String level : CLASSIFICATION_LEVELS) {
            if (line.startsWith(level) && (line.length() == level.length() || line.startsWith("//", level.length()))) {
                found = level;
            }
        }
        return found;
    }

    /** Whether a field should be checked as a date-time group even though it is not in a DTG set. */
    static boolean looksLikeDtg(String value) {
        return DTG_SHAPE.matcher(value).matches();
    }

    /** Checks {@code DDHHMMZMONYYYY}. */
    static @Nullable String dtgProblem(String value) {
        String prefix = "'" + value + "' is not a date-time group DDHHMMZMONYYYY";
        Matcher dtg = DTG.matcher(value);
        if (!dtg.matches()) {
            return prefix;
        }
        int day = Integer.parseInt(dtg.group(1));
        int hour = Integer.parseInt(dtg.group(2));
        int minute = Integer.parseInt(dtg.group(3));
        int month = MONTHS.indexOf(dtg.group(4)) + 1;
        int year = Integer.parseInt(dtg.group(5));
        if (month == 0) {
            return prefix + ": month '" + dtg.group(4) + "' is not one of JAN..DEC";
        }
        if (hour > 23) {
            return prefix + ": hour " + dtg.group(2) + " is not 00..23";
        }
        if (minute > 59) {
            return prefix + ": minute " + dtg.group(3) + " is not 00..59";
        }
        try {
            LocalDate.of(year, month, day);
        }
        catch (DateTimeException ex) {
            return prefix + ": day " + dtg.group(1) + " does not exist in " + dtg.group(4) + " " + dtg.group(5);
        }
        return null;
    }

    private static boolean hasControl(String text, boolean lineBreaksAllowed) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (Character.isISOControl(c) && c != '\t' && !(lineBreaksAllowed && c == '\n')) {
                return true;
            }
        }
        return false;
    }
}
