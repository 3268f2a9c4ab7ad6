package kr.c4i.gateway.kmtf.text;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A KMTF message as a sequence of sets, starting with MSGID. The model keeps what was written and interprets only
 * what every message shares, so that a gateway can validate and route any message type without knowing its sets.
 *
 * @param classification the classification line, such as {@code SECRET//REL TO USA, KOR}, if the message has one
 * @param sets the sets in order; the first is always MSGID
 */
public record KmtfMessage(Optional<String> classification, List<KmtfSet> sets) {

    /**
     * @throws IllegalArgumentException if the classification is not valid, or MSGID is missing, not first, repeated
     *         or does not name a message type
     */
    public KmtfMessage {
        Objects.requireNonNull(classification, "classification");
        sets = List.copyOf(sets);
        String problem = classification.isPresent() ? TextRules.classificationProblem(classification.get()) : null;
        if (problem != null) {
            throw new IllegalArgumentException(problem);
        }
        if (sets.isEmpty() || !TextRules.MSGID.equals(sets.getFirst().name())) {
            throw new IllegalArgumentException("the first set must be MSGID");
        }
        for (int i = 1; i < sets.size(); i++) {
            if (TextRules.MSGID.equals(sets.get(i).name())) {
                throw new IllegalArgumentException("MSGID must appear only once");
            }
        }
        Optional<KmtfField> type = sets.getFirst().field(1);
        problem = type.isPresent() ? TextRules.messageTypeProblem(type.get().raw())
                : "MSGID must name the message type in its first field";
        if (problem != null) {
            throw new IllegalArgumentException("set MSGID, field 1: " + problem);
        }
    }

    /** The message text format identifier: the first field of MSGID, such as {@code SITREP}. */
    public String messageType() {
        return this.sets.getFirst().fields().getFirst().raw();
    }

    /** The first set with this name. */
    public Optional<KmtfSet> set(String name) {
        return this.sets.stream().filter((set) -> set.name().equals(name)).findFirst();
    }

    /**
     * The canonical text: the classification line if any, then one set per line (free text keeps its own line
     * breaks), {@code \n} line ends. Parsing it gives back an equal message.
     */
    public String render() {
        StringBuilder out = new StringBuilder();
        this.classification.ifPresent((line) -> out.append(line).append('\n'));
        for (KmtfSet set : this.sets) {
            set.render(out);
            out.append('\n');
        }
        return out.toString();
    }
}
