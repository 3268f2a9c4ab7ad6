package kr.c4i.gateway.kmtf.text;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * Builds valid KMTF messages in code, for tests, load generators and tools. {@link #build()} guarantees that the
 * result renders to text the parser accepts, including date-time group checks, so a generator cannot produce a
 * message the gateway would quarantine by accident.
 *
 * <pre>{@code
 * KmtfMessage message = new KmtfMessageBuilder()
 *     .classification("SECRET//REL TO USA, KOR")
 *     .msgid("SITREP", "1CORPS", "0042")
 *     .set("DTG", "211430ZNOV2026")
 *     .freeText("NARR", "ENEMY ACTIVITY LOW / NO CONTACT")
 *     .build();
 * }</pre>
 *
 * Not thread-safe; use one builder per message.
 */
public final class KmtfMessageBuilder {

    private Optional<String> classification = Optional.empty();
    private final List<KmtfSet> sets = new ArrayList<>();

    /** Sets the classification line, such as {@code CONFIDENTIAL} or {@code SECRET//REL TO USA, KOR}. */
    public KmtfMessageBuilder classification(String line) {
        this.classification = Optional.of(line);
        return this;
    }

    /**
     * Adds {@code MSGID/type/originator/serial//}; call it before any other set.
     *
     * @throws IllegalStateException if a set was added before
     */
    public KmtfMessageBuilder msgid(String type, String originator, String serial) {
        if (!this.sets.isEmpty()) {
            throw new IllegalStateException("msgid must be the first set");
        }
        return set(TextRules.MSGID, type, originator, serial);
    }

    /**
     * Adds an ordinary set; {@code null} or empty fields become {@code -}.
     *
     * @throws IllegalArgumentException if the name or a field breaks a rule of KMTF text
     */
    public KmtfMessageBuilder set(String name, String... fields) {
        this.sets.add(new KmtfSet(name, Arrays.stream(fields).map(KmtfField::of).toList()));
        return this;
    }

    /**
     * Adds a free-text set: AMPN, NARR or RMKS with the text, or GENTEXT with the heading and the text.
     *
     * @throws IllegalArgumentException if the set is not a free-text set or the text contains {@code //}
     */
    public KmtfMessageBuilder freeText(String name, String... headingAndText) {
        if (!TextRules.isFreeText(name)) {
            throw new IllegalArgumentException(name + " is not a free-text set; use one of " + TextRules.FREE_TEXT_SETS);
        }
        this.sets.add(new KmtfSet(name, Arrays.stream(headingAndText).map(KmtfField::new).toList()));
        return this;
    }

    /**
     * @throws IllegalArgumentException if the message would not parse, with the parser's explanation
     */
    public KmtfMessage build() {
        KmtfMessage message = new KmtfMessage(this.classification, this.sets);
        try {
            new KmtfParser().parse(message.render());
        }
        catch (KmtfParseException ex) {
            throw new IllegalArgumentException("the message would not parse: " + ex.getMessage(), ex);
        }
        return message;
    }
}
