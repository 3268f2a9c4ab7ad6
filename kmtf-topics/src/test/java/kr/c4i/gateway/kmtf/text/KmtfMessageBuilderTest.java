package kr.c4i.gateway.kmtf.text;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

class KmtfMessageBuilderTest {

    private static final List<String> MONTHS = List.of("JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP",
            "OCT", "NOV", "DEC");

    private static final List<String> WORDS = List.of("ENEMY", "PLT", "1ST", "BN", "GRID", "52SCG", "NORTH", "1/2",
            "A/B/C", "MSR", "10:30", "적", "보병", "대대", "NO CHANGE", "T-72", "(EST)", "KEY:VALUE", "-");

    private static final List<String> CLASSIFICATIONS = List.of("UNCLASSIFIED", "CONFIDENTIAL", "SECRET",
            "TOP SECRET//REL TO USA, KOR", "SECRET//NOFORN//ORCON");

    private final KmtfParser parser = new KmtfParser();

    @Test
    void buildsMessageThatParsesBackEqual() throws KmtfParseException {
        KmtfMessage message = new KmtfMessageBuilder().classification("SECRET//REL TO USA, KOR")
            .msgid("SITREP", "1CORPS", "0042")
            .set("DTG", "211430ZNOV2026")
            .set("OWNSIT", "UNIT:1ST INF DIV", null, "STATUS:GREEN")
            .freeText("NARR", "ENEMY ACTIVITY LOW / NO CONTACT")
            .freeText("GENTEXT", "REMARKS", "SEE ANNEX A/B")
            .build();
        assertThat(message.messageType()).isEqualTo("SITREP");
        assertThat(message.set("OWNSIT").orElseThrow().field(2)).contains(KmtfField.NO_DATA);
        assertThat(this.parser.parse(message.render())).isEqualTo(message);
    }

    @Test
    void msgidMustComeFirst() {
        assertThatIllegalStateException()
            .isThrownBy(() -> new KmtfMessageBuilder().set("DTG", "211430ZNOV2026").msgid("SITREP", "A", "1"));
        assertThatIllegalArgumentException().isThrownBy(() -> new KmtfMessageBuilder().set("DTG", "211430ZNOV2026")
            .build());
    }

    @Test
    void buildRejectsMessageTheParserWouldReject() {
        assertThatIllegalArgumentException()
            .isThrownBy(() -> new KmtfMessageBuilder().msgid("SITREP", "A", "1").set("DTG", "311200ZNOV2026").build())
            .withMessageContaining("line 2, set DTG, field 1");
    }

    @Test
    void freeTextOnlyForFreeTextSets() {
        assertThatIllegalArgumentException().isThrownBy(() -> new KmtfMessageBuilder().freeText("OWNSIT", "X"));
    }

    @Test
    void manyRandomValidMessagesRoundTrip() throws KmtfParseException {
        Random random = new Random(20261121L);
        for (int i = 0; i < 2000; i++) {
            KmtfMessage message = randomMessage(random);
            String text = message.render();
            KmtfMessage parsed = this.parser.parse(text);
            assertThat(parsed).as(text).isEqualTo(message);
            assertThat(parsed.render()).as(text).isEqualTo(text);
        }
    }

    private static KmtfMessage randomMessage(Random random) {
        KmtfMessageBuilder builder = new KmtfMessageBuilder();
        if (random.nextBoolean()) {
            builder.classification(pick(random, CLASSIFICATIONS));
        }
        builder.msgid(name(random), random.nextInt(4) == 0 ? null : name(random), String.valueOf(random.nextInt(9999)));
        int sets = random.nextInt(12);
        for (int s = 0; s < sets; s++) {
            switch (random.nextInt(6)) {
                case 0 -> builder.set("DTG", dtg(random));
                case 1 -> builder.freeText(pick(random, List.of("AMPN", "NARR", "RMKS")), freeText(random));
                case 2 -> builder.freeText("GENTEXT", name(random), freeText(random));
                default -> builder.set(setName(random), fields(random));
            }
        }
        return builder.build();
    }

    private static String[] fields(Random random) {
        List<String> fields = new ArrayList<>();
        int count = random.nextInt(8);
        for (int f = 0; f < count; f++) {
            fields.add(switch (random.nextInt(5)) {
                case 0 -> "-";
                case 1 -> name(random) + ":" + plain(random);
                case 2 -> "DTG:" + dtg(random);
                default -> plain(random);
            });
        }
        return fields.toArray(String[]::new);
    }

    private static String plain(Random random) {
        StringBuilder text = new StringBuilder(name(random));
        int words = random.nextInt(3);
        for (int w = 0; w < words; w++) {
            text.append(' ').append(pick(random, WORDS).replace("/", "."));
        }
        return text.toString();
    }

    private static String freeText(Random random) {
        StringBuilder text = new StringBuilder(name(random));
        int words = 1 + random.nextInt(30);
        for (int w = 0; w < words; w++) {
            text.append(random.nextInt(8) == 0 ? "\n" : " ").append(pick(random, WORDS));
        }
        return text.toString();
    }

    private static String setName(Random random) {
        String name;
        do {
            name = name(random);
        }
        while (name.equals("MSGID") || name.equals("DTG") || TextRules.isFreeText(name));
        return name;
    }

    private static String name(Random random) {
        String letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
        String alphabet = letters + "0123456789";
        StringBuilder name = new StringBuilder().append(letters.charAt(random.nextInt(letters.length())));
        int length = random.nextInt(10);
        for (int c = 0; c < length; c++) {
            name.append(alphabet.charAt(random.nextInt(alphabet.length())));
        }
        return name.toString();
    }

    private static String dtg(Random random) {
        return String.format("%02d%02d%02dZ%s%04d", 1 + random.nextInt(28), random.nextInt(24), random.nextInt(60),
                pick(random, MONTHS), 2000 + random.nextInt(50));
    }

    private static <T> T pick(Random random, List<T> values) {
        return values.get(random.nextInt(values.size()));
    }
}
