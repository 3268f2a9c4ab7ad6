package kr.c4i.gateway.kmtf.text;

import java.util.Arrays;
import java.util.Locale;

/**
 * The security classification levels of KMTF text, lowest first, so a clearance is compared with a message's level
 * by order alone. Caveats ({@code //REL TO USA, KOR}) do not enter the comparison: a node cleared SECRET gets
 * {@code SECRET//REL TO USA, KOR}. A message without a classification line is {@link #UNCLASSIFIED}.
 */
public enum Classification {

    UNCLASSIFIED("UNCLASSIFIED"),
    RESTRICTED("RESTRICTED"),
    CONFIDENTIAL("CONFIDENTIAL"),
    SECRET("SECRET"),
    TOP_SECRET("TOP SECRET");

    private final String label;

    Classification(String label) {
        this.label = label;
    }

    /** The level as the classification line writes it, e.g. {@code TOP SECRET}. */
    public String label() {
        return this.label;
    }

    /** Whether a holder of this clearance may receive a message of {@code level}: this level is as high or higher. */
    public boolean dominates(Classification level) {
        return compareTo(level) >= 0;
    }

    /**
     * The level of a classification line, caveats ignored: {@code SECRET//REL TO USA, KOR} is {@link #SECRET}.
     *
     * @throws IllegalArgumentException if the line is not a valid classification line
     */
    public static Classification ofLine(String line) {
        String problem = TextRules.classificationProblem(line);
        if (problem != null) {
            throw new IllegalArgumentException(problem);
        }
        return fromLabel(TextRules.classificationLevel(line));
    }

    /** The level of a message: that of its classification line, {@link #UNCLASSIFIED} when it has none. */
    public static Classification of(KmtfMessage message) {
        return message.classification().map(Classification::ofLine).orElse(UNCLASSIFIED);
    }

    /**
     * A level as configuration names it (a clearance): the label in any case, with a space or {@code _} in
     * {@code TOP SECRET}, surrounding blanks ignored; no caveats.
     *
     * @throws IllegalArgumentException naming the levels there are
     */
    public static Classification parse(String level) {
        String wanted = level.strip().toUpperCase(Locale.ROOT).replace('_', ' ');
        return Arrays.stream(values()).filter(c -> c.label.equals(wanted)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("'" + level + "' is not a classification level; "
                        + "use one of " + String.join(", ", TextRules.CLASSIFICATION_LEVELS)));
    }

    private static Classification fromLabel(String label) {
        for (Classification level : values()) {
            if (level.label.equals(label)) {
                return level;
            }
        }
        throw new IllegalArgumentException("'" + label + "' is not a classification level");
    }

    @Override
    public String toString() {
        return this.label;
    }
}
