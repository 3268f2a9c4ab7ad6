package kr.c4i.gateway.kmtf.text;

import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One set ({@code NAME/field/field//}) of a KMTF message.
 *
 * <p>The constructor enforces the same lexical rules as the parser, so that every set renders to text that parses
 * back to an equal set. Free-text sets (AMPN, NARR, RMKS) hold exactly one field, GENTEXT exactly two: a heading and
 * the text.
 *
 * @param name the set identifier, such as {@code MSGID} or {@code NARR}
 * @param fields the fields after the name, in order; field 1 is {@code fields.get(0)}
 * @param line the 1-based line the set starts on in the parsed text, or 0 for a set built in code; it is where the
 *             set was found, not part of its value, so {@link #equals} ignores it
 */
public record KmtfSet(String name, List<KmtfField> fields, int line) {

    /**
     * @throws IllegalArgumentException if the name or a field breaks a rule of KMTF text
     */
    public KmtfSet {
        Objects.requireNonNull(name, "name");
        fields = List.copyOf(fields);
        String problem = TextRules.setNameProblem(name);
        if (problem != null) {
            throw new IllegalArgumentException(problem);
        }
        boolean freeTextSet = TextRules.isFreeText(name);
        if (freeTextSet) {
            int expected = TextRules.GENTEXT.equals(name) ? 2 : 1;
            if (fields.size() != expected) {
                throw new IllegalArgumentException("set " + name + " needs " + expected + " field(s), got "
                        + fields.size());
            }
        }
        for (int i = 0; i < fields.size(); i++) {
            boolean freeText = freeTextSet && i == fields.size() - 1;
            String raw = fields.get(i).raw();
            problem = freeText ? TextRules.freeTextProblem(raw) : TextRules.fieldProblem(raw);
            if (problem != null) {
                throw new IllegalArgumentException("set " + name + ", field " + (i + 1) + ": " + problem);
            }
        }
    }

    /** A set built in code. */
    public KmtfSet(String name, List<KmtfField> fields) {
        this(name, fields, 0);
    }

    /** A set built in code from field texts; {@code null} or empty texts become {@code -}. */
    public static KmtfSet of(String name, String... fields) {
        return new KmtfSet(name, Arrays.stream(fields).map(KmtfField::of).toList());
    }

    /** Whether the set's text runs to {@code //} and may contain {@code /}: AMPN, NARR, RMKS and GENTEXT. */
    public boolean freeText() {
        return TextRules.isFreeText(this.name);
    }

    /** Field by 1-based position, as KMTF documentation counts them. */
    public Optional<KmtfField> field(int position) {
        return (position >= 1 && position <= this.fields.size()) ? Optional.of(this.fields.get(position - 1))
                : Optional.empty();
    }

    /** The value of the first keyword field {@code key:value} in this set. */
    public Optional<String> keyword(String key) {
        return this.fields.stream()
            .filter((field) -> field.keyword().filter(key::equals).isPresent())
            .map(KmtfField::value)
            .findFirst();
    }

    /** Equal when name and fields are equal, wherever the sets were found. */
    @Override
    public boolean equals(Object other) {
        return (other instanceof KmtfSet set) && this.name.equals(set.name) && this.fields.equals(set.fields);
    }

    @Override
    public int hashCode() {
        return 31 * this.name.hashCode() + this.fields.hashCode();
    }

    void render(StringBuilder out) {
        out.append(this.name);
        for (KmtfField field : this.fields) {
            out.append('/').append(field.raw());
        }
        out.append("//");
    }
}
