package kr.c4i.gateway.scenarios.node;

import java.nio.charset.StandardCharsets;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.random.RandomGenerator;

import kr.c4i.gateway.kmtf.catalogue.KmtfCatalogue;
import kr.c4i.gateway.kmtf.catalogue.MessageType;
import kr.c4i.gateway.kmtf.catalogue.Reliability;
import kr.c4i.gateway.kmtf.text.KmtfMessageBuilder;

/**
 * Valid KMTF message texts of an exact size in bytes (the study's 200- and 1,024-byte messages): a MSGID, a DTG
 * and a NARR free-text set padded to the size. Built up front, so that writing them costs only the database.
 *
 * <p>{@link #of} pads every message with the same filler text, which the WAN link's Deflate shrinks to a few per
 * cent; {@link #mix} varies originator, time, serial and narrative as real traffic does, so it compresses as
 * real traffic does.
 */
public final class KmtfBodies {

    private static final DateTimeFormatter DTG = DateTimeFormatter.ofPattern("ddHHmm'Z'MMMyyyy", Locale.ENGLISH);
    private static final String WORDS = "ENEMY ACTIVITY OBSERVED GRID 52SCG 1234 5678 MOVING NORTH NO CONTACT "
            + "REQUEST SUPPORT ROUTE CLEAR BRIDGE SECURED FUEL AMMO RESUPPLY WEATHER FAIR ";
    private static final List<String> UNITS = List.of("1CORPS", "2CORPS", "3DIV", "7DIV", "11BDE", "25BDE", "31BN",
            "52BN", "2MARDIV", "ROKAF11", "ROKN3FLT", "AVNBDE", "JCS", "CFC");
    private static final List<String> NARRATIVE = List.of("ENEMY", "FRIENDLY", "PLATOON", "COMPANY", "BATTALION",
            "ARMOR", "INFANTRY", "ARTILLERY", "MORTAR", "RECON", "PATROL", "CONVOY", "OBSERVED", "REPORTED", "MOVING",
            "HALTED", "DUG IN", "ENGAGED", "WITHDRAWING", "NORTH", "SOUTH", "EAST", "WEST", "VIC", "ALONG", "ROUTE",
            "MSR", "BRIDGE", "RIDGE", "HILL", "VALLEY", "RIVER", "CROSSING", "CHECKPOINT", "SECURED", "CLEAR",
            "BLOCKED", "CRATERED", "MINED", "FUEL", "AMMO", "WATER", "RATIONS", "RESUPPLY", "REQUEST", "SUPPORT",
            "MEDEVAC", "CASUALTIES", "KIA", "WIA", "VEHICLES", "TANKS", "APC", "TRUCKS", "HELICOPTERS", "UAV",
            "WEATHER", "FAIR", "RAIN", "FOG", "VISIBILITY", "NO CONTACT", "STATUS", "GREEN", "AMBER", "RED", "ETA",
            "AT", "TO", "FROM", "WITH", "AND", "OF", "NO", "ALL", "EST");
    private static final List<String> GRID_SQUARES = List.of("BG", "CG", "CH", "DG", "DH");

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
     * {@code count} messages of the type, each exactly {@code size} bytes of UTF-8, drawn from {@code random}: one
     * of fourteen originators, a DTG within the last hour, a serial, and a narrative of report words, grid
     * references, times and counts. The caller's generator carries on from call to call, so a seeded one gives a
     * run's whole sequence again.
     *
     * @throws IllegalArgumentException if the size is too small for a message of the type from a drawn originator
     */
    public static List<byte[]> mix(String type, int size, int count, RandomGenerator random) {
        ZonedDateTime now = ZonedDateTime.now(ZoneOffset.UTC);
        List<byte[]> bodies = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            String unit = UNITS.get(random.nextInt(UNITS.size()));
            String serial = Integer.toString(random.nextInt(1, 10_000));
            String dtg = now.minusMinutes(random.nextInt(60)).format(DTG).toUpperCase(Locale.ENGLISH);
            int base = render(type, unit, serial, dtg, "X").length;
            if (size < base) {
                throw new IllegalArgumentException("a " + type + " message from " + unit + " needs at least " + base
                        + " bytes, asked for " + size);
            }
            bodies.add(render(type, unit, serial, dtg, narrative(size - base + 1, random)));
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
        return render(type, "NETEM", Integer.toString(serial), dtg, narrative);
    }

    private static byte[] render(String type, String originator, String serial, String dtg, String narrative) {
        return new KmtfMessageBuilder().classification("UNCLASSIFIED").msgid(type, originator, serial)
                .set("DTG", dtg).freeText("NARR", narrative).build().render().getBytes(StandardCharsets.UTF_8);
    }

    /**
     * Report sentences cut to {@code length}: words, and one token in three a grid reference, a time or a count,
     * whose digits vary as a real report's do. It starts and ends with a letter, as the filler does, so the cut
     * never leaves a space at either end.
     */
    private static String narrative(int length, RandomGenerator random) {
        StringBuilder text = new StringBuilder(length + 32);
        int words = 0;
        while (text.length() < length) {
            int draw = random.nextInt(12);
            if (draw == 0) {
                text.append("GRID 52S ").append(GRID_SQUARES.get(random.nextInt(GRID_SQUARES.size())))
                        .append(String.format(Locale.ROOT, " %04d %04d", random.nextInt(10_000),
                                random.nextInt(10_000)));
            }
            else if (draw == 1) {
                text.append(String.format(Locale.ROOT, "%02d%02dZ", random.nextInt(24), random.nextInt(60)));
            }
            else if (draw <= 3) {
                text.append(random.nextInt(1, 250));
            }
            else {
                text.append(NARRATIVE.get(random.nextInt(NARRATIVE.size())));
            }
            text.append(++words % 9 == 0 ? ". " : " ");
        }
        text.setLength(length);
        text.setCharAt(0, 'X');
        text.setCharAt(length - 1, 'X');
        return text.toString();
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
