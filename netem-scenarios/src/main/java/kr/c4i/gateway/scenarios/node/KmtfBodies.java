package kr.c4i.gateway.scenarios.node;

import java.nio.charset.StandardCharsets;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import kr.c4i.gateway.kmtf.catalogue.KmtfCatalogue;
import kr.c4i.gateway.kmtf.catalogue.MessageType;
import kr.c4i.gateway.kmtf.catalogue.Reliability;
import kr.c4i.gateway.kmtf.text.KmtfMessageBuilder;

/**
 * Valid KMTF message texts of an exact size in bytes (the study's 200- and 1,024-byte messages): a MSGID, a DTG
 * and a NARR free-text set padded to the size. Built up front, so that writing them costs only the database.
 */
public final class KmtfBodies {

    private static final DateTimeFormatter DTG = DateTimeFormatter.ofPattern("ddHHmm'Z'MMMyyyy", Locale.ENGLISH);
    private static final String WORDS = "ENEMY ACTIVITY OBSERVED GRID 52SCG 1234 5678 MOVING NORTH NO CONTACT "
            + "REQUEST SUPPORT ROUTE CLEAR BRIDGE SECURED FUEL AMMO RESUPPLY WEATHER FAIR ";

    private KmtfBodies() {
    }

    /** The smallest body {@link #of} can make for a type. */
    public static int minimumSize(String type) {
        return render(type, 1, "X").length;
    }

    /**
     * {@code count} messages of the type, each exactly {@code size} bytes of UTF-8, serials 1..count.
     *
     * @throws IllegalArgumentException if the size is below {@link #minimumSize}
     */
    public static List<byte[]> of(String type, int size, int count) {
        List<byte[]> bodies = new ArrayList<>(count);
        for (int serial = 1; serial <= count; serial++) {
            int base = render(type, serial, "X").length;
            if (size < base) {
                throw new IllegalArgumentException("a " + type + " message needs at least " + base + " bytes, asked for "
                        + size);
            }
            bodies.add(render(type, serial, filler(size - base + 1)));
        }
        return bodies;
    }

    /**
     * A RELIABLE type of the catalogue that accepts messages of this size, by preference the named one.
     *
     * @throws IllegalArgumentException if the catalogue has no such type
     */
    public static MessageType reliableType(KmtfCatalogue catalogue, String preferred, int size) {
        return catalogue.find(preferred).filter(t -> t.reliability() == Reliability.RELIABLE && t.maxSize() >= size)
                .or(() -> catalogue.types().stream()
                        .filter(t -> t.reliability() == Reliability.RELIABLE && t.maxSize() >= size).findFirst())
                .orElseThrow(() -> new IllegalArgumentException("the catalogue has no RELIABLE type for " + size
                        + "-byte messages"));
    }

    private static byte[] render(String type, int serial, String narrative) {
        String dtg = ZonedDateTime.now(ZoneOffset.UTC).format(DTG).toUpperCase(Locale.ENGLISH);
        return new KmtfMessageBuilder().classification("UNCLASSIFIED").msgid(type, "NETEM", Integer.toString(serial))
                .set("DTG", dtg).freeText("NARR", narrative).build().render().getBytes(StandardCharsets.UTF_8);
    }

    private static String filler(int length) {
        StringBuilder text = new StringBuilder(length + WORDS.length());
        while (text.length() < length) {
            text.append(WORDS);
        }
        text.setLength(length);
        text.setCharAt(0, 'X');
        text.setCharAt(length - 1, 'X');
        return text.toString();
    }
}
