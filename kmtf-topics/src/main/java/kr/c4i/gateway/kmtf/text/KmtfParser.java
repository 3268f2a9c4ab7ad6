package kr.c4i.gateway.kmtf.text;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * Parses KMTF text in the USMTF/APP-11 style.
 *
 * <ul>
 * <li>The first non-blank line is a classification line when it starts with a level (UNCLASSIFIED, RESTRICTED,
 * CONFIDENTIAL, SECRET, TOP SECRET) as a whole word, optionally followed by {@code //}-separated caveats; a first line
 * without any {@code /} is taken as a failed attempt at one. A set named like a level cannot be the first line.</li>
 * <li>Then sets, MSGID first: {@code NAME/field/field//}. A set may continue over several lines, breaking only after a
 * {@code /}; white space around fields and blank lines between sets are ignored.</li>
 * <li>{@code -} means no data; {@code KEY:value} is a keyword field.</li>
 * <li>AMPN, NARR and RMKS hold one free text, GENTEXT a heading and a free text; free text may contain {@code /} and
 * line breaks and runs to the first {@code //}.</li>
 * <li>Date-time groups {@code DDHHMMZMONYYYY} are checked in DTG sets, in {@code DTG:} keyword fields and in any
 * field shaped like one.</li>
 * </ul>
 *
 * Thread-safe; holds no state.
 */
public final class KmtfParser {

    /**
     * @throws KmtfParseException naming the line, set and field of the first problem
     */
    public KmtfMessage parse(String text) throws KmtfParseException {
        return new Run(text.replace("\r\n", "\n").replace('\r', '\n')).message();
    }

    /** The state of one parse: the text and a cursor into it. */
    private static final class Run {

        private final String text;
        private final int[] lineStarts;
        private int pos;

        Run(String text) {
            this.text = text;
            this.lineStarts = lineStarts(text);
        }

        KmtfMessage message() throws KmtfParseException {
            checkCharacters();
            Optional<String> classification = classification();
            List<KmtfSet> sets = new ArrayList<>();
            int firstSetLine = line(skipWhitespace());
            while (skipWhitespace() < this.text.length()) {
                sets.add(set());
            }
            checkMsgid(sets, firstSetLine);
            return new KmtfMessage(classification, sets);
        }

        private void checkCharacters() throws KmtfParseException {
            for (int i = 0; i < this.text.length(); i++) {
                char c = this.text.charAt(i);
                if (Character.isISOControl(c) && c != '\n' && c != '\t') {
                    throw new KmtfParseException.InvalidCharacter(line(i),
                            String.format("control character U+%04X is not allowed", (int) c));
                }
            }
        }

        private Optional<String> classification() throws KmtfParseException {
            int start = skipWhitespace();
            if (start >= this.text.length()) {
                return Optional.empty();
            }
            int end = lineEnd(start);
            String line = this.text.substring(start, end).strip();
            if (TextRules.classificationLevel(line) == null && line.indexOf('/') >= 0) {
                return Optional.empty();
            }
            String problem = TextRules.classificationProblem(line);
            if (problem != null) {
                throw new KmtfParseException.InvalidClassification(line(start), problem);
            }
            this.pos = end;
            return Optional.of(line);
        }

        private KmtfSet set() throws KmtfParseException {
            int start = this.pos;
            int setLine = line(start);
            int slash = this.text.indexOf('/', start);
            if (slash < 0) {
                String name = firstLine(this.text.substring(start).strip());
                throw new KmtfParseException.UnterminatedSet(setLine, name,
                        "the text ends inside set '" + name + "'; every set ends with '//'");
            }
            String name = this.text.substring(start, slash).strip();
            if (name.isEmpty()) {
                throw new KmtfParseException.EmptySetName(setLine,
                        "a set starts with '/'; is there a stray '/' after the previous '//'?");
            }
            if (name.indexOf('\n') >= 0) {
                throw new KmtfParseException.InvalidSetName(setLine, firstLine(name), "'" + firstLine(name)
                        + "' is followed by a line break; a set name must be followed directly by '/'");
            }
            String problem = TextRules.setNameProblem(name);
            if (problem != null) {
                throw new KmtfParseException.InvalidSetName(setLine, name, problem);
            }
            this.pos = slash + 1;
            List<KmtfField> fields = TextRules.isFreeText(name) ? freeTextFields(name, setLine)
                    : fields(name, setLine);
            return new KmtfSet(name, fields, setLine);
        }

        private List<KmtfField> fields(String name, int setLine) throws KmtfParseException {
            List<KmtfField> fields = new ArrayList<>();
            if (this.pos < this.text.length() && this.text.charAt(this.pos) == '/') {
                this.pos++;
                return fields;
            }
            while (true) {
                int separator = this.text.indexOf('/', this.pos);
                if (separator < 0) {
                    throw new KmtfParseException.UnterminatedSet(setLine, name,
                            "the text ends inside set " + name + "; every set ends with '//'");
                }
                int index = fields.size() + 1;
                int fieldStart = skipWhitespace(this.pos, separator);
                String raw = this.text.substring(this.pos, separator).strip();
                int lineBreak = raw.indexOf('\n');
                if (lineBreak >= 0) {
                    int breakLine = line(fieldStart + lineBreak);
                    throw new KmtfParseException.UnterminatedSet(breakLine, name, "set " + name + " (line " + setLine
                            + ") is not terminated: field " + index + " runs over a line break; is '//' missing at "
                            + "the end of line " + breakLine + "?");
                }
                field(name, index, raw, line(raw.isEmpty() ? this.pos : fieldStart));
                fields.add(new KmtfField(raw));
                this.pos = separator + 1;
                if (this.pos < this.text.length() && this.text.charAt(this.pos) == '/') {
                    this.pos++;
                    return fields;
                }
            }
        }

        private void field(String setName, int index, String raw, int line) throws KmtfParseException {
            String problem = TextRules.fieldProblem(raw);
            if (problem != null) {
                throw new KmtfParseException.InvalidField(line, setName, index, problem);
            }
            int colon = TextRules.keywordColon(raw);
            String value = (colon >= 0) ? raw.substring(colon + 1) : raw;
            boolean dtgExpected = TextRules.DTG_SET.equals(setName) || (colon == 3 && raw.startsWith("DTG"));
            if ((dtgExpected && !"-".equals(value)) || TextRules.looksLikeDtg(value, 0)) {
                problem = TextRules.dtgProblem(value);
                if (problem != null) {
                    throw new KmtfParseException.InvalidDateTimeGroup(line, setName, index, problem);
                }
            }
        }

        private List<KmtfField> freeTextFields(String name, int setLine) throws KmtfParseException {
            int contentStart = this.pos;
            if (this.text.startsWith("/", contentStart)) {
                throw new KmtfParseException.InvalidField(setLine, name, 1,
                        "set " + name + " has no text; write '-' for no data");
            }
            int end = this.text.indexOf("//", contentStart);
            if (end < 0) {
                throw new KmtfParseException.UnterminatedSet(setLine, name,
                        "the text ends inside free-text set " + name + "; free text runs to '//'");
            }
            this.pos = end + 2;
            List<KmtfField> fields = new ArrayList<>();
            int textStart = contentStart;
            if (TextRules.GENTEXT.equals(name)) {
                int headingEnd = this.text.indexOf('/', contentStart);
                String heading = this.text.substring(contentStart, headingEnd).strip();
                if (headingEnd == end) {
                    throw new KmtfParseException.InvalidField(line(end), name, 2,
                            "GENTEXT needs a heading field and a text field: GENTEXT/heading/text//");
                }
                field(name, 1, heading, line(skipWhitespace(contentStart, headingEnd)));
                fields.add(new KmtfField(heading));
                textStart = headingEnd + 1;
            }
            int index = fields.size() + 1;
            String freeText = this.text.substring(textStart, end).strip();
            String problem = TextRules.freeTextProblem(freeText);
            if (problem != null) {
                throw new KmtfParseException.InvalidField(line(skipWhitespace(textStart, end)), name, index, problem);
            }
            fields.add(new KmtfField(freeText));
            return fields;
        }

        private void checkMsgid(List<KmtfSet> sets, int firstSetLine) throws KmtfParseException {
            List<KmtfSet> msgids = sets.stream().filter((set) -> TextRules.MSGID.equals(set.name())).toList();
            if (msgids.isEmpty()) {
                String first = sets.isEmpty() ? null : sets.getFirst().name();
                throw new KmtfParseException.MissingMsgid(firstSetLine, first,
                        sets.isEmpty() ? "the message has no sets; it must start with MSGID"
                                : "there is no MSGID set; a message starts with MSGID/<message type>/...//");
            }
            if (sets.getFirst() != msgids.getFirst()) {
                throw new KmtfParseException.MsgidNotFirst(msgids.getFirst().line(), "MSGID must be the first set, but "
                        + sets.getFirst().name() + " (line " + sets.getFirst().line() + ") comes before it");
            }
            if (msgids.size() > 1) {
                throw new KmtfParseException.DuplicateMsgid(msgids.get(1).line(),
                        "MSGID appears again; it was first on line " + msgids.getFirst().line());
            }
            KmtfSet msgid = msgids.getFirst();
            Optional<KmtfField> type = msgid.field(1);
            String problem = type.isPresent() ? TextRules.messageTypeProblem(type.get().raw())
                    : "MSGID must name the message type in its first field";
            if (problem != null) {
                throw new KmtfParseException.InvalidField(msgid.line(), TextRules.MSGID, 1, problem);
            }
        }

        private int skipWhitespace() {
            this.pos = skipWhitespace(this.pos, this.text.length());
            return this.pos;
        }

        private int skipWhitespace(int from, int to) {
            int i = from;
            while (i < to && Character.isWhitespace(this.text.charAt(i))) {
                i++;
            }
            return i;
        }

        private int lineEnd(int from) {
            int end = this.text.indexOf('\n', from);
            return (end < 0) ? this.text.length() : end;
        }

        private int line(int offset) {
            int found = Arrays.binarySearch(this.lineStarts, offset);
            return (found >= 0) ? found + 1 : -found - 1;
        }

        private static String firstLine(String text) {
            int end = text.indexOf('\n');
            return (end < 0) ? text : text.substring(0, end).strip();
        }

        private static int[] lineStarts(String text) {
            List<Integer> starts = new ArrayList<>();
            starts.add(0);
            for (int i = 0; i < text.length(); i++) {
                if (text.charAt(i) == '\n') {
                    starts.add(i + 1);
                }
            }
            return starts.stream().mapToInt(Integer::intValue).toArray();
        }
    }
}
