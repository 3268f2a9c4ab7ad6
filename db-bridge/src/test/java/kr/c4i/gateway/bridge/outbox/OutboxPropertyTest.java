package kr.c4i.gateway.bridge.outbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.From;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.Tuple.Tuple2;
import net.jqwik.api.constraints.Size;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;
import org.jspecify.annotations.Nullable;

import kr.c4i.gateway.bridge.config.OutboxProperties;
import kr.c4i.gateway.bridge.config.OutboxProperties.BadRowPolicy;
import kr.c4i.gateway.bridge.metrics.BridgeMetrics;
import kr.c4i.gateway.bridge.support.InterfaceDatabase;
import kr.c4i.gateway.bridge.support.Kmtf;
import kr.c4i.gateway.bridge.support.RecordingTransport;
import kr.c4i.gateway.core.Envelope;
import kr.c4i.gateway.core.NodeId;
import kr.c4i.gateway.core.routing.RoutingTable;
import kr.c4i.gateway.core.transport.Outbound;
import kr.c4i.gateway.core.transport.TransportKind;
import kr.c4i.gateway.interfacedb.RawOutboxRow;
import kr.c4i.gateway.kmtf.catalogue.KmtfCatalogue;
import kr.c4i.gateway.kmtf.catalogue.Precedence;

/**
 * Generated rows, as a C4I application or an old database might hold them, thrown at a running poller: every
 * row ends either sent (exactly as written) or in quarantine with a reason, and nothing is left waiting. The
 * outbox's V3 constraints are dropped here, so the rows it would refuse play legacy rows written before them.
 */
class OutboxPropertyTest {

    private static final KmtfCatalogue CATALOGUE = KmtfCatalogue.loadDefault();
    private static final Set<String> KNOWN_TYPES = Set.of("SITREP", "OPORD");
    private static final NodeId A = NodeId.of("a");
    private static final NodeId B = NodeId.of("b");

    private static Path directory;
    private static InterfaceDatabase db;
    private static RecordingTransport transport;
    private static OutboxPoller poller;
    private static int serial;

    enum BodyKind { VALID, OTHER_TYPE, GARBAGE, NOT_UTF8, EMPTY, OVERSIZE }

    /** One generated row and whether the bridge must send it. */
    record Row(String messageId, String createdAt, @Nullable Instant instant, @Nullable String precedence,
            String type, BodyKind bodyKind) {

        boolean valid() {
            return !messageId.isBlank() && messageId.codePointCount(0, messageId.length()) <= 255 && instant != null
                    && validPrecedence() && KNOWN_TYPES.contains(type) && bodyKind == BodyKind.VALID;
        }

        boolean validPrecedence() {
            try {
                return precedence == null || Precedence.parse(precedence) != null;
            }
            catch (IllegalArgumentException ex) {
                return false;
            }
        }

        byte[] body(int serial) {
            String bodyType = KNOWN_TYPES.contains(type) ? type : "SITREP";
            String valid = Kmtf.message(bodyType, serial);
            return switch (bodyKind) {
                case VALID -> valid.getBytes(StandardCharsets.UTF_8);
                case OTHER_TYPE -> Kmtf.message(bodyType.equals("SITREP") ? "OPORD" : "SITREP", serial)
                        .getBytes(StandardCharsets.UTF_8);
                case GARBAGE -> ("%%%& garbage " + serial + " //\n/").getBytes(StandardCharsets.UTF_8);
                case NOT_UTF8 -> new byte[] { 'M', 'S', 'G', 'I', 'D', '/', (byte) 0xC3, (byte) 0x28, (byte) 0xFF, '/' };
                case EMPTY -> new byte[0];
                case OVERSIZE -> (valid + "\nRMKS/" + "X".repeat(CATALOGUE.require(bodyType).maxSize()) + "//")
                        .getBytes(StandardCharsets.UTF_8);
            };
        }
    }

    @BeforeContainer
    static void start() throws Exception {
        directory = Files.createTempDirectory("outbox-property");
        db = new InterfaceDatabase(directory.resolve("pg"));
        db.dropOutboxConstraints();
        transport = new RecordingTransport();
        OutboxProperties properties = new OutboxProperties(true, 50, Duration.ofMillis(200), Duration.ofMillis(20),
                Duration.ofMillis(200), BadRowPolicy.QUARANTINE, Duration.ofSeconds(5), Duration.ofSeconds(30), 3);
        poller = OutboxLoop.poller(db.dataSource(), properties, CATALOGUE,
                RoutingTable.of(Map.of(B, List.of("*")), CATALOGUE), A, transport,
                new BridgeMetrics(new SimpleMeterRegistry(), TransportKind.JMS), null, Clock.systemUTC());
        poller.start();
    }

    @AfterContainer
    static void stop() throws Exception {
        poller.close();
        db.close();
        try (Stream<Path> files = Files.walk(directory)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    @Property(tries = 100)
    void everyRowEndsSentAsWrittenOrQuarantinedWithAReason(
            @ForAll @Size(min = 1, max = 8) List<@From("rows") Row> rows)
            throws Exception {
        Map<Long, Row> inserted = new LinkedHashMap<>();
        for (Row row : rows) {
            insert(row).ifPresent(id -> inserted.put(id, row));
        }
        String ids = inserted.keySet().stream().map(String::valueOf).reduce((a, b) -> a + "," + b).orElse("0");
        await().atMost(Duration.ofSeconds(20)).until(() -> db.count("SELECT count(*) FROM outbox WHERE sent_at IS NULL") == 0);

        List<String> quarantined = db.strings("SELECT outbox_id || ' ' || reason_kind FROM quarantine"
                + " WHERE outbox_id IN (" + ids + ") AND reason <> ''");
        for (Map.Entry<Long, Row> entry : inserted.entrySet()) {
            Row row = entry.getValue();
            boolean sent = db.count("SELECT count(*) FROM outbox WHERE id = " + entry.getKey()
                    + " AND sent_at IS NOT NULL") == 1;
            boolean inQuarantine = quarantined.stream().anyMatch(q -> q.startsWith(entry.getKey() + " "));
            assertThat(sent ^ inQuarantine).as("row %s ends in exactly one place: %s", entry.getKey(), row).isTrue();
            assertThat(sent).as("sent iff valid: %s, quarantine %s", row, quarantined).isEqualTo(row.valid());
            if (sent) {
                Outbound outbound = transport.sent.stream().filter(o -> o.envelope().messageId().equals(row.messageId()))
                        .findFirst().orElseThrow();
                assertThat(outbound.envelope().createdAt()).isEqualTo(row.instant());
                assertThat(outbound.envelope().kmtfType()).isEqualTo(row.type());
                if (row.precedence() != null) {
                    assertThat(outbound.envelope().precedence()).isEqualTo(Precedence.parse(row.precedence()));
                }
            }
        }
        assertThat(poller.retriedRow()).isNull();
    }

    private static Optional<Long> insert(Row row) throws SQLException {
        try {
            return Optional.of(db.client().insertRaw(new RawOutboxRow(row.messageId(), row.type(), row.precedence(),
                    row.body(++serial), row.createdAt())));
        }
        catch (SQLException ex) {
            if ("23505".equals(ex.getSQLState())) {
                return Optional.empty(); // a message id generated twice: the unique constraint is not under test
            }
            throw ex;
        }
    }

    @Provide
    Arbitrary<Row> rows() {
        Arbitrary<String> ids = Arbitraries.frequencyOf(
                weighted(6, Arbitraries.strings().withCharRange('!', '~').ofMinLength(1).ofMaxLength(40)),
                weighted(2, Arbitraries.strings().withCharRange('\u0001', '\uD7FF').ofMinLength(0).ofMaxLength(60)),
                weighted(2, Arbitraries.of("", " ", "   ", "\t", "\n \n", "\u2003", "\u3000")),
                weighted(1, Arbitraries.strings().withCharRange('a', 'z').ofMinLength(250).ofMaxLength(300)));
        long earliest = Envelope.EARLIEST_CREATED_AT.getEpochSecond() * 1_000_000L;
        long latest = Envelope.LATEST_CREATED_AT.getEpochSecond() * 1_000_000L - 1;
        Arbitrary<Instant> instants = Arbitraries.oneOf(Arbitraries.longs().between(earliest, latest),
                Arbitraries.of(earliest, latest, 0L)).map(m -> Instant.EPOCH.plus(m, ChronoUnit.MICROS));
        Arbitrary<Object> times = Arbitraries.frequencyOf(weighted(6, instants.map(i -> (Object) i)),
                weighted(3, Arbitraries.of("infinity", "-infinity", "1500-01-01 00:00:00+00", "0001-01-01 00:00:00+00",
                        "0044-03-15 12:00:00+00 BC", "1677-12-31 23:59:59.999999+00", "2262-01-01 00:00:00+00",
                        "9999-12-31 23:59:59+00", "200000-01-01 00:00:00+00")));
        Arbitrary<String> precedences = Arbitraries.frequencyOf(
                weighted(4, Arbitraries.just(null)),
                weighted(3, Arbitraries.of("flash", "FLASH", "Immediate", "priority", "ROUTINE", " z ", "o", "P", "r")),
                weighted(2, Arbitraries.strings().alpha().ofMinLength(0).ofMaxLength(10)),
                weighted(1, Arbitraries.of("", " ", "urgent", "x", "flash!", "프래시")));
        Arbitrary<String> types = Arbitraries.frequencyOf(weighted(8, Arbitraries.of("SITREP", "OPORD")),
                weighted(1, Arbitraries.of("NOSUCHTYPE", "", "sitrep")),
                weighted(1, Arbitraries.strings().alpha().ofMinLength(1).ofMaxLength(12).map(s -> "X-" + s)));
        Arbitrary<BodyKind> bodies = Arbitraries.frequencyOf(weighted(6, Arbitraries.just(BodyKind.VALID)),
                weighted(4, Arbitraries.of(BodyKind.class)));
        return Combinators.combine(ids, times, precedences, types, bodies).as((id, time, precedence, type, body) -> {
            if (time instanceof Instant instant) {
                return new Row(id, OffsetDateTime.ofInstant(instant, ZoneOffset.UTC).toString(), instant, precedence,
                        type, body);
            }
            return new Row(id, (String) time, null, precedence, type, body);
        });
    }

    private static <T> Tuple2<Integer, Arbitrary<? extends T>> weighted(int weight,
            Arbitrary<? extends T> arbitrary) {
        return Tuple.of(weight, arbitrary);
    }
}
