package kr.c4i.gateway.tools.embedded;

import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;

import kr.c4i.gateway.interfacedb.InterfaceDatabaseClient;
import kr.c4i.gateway.interfacedb.OutboxMessage;
import kr.c4i.gateway.kmtf.catalogue.KmtfCatalogue;
import kr.c4i.gateway.kmtf.catalogue.MessageType;
import kr.c4i.gateway.kmtf.catalogue.Reliability;
import kr.c4i.gateway.kmtf.text.KmtfMessageBuilder;

/**
 * Writes synthetic KMTF messages of many catalogue types into an outbox, the way a C4I
 * application would: plain INSERTs, the bridge is not involved. Optionally mixes in rows the
 * bridge must refuse (malformed text, oversize body, unknown type) to show quarantine at work.
 */
public final class KmtfLoadGenerator {

    private static final DateTimeFormatter DTG = DateTimeFormatter.ofPattern("ddHHmm'Z'MMMyyyy", Locale.ENGLISH);
    private static final String[] UNITS = { "1CORPS", "2DIV", "3BDE", "7BN", "ROKAF11", "ROKN3FLT", "JCS", "CFC" };
    private static final String[] WORDS = { "ENEMY", "ACTIVITY", "OBSERVED", "GRID", "52SCG", "1234", "5678",
            "MOVING", "NORTH", "NO", "CONTACT", "REQUEST", "SUPPORT", "AT", "TIME", "ON", "TARGET", "STATUS", "GREEN",
            "AMBER", "ROUTE", "CLEAR", "BRIDGE", "SECURED", "FUEL", "AMMO", "RESUPPLY", "/", "WEATHER", "FAIR" };

    /** Which kind of row to write; everything but GOOD must end in quarantine. */
    enum RowKind { GOOD, MALFORMED, OVERSIZE, UNKNOWN_TYPE }

    private static final int PREPARED = 2048;

    /** A message ready to insert; the outbox gives each insert its own message id. */
    private record Prepared(MessageType type, OutboxMessage message) {
    }

    private final List<MessageType> types;
    private final String originator;
    private final SplittableRandom random;
    private final List<Prepared> prepared = new ArrayList<>(PREPARED);
    private long serial;

    /**
     * @param bodySize exact body size in bytes, or 0 for realistic sizes (a few hundred bytes to a
     *        few kilobytes)
     * @param reliableOnly draw only RELIABLE types (for measurements whose contract is every message)
     */
    public KmtfLoadGenerator(KmtfCatalogue catalogue, String originator, int bodySize, boolean reliableOnly, long seed) {
        this.types = catalogue.types().stream().filter(t -> t.maxSize() >= Math.max(bodySize, 1024))
                .filter(t -> !reliableOnly || t.reliability() == Reliability.RELIABLE).toList();
        this.originator = originator;
        this.random = new SplittableRandom(seed);
        // Built up front, so that inserting costs the database's time, not the generator's.
        for (int i = 0; i < PREPARED; i++) {
            MessageType type = types.get(random.nextInt(types.size()));
            prepared.add(new Prepared(type, new OutboxMessage(type.id(), message(type, bodySize))));
        }
    }

    /** The next valid message of the mix, as {@link #insert} writes it: its type and KMTF text. */
    public OutboxMessage next() {
        return prepared.get(random.nextInt(PREPARED)).message();
    }

    /** Inserts one batch in one transaction; returns the number of rows written. */
    int insert(InterfaceDatabaseClient outbox, List<RowKind> kinds) throws SQLException {
        List<OutboxMessage> rows = new ArrayList<>(kinds.size());
        for (RowKind kind : kinds) {
            Prepared next = prepared.get(random.nextInt(PREPARED));
            MessageType type = next.type();
            rows.add(switch (kind) {
                case GOOD -> next.message();
                case MALFORMED -> OutboxMessage.of(type.id(), "NARR/NO MSGID SET AT ALL//\nMSGID/" + type.id() + "/X/1//");
                case OVERSIZE -> new OutboxMessage(type.id(), message(type, type.maxSize() + 100));
                case UNKNOWN_TYPE -> OutboxMessage.of("NOSUCHTYPE", "MSGID/NOSUCHTYPE/" + originator + "/1//");
            });
        }
        return outbox.insertAll(rows);
    }

    /** A valid message of the type, padded with free text to {@code size} bytes (0: random realistic size). */
    byte[] message(MessageType type, int size) {
        int target = size > 0 ? size : 200 + random.nextInt(Math.min(type.maxSize(), 4096) - 200);
        String dtg = ZonedDateTime.now(ZoneOffset.UTC).format(DTG).toUpperCase(Locale.ENGLISH);
        String unit = UNITS[random.nextInt(UNITS.length)];
        String serialText = Long.toString(++serial);
        int baseLength = render(type, unit, serialText, dtg, "X").length;
        return render(type, unit, serialText, dtg, filler(Math.max(1, target - baseLength + 1)));
    }

    private byte[] render(MessageType type, String unit, String serialText, String dtg, String narrative) {
        return new KmtfMessageBuilder().classification("UNCLASSIFIED")
                .msgid(type.id(), unit, serialText)
                .set("DTG", dtg)
                .freeText("NARR", narrative)
                .build().render().getBytes(StandardCharsets.UTF_8);
    }

    private String filler(int length) {
        StringBuilder text = new StringBuilder(length + 16);
        while (text.length() < length) {
            text.append(WORDS[random.nextInt(WORDS.length)]).append(' ');
        }
        text.setLength(length);
        text.setCharAt(0, 'X');
        text.setCharAt(length - 1, 'X');
        return text.toString();
    }
}
