package kr.c4i.gateway.kmtf.text;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;

/**
 * What the model's constructors checked and its accessors answered before the hand-written scanning, verbatim over
 * {@link OriginalTextRules}: the reference of OriginalBehaviourTest.
 */
final class OriginalModel {

    private OriginalModel() {
    }

    /** KmtfSet's canonical constructor. */
    static void checkSet(String name, List<KmtfField> fields) {
        String problem = OriginalTextRules.setNameProblem(name);
        if (problem != null) {
            throw new IllegalArgumentException(problem);
        }
        if (OriginalTextRules.isFreeText(name)) {
            int expected = OriginalTextRules.GENTEXT.equals(name) ? 2 : 1;
            if (fields.size() != expected) {
                throw new IllegalArgumentException("set " + name + " needs " + expected + " field(s), got "
                        + fields.size());
            }
        }
        for (int i = 0; i < fields.size(); i++) {
            boolean freeText = OriginalTextRules.isFreeText(name) && i == fields.size() - 1;
            String raw = fields.get(i).raw();
            problem = freeText ? OriginalTextRules.freeTextProblem(raw) : OriginalTextRules.fieldProblem(raw);
            if (problem != null) {
                throw new IllegalArgumentException("set " + name + ", field " + (i + 1) + ": " + problem);
            }
        }
    }

    /** KmtfMessage's canonical constructor. */
    static void checkMessage(Optional<String> classification, List<KmtfSet> sets) {
        classification.map(OriginalTextRules::classificationProblem).ifPresent((problem) -> {
            throw new IllegalArgumentException(problem);
        });
        if (sets.isEmpty() || !OriginalTextRules.MSGID.equals(sets.getFirst().name())) {
            throw new IllegalArgumentException("the first set must be MSGID");
        }
        if (sets.stream().filter((set) -> OriginalTextRules.MSGID.equals(set.name())).count() > 1) {
            throw new IllegalArgumentException("MSGID must appear only once");
        }
        Optional<KmtfField> type = sets.getFirst().field(1);
        String problem = type.isPresent() ? OriginalTextRules.messageTypeProblem(type.get().raw())
                : "MSGID must name the message type in its first field";
        if (problem != null) {
            throw new IllegalArgumentException("set MSGID, field 1: " + problem);
        }
    }

    static Optional<String> keyword(String raw) {
        Matcher keyword = OriginalTextRules.KEYWORD.matcher(raw);
        return keyword.matches() ? Optional.of(keyword.group(1)) : Optional.empty();
    }

    static String value(String raw) {
        Matcher keyword = OriginalTextRules.KEYWORD.matcher(raw);
        return keyword.matches() ? keyword.group(2) : raw;
    }

    /** Classification.ofLine. */
    static Classification ofLine(String line) {
        String problem = OriginalTextRules.classificationProblem(line);
        if (problem != null) {
            throw new IllegalArgumentException(problem);
        }
        String label = OriginalTextRules.classificationLevel(line);
        return Arrays.stream(Classification.values()).filter(c -> c.label().equals(label)).findFirst().orElseThrow();
    }
}
