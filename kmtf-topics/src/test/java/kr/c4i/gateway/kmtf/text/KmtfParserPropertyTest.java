package kr.c4i.gateway.kmtf.text;

import java.util.List;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;

import kr.c4i.gateway.kmtf.catalogue.KmtfCatalogue;
import kr.c4i.gateway.kmtf.catalogue.MessageType;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Valid messages of catalogue types, mutated with characters and pieces that sit on the rules' edges (slashes, line
 * breaks, white space of every kind, control characters, keywords, date-time groups, classification levels, long
 * names, byte order marks, non-ASCII): the parser accepts a text and gives it back unchanged through render, or
 * refuses it with a KmtfParseException on one of its lines; nothing else. When scanning by hand replaced the
 * regular expressions, a differential test fed such texts to the new parser and to a copy of the old one and found
 * them answering alike; this is the part of it that needs no copy.
 */
class KmtfParserPropertyTest {

    private static final List<String> PIECES = List.of("/", "//", "///", "\n", "\r", "\r\n", "\n\n", " ", "  ", "\t",
            ":", "-", "Z", "A", "0", "9", "a", "z", ",", ".", "적", "\u0000", "\u0007", "\u001F", "\u007F", "\u0085",
            "\u009F", "\u00A0", "\u2028", "\u2029", "\u3000", "\u1680", "\u2007", "\u200B", "\u000B", "\f", "\u001C",
            "\uFEFF", "\uD83D\uDE00", "\uD800", "\uDC00", "\uFFFD", "MSGID/", "MSGID/SITREP//", "\nMSGID/SITREP//\n",
            "MSGID//", "DTG/", "NARR/", "AMPN/", "RMKS/", "GENTEXT/", "GENTEXT/H/", "GENTEXT//", "ENDAT//",
            "UNCLASSIFIED", "TOP SECRET", "TOP SECRETS", "SECRET//", "SECRET//REL TO USA, KOR", "//REL TO USA", "//rel",
            "// X", "//X-", "//A..B", "CONFIDENTIAL//", "RESTRICTED\n", "DTG:", "DTG:-", "KEY:", "X:", "A1:", "1A:",
            ":-", "310000ZFEB2028", "290000ZFEB2028", "290000ZFEB2100", "290000ZFEB2000", "290000ZFEB2027",
            "000000ZJAN0000", "312359ZDEC9999", "012400ZJAN2026", "011260ZJAN2026", "011200ZABC2026", "01A200ZJAN2026",
            "AB1200ZJAN2026", "1200ZNOV2026", "311200ZAPR2026", "311200ZJUN2026", "011200ZJAN202",
            "ABCDEFGHIJKLMNOPQRSTU", "ABCDEFGHIJKLMNOPQRST", "12345678901234567890", "123", "-", " - ", "1ST INF DIV",
            "1/2");

    private static final List<String> WORDS = List.of("ENEMY", "ACTIVITY", "OBSERVED", "GRID", "52SCG", "1234", "/",
            "NO", "CONTACT", "1/2.", "적", "활동", "-", "DTG:211430ZNOV2026", "KEY:VALUE", "\n", "  ", "\t", "A//B");

    private static final List<String> CLASSIFICATIONS = List.of("", "UNCLASSIFIED\n", "SECRET//REL TO USA, KOR\n",
            "TOP SECRET//REL TO USA, KOR//ORCON\n", "CONFIDENTIAL//FOUO\n", "RESTRICTED\n", "\n  UNCLASSIFIED  \n\n",
            "SECRET\n");

    private final KmtfParser parser = new KmtfParser();

    @Property(tries = 3_000)
    void aTextParsesAndRendersBackOrIsRefusedOnOneOfItsLines(@ForAll("texts") String text) {
        KmtfMessage message;
        try {
            message = this.parser.parse(text);
        }
        catch (KmtfParseException ex) {
            int lines = text.replace("\r\n", "\n").replace('\r', '\n').split("\n", -1).length;
            assertThat(ex.line()).as(ex.getMessage()).isBetween(1, lines);
            assertThat(ex.getMessage()).startsWith("line " + ex.line());
            return;
        }
        assertThat(message.sets()).extracting(KmtfSet::line).isSorted().allMatch(line -> line >= 1);
        String rendered = message.render();
        try {
            assertThat(this.parser.parse(rendered)).isEqualTo(message);
        }
        catch (KmtfParseException ex) {
            throw new AssertionError("the rendering of an accepted text is refused: " + rendered, ex);
        }
    }

    /** Mostly valid messages with up to 3 mutations, and now and then pieces or characters at random. */
    @Provide
    Arbitrary<String> texts() {
        Arbitrary<Mutation> mutation = Combinators.combine(Arbitraries.integers().between(0, 4),
                Arbitraries.doubles().between(0, 1), Arbitraries.of(PIECES), Arbitraries.integers().between(1, 4))
                .as(Mutation::new);
        return Arbitraries.frequencyOf(
                Tuple.of(8, Combinators.combine(messages(), mutation.list().ofMaxSize(3))
                        .as(KmtfParserPropertyTest::mutate)),
                Tuple.of(1, Arbitraries.of(PIECES).list().ofMaxSize(12).map(p -> String.join("", p))),
                Tuple.of(1, Arbitraries.strings().withChars("//////\n\n\r  ::--AZMSGIDNARTX0123a\t적\u0007")
                        .ofMaxLength(80).map(s -> "MSGID/SITREP/" + s)));
    }

    /** Mostly valid messages of catalogue types, with the layouts operators write. */
    private static Arbitrary<String> messages() {
        Arbitrary<String> possibleDtg = Combinators.combine(Arbitraries.integers().between(1, 28),
                Arbitraries.integers().between(0, 23), Arbitraries.integers().between(0, 59),
                Arbitraries.of("JAN", "FEB", "MAR", "APR", "JUN", "SEP", "NOV", "DEC"),
                Arbitraries.integers().between(0, 9999))
                .as((d, h, m, mon, y) -> String.format("%02d%02d%02dZ%s%04d", d, h, m, mon, y));
        Arbitrary<String> anyDtg = Combinators.combine(Arbitraries.integers().between(0, 32),
                Arbitraries.integers().between(0, 24), Arbitraries.integers().between(0, 60),
                Arbitraries.of("JAN", "FEB", "MAR", "APR", "JUN", "SEP", "NOV", "DEC", "XYZ"),
                Arbitraries.integers().between(1999, 2101))
                .as((d, h, m, mon, y) -> String.format("%02d%02d%02dZ%s%04d", d, h, m, mon, y));
        Arbitrary<String> dtg = Arbitraries.frequencyOf(Tuple.of(12, possibleDtg), Tuple.of(1, anyDtg));
        Arbitrary<String> freeText = Arbitraries.of(WORDS).list().ofMinSize(1).ofMaxSize(30)
                .map(words -> String.join(" ", words));
        Arbitrary<String> set = Arbitraries.oneOf(
                dtg.map(d -> "DTG/" + d + "//"),
                dtg.map(d -> "REF/A/OPORD/1CORPS/" + d + "//"),
                Combinators.combine(dtg, dtg).as((a, b) -> "PERID/" + a + "/" + b + "//"),
                dtg.map(d -> "EVENT/X/DTG:" + d + "//"),
                Arbitraries.just("OWNSIT/UNIT:1ST INF DIV/LOC:52SCG1234567890/STATUS:GREEN//"),
                Arbitraries.just("SUPPLY/CL:III/QTY:45000L/\n   CL:V/QTY:120T/\r\n   CL:I/QTY:-//"),
                Arbitraries.just("ENDAT//"),
                Arbitraries.just("PERID/290000ZFEB2028/DTG:-//"),
                freeText.map(t -> "NARR/X " + t + " X//"),
                freeText.map(t -> "AMPN/" + t + "//"),
                freeText.map(t -> "RMKS/" + t + "//"),
                freeText.map(t -> "GENTEXT/REMARKS/" + t + "//"));
        return Combinators.combine(Arbitraries.of(CLASSIFICATIONS), types(),
                Arbitraries.of("1CORPS", "2DIV", "ROKA HQ", "-", "FDC1-5FA"), Arbitraries.integers().between(0, 9999),
                set.list().ofMaxSize(6), Arbitraries.of("\n", "\r\n", "\n\n", "\n  ", "\r"))
                .as((classification, type, unit, serial, sets, lineEnd) -> {
                    StringBuilder text = new StringBuilder(classification.replace("\n", lineEnd));
                    text.append("MSGID/").append(type).append('/').append(unit).append('/').append(serial)
                            .append("//").append(lineEnd);
                    for (String s : sets) {
                        text.append(s.replace("\n", lineEnd)).append(lineEnd);
                    }
                    return text.toString();
                });
    }

    /** Catalogue types and a few that are not. */
    private static Arbitrary<String> types() {
        List<String> ids = KmtfCatalogue.loadDefault().types().stream().map(MessageType::id).toList();
        return Arbitraries.oneOf(Arbitraries.of(ids), Arbitraries.of("SITREP", "NOSUCHTYPE", "sitrep", "", "SITREP "));
    }

    /** Insert a piece, replace characters by it, delete characters, or start with a byte order mark. */
    private record Mutation(int op, double where, String piece, int count) {
    }

    private static String mutate(String text, List<Mutation> mutations) {
        StringBuilder out = new StringBuilder(text);
        for (Mutation m : mutations) {
            int at = (int) (m.where() * out.length());
            int end = Math.min(out.length(), at + m.count());
            switch (m.op()) {
                case 0, 1 -> out.insert(at, m.piece());
                case 2 -> out.replace(at, end, m.piece());
                case 3 -> out.delete(at, end);
                default -> out.insert(0, "\uFEFF");
            }
        }
        return out.toString();
    }
}
