package kr.c4i.gateway.kmtf.text;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;

import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The parser, the rules and the model's checks answer every generated text exactly as the code before the
 * hand-written scanning did (kept verbatim as {@link OriginalKmtfParser}, {@link OriginalTextRules} and
 * {@link OriginalModel}): the same message with the same set lines, or the same exception with the same kind,
 * position and text.
 */
class OriginalBehaviourTest {

    private final KmtfParser parser = new KmtfParser();
    private final OriginalKmtfParser original = new OriginalKmtfParser();

    @Property(tries = 20_000)
    void mutatedMessagesParseAsBefore(@ForAll("texts") String text) {
        assertThat(parsed(() -> this.parser.parse(text))).as(text).isEqualTo(parsed(() -> this.original.parse(text)));
    }

    @Property(tries = 20_000)
    void everyRuleAnswersAsBefore(@ForAll("fragments") String s) {
        assertThat(TextRules.setNameProblem(s)).as(s).isEqualTo(OriginalTextRules.setNameProblem(s));
        assertThat(TextRules.messageTypeProblem(s)).as(s).isEqualTo(OriginalTextRules.messageTypeProblem(s));
        assertThat(TextRules.fieldProblem(s)).as(s).isEqualTo(OriginalTextRules.fieldProblem(s));
        assertThat(TextRules.freeTextProblem(s)).as(s).isEqualTo(OriginalTextRules.freeTextProblem(s));
        assertThat(TextRules.classificationProblem(s)).as(s).isEqualTo(OriginalTextRules.classificationProblem(s));
        assertThat(TextRules.classificationLevel(s)).as(s).isEqualTo(OriginalTextRules.classificationLevel(s));
        assertThat(TextRules.looksLikeDtg(s, 0)).as(s).isEqualTo(OriginalTextRules.looksLikeDtg(s));
        assertThat(TextRules.dtgProblem(s)).as(s).isEqualTo(OriginalTextRules.dtgProblem(s));
        assertThat(TextRules.isFreeText(s)).as(s).isEqualTo(OriginalTextRules.isFreeText(s));
        assertThat(new KmtfField(s).keyword()).as(s).isEqualTo(OriginalModel.keyword(s));
        assertThat(new KmtfField(s).value()).as(s).isEqualTo(OriginalModel.value(s));
        assertThat(outcome(() -> Classification.ofLine(s))).as(s).isEqualTo(outcome(() -> OriginalModel.ofLine(s)));
    }

    @Property(tries = 20_000)
    void setsAndMessagesAreCheckedAsBefore(@ForAll("fragments") String name, @ForAll("fieldLists") List<String> raws,
            @ForAll("fragments") String classification, @ForAll("texts") String text) {
        List<KmtfField> fields = raws.stream().map(KmtfField::new).toList();
        assertThat(outcome(() -> new KmtfSet(name, fields))).as(name + " " + raws)
                .isEqualTo(outcome(() -> {
                    OriginalModel.checkSet(name, fields);
                    return new KmtfSet(name, fields);
                }));
        List<KmtfSet> sets = new ArrayList<>();
        try {
            sets.addAll(this.original.parse(text).sets());
        }
        catch (KmtfParseException ex) {
            sets.add(KmtfSet.of("NARR", "X"));
        }
        if (raws.size() % 2 == 0) {
            sets.addFirst(KmtfSet.of(name.isEmpty() ? "MSGID" : "A", raws.stream().map(r -> "X").toArray(String[]::new)));
        }
        for (Optional<String> line : List.of(Optional.<String>empty(), Optional.of(classification))) {
            assertThat(outcome(() -> new KmtfMessage(line, sets))).as(line + " " + sets)
                    .isEqualTo(outcome(() -> {
                        OriginalModel.checkMessage(line, sets);
                        return new KmtfMessage(line, sets);
                    }));
        }
    }

    @Provide
    Arbitrary<String> texts() {
        return KmtfTexts.mutatedMessages();
    }

    @Provide
    Arbitrary<String> fragments() {
        return KmtfTexts.fragments();
    }

    @Provide
    Arbitrary<List<String>> fieldLists() {
        return KmtfTexts.fragments().list().ofMaxSize(3);
    }

    /** What a parse gave: the message with each set's line (which equality ignores), or the exception in full. */
    static String parsed(Callable<KmtfMessage> parse) {
        return outcome(() -> {
            KmtfMessage message = parse.call();
            return List.of(message, message.sets().stream().map(KmtfSet::line).toList());
        });
    }

    static String outcome(Callable<Object> call) {
        try {
            Object result = call.call();
            return "accepted " + result;
        }
        catch (KmtfParseException ex) {
            return ex.getClass().getName() + " kind " + ex.kind() + ", line " + ex.line() + ", set " + ex.setName()
                    + ", field " + ex.fieldIndex() + ", detail " + ex.detail() + ", message " + ex.getMessage();
        }
        catch (Exception ex) {
            return ex.toString();
        }
    }
}
