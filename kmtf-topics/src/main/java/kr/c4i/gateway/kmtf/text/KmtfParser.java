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
        // One scan instead of two for the usual text, which has no carriage return.
        String lines = (text.indexOf('\r') < 0) ? text : text.replace("\r\n", "\n").replace('\r', '\n');
        return new Run(lines).message();
    }

    /**
     * The state of one parse: the text and a cursor into it. It takes from the text only the Strings the model keeps,
     * and counts lines only as far as a set's start or a problem needs.
     */
    private static final class Run {

        private final String text;
        private int pos;
        /** The fields of the set being read, reused from set to set. */
        private KmtfField[] fields = new KmtfField[8];
        private int fieldCount;
        /** How far {@link #line} has counted, and the line there. */
        private int countedTo;
        private int countedLine = 1;

        Run(String text) {
            this.text = text;
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
            int control = TextRules.firstControl(this.text);
            if (control >= 0) {
                throw new KmtfParseException.InvalidCharacter(line(control),
                        String.format("control character U+%04X is not allowed", (int) this.text.charAt(control)));
            }
        }

        private Optional<String> classification() throws KmtfParseException {
            int start = skipWhitespace();
            if (start >= this.text.length()) {
                return Optional.empty();
            }
            int end = lineEnd(start);
            String line = this.text.substring(start, stripEnd(start, end));
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

        /** A set from {@link #pos}, which is at its first character. */
        private KmtfSet set() throws KmtfParseException {
            int start = this.pos;
            int setLine = line(start);
            int slash = this.text.indexOf('/', start);
            if (slash < 0) {
                String name = firstLine(this.text.substring(start).strip());
                throw new KmtfParseException.UnterminatedSet(setLine, name,
                        "the text ends inside set '" + name + "'; every set ends with '//'");
            }
            if (slash == start) {
                throw new KmtfParseException.EmptySetName(setLine,
                        "a set starts with '/'; is there a stray '/' after the previous '//'?");
            }
            String name = this.text.substring(start, stripEnd(start, slash));
            if (name.indexOf('\n') >= 0) {
                throw new KmtfParseException.InvalidSetName(setLine, firstLine(name), "'" + firstLine(name)
                        + "' is followed by a line break; a set name must be followed directly by '/'");
            }
            String problem = TextRules.setNameProblem(name);
            if (problem != null) {
                throw new KmtfParseException.InvalidSetName(setLine, name, problem);
            }
            this.pos = slash + 1;
            this.fieldCount = 0;
            if (TextRules.isFreeText(name)) {
                freeTextFields(name, setLine);
            }
            else {
                fields(name, setLine);
            }
            return new KmtfSet(name, List.of(Arrays.copyOf(this.fields, this.fieldCount)), setLine);
        }

        private void fields(String name, int setLine) throws KmtfParseException {
            if (this.pos < this.text.length() && this.text.charAt(this.pos) == '/') {
                this.pos++;
                return;
            }
            while (true) {
                int separator = this.text.indexOf('/', this.pos);
                if (separator < 0) {
                    throw new KmtfParseException.UnterminatedSet(setLine, name,
                            "the text ends inside set " + name + "; every set ends with '//'");
                }
                int index = this.fieldCount + 1;
                int fieldStart = skipWhitespace(this.pos, separator);
                int fieldEnd = stripEnd(fieldStart, separator);
                int lineBreak = this.text.indexOf('\n', fieldStart, fieldEnd);
                if (lineBreak >= 0) {
                    int breakLine = line(lineBreak);
                    throw new KmtfParseException.UnterminatedSet(breakLine, name, "set " + name + " (line " + setLine
                            + ") is not terminated: field " + index + " runs over a line break; is '//' missing at "
                            + "the end of line " + breakLine + "?");
                }
                String raw = this.text.substring(fieldStart, fieldEnd);
                field(name, index, raw, raw.isEmpty() ? this.pos : fieldStart);
                this.pos = separator + 1;
                if (this.pos < this.text.length() && this.text.charAt(this.pos) == '/') {
                    this.pos++;
                    return;
                }
            }
        }

        /** Checks a field found at {@code offset} and adds it to the set's fields. */
        private void field(String setName, int index, String raw, int offset) throws KmtfParseException {
            String problem = TextRules.fieldProblem(raw);
            if (problem != null) {
                throw new KmtfParseException.InvalidField(line(offset), setName, index, problem);
            }
            int colon = TextRules.keywordColon(raw);
            int valueStart = colon + 1;
            boolean dtgExpected = TextRules.DTG_SET.equals(setName) || (colon == 3 && raw.startsWith("DTG"));
            boolean noData = raw.length() - valueStart == 1 && raw.charAt(valueStart) == '-';
            if ((dtgExpected && !noData) || TextRules.looksLikeDtg(raw, valueStart)) {
                problem = TextRules.dtgProblem((colon < 0) ? raw : raw.substring(valueStart));
                if (problem != null) {
                    throw new KmtfParseException.InvalidDateTimeGroup(line(offset), setName, index, problem);
                }
            }
            add(new KmtfField(raw));
        }

        private void freeTextFields(String name, int setLine) throws KmtfParseException {
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
            int textStart = contentStart;
            if (TextRules.GENTEXT.equals(name)) {
                int headingEnd = this.text.indexOf('/', contentStart);
                if (headingEnd == end) {
                    throw new KmtfParseException.InvalidField(line(end), name, 2,
                            "GENTEXT needs a heading field and a text field: GENTEXT/heading/text//");
                }
                int headingStart = skipWhitespace(contentStart, headingEnd);
                field(name, 1, this.text.substring(headingStart, stripEnd(headingStart, headingEnd)), headingStart);
                textStart = headingEnd + 1;
            }
            int index = this.fieldCount + 1;
            int freeTextStart = skipWhitespace(textStart, end);
            String freeText = this.text.substring(freeTextStart, stripEnd(freeTextStart, end));
            // checkCharacters has refused every control character free text may not hold.
            String problem = TextRules.freeTextShapeProblem(freeText);
            if (problem != null) {
                throw new KmtfParseException.InvalidField(line(freeTextStart), name, index, problem);
            }
            add(new KmtfField(freeText));
        }

        private void add(KmtfField field) {
            if (this.fieldCount == this.fields.length) {
                this.fields = Arrays.copyOf(this.fields, 2 * this.fieldCount);
            }
            this.fields[this.fieldCount++] = field;
        }

        private void checkMsgid(List<KmtfSet> sets, int firstSetLine) throws KmtfParseException {
            KmtfSet msgid = null;
            for (KmtfSet set : sets) {
                if (!TextRules.MSGID.equals(set.name())) {
                    continue;
                }
                if (msgid != null) {
                    throw new KmtfParseException.DuplicateMsgid(set.line(),
                            "MSGID appears again; it was first on line " + msgid.line());
                }
                if (set != sets.getFirst()) {
                    throw new KmtfParseException.MsgidNotFirst(set.line(), "MSGID must be the first set, but "
                            + sets.getFirst().name() + " (line " + sets.getFirst().line() + ") comes before it");
                }
                msgid = set;
            }
            if (msgid == null) {
                String first = sets.isEmpty() ? null : sets.getFirst().name();
                throw new KmtfParseException.MissingMsgid(firstSetLine, first,
                        sets.isEmpty() ? "the message has no sets; it must start with MSGID"
                                : "there is no MSGID set; a message starts with MSGID/<message type>/...//");
            }
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

        /** Where the text from {@code from} to {@code to} ends without its trailing white space, as strip() cuts. */
        private int stripEnd(int from, int to) {
            int end = to;
            while (end > from && Character.isWhitespace(this.text.charAt(end - 1))) {
                end--;
            }
            return end;
        }

        private int lineEnd(int from) {
            int end = this.text.indexOf('\n', from);
            return (end < 0) ? this.text.length() : end;
        }

        /** The 1-based line of an offset; counts on from the last offset asked, as sets come in order. */
        private int line(int offset) {
            if (offset < this.countedTo) {
                this.countedTo = 0;
                this.countedLine = 1;
            }
            int lineBreak = this.text.indexOf('\n', this.countedTo, offset);
            while (lineBreak >= 0) {
                this.countedLine++;
                lineBreak = this.text.indexOf('\n', lineBreak + 1, offset);
            }
            this.countedTo = offset;
            return this.countedLine;
        }

        private static String firstLine(String text) {
            int end = text.indexOf('\n');
            return (end < 0) ? text : text.substring(0, end).strip();
        }
    }
}
