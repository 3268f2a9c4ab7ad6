package kr.c4i.gateway.bridge.inbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import kr.c4i.gateway.bridge.metrics.BridgeMetrics;
import kr.c4i.gateway.bridge.support.InterfaceDatabase;
import kr.c4i.gateway.bridge.support.Kmtf;
import kr.c4i.gateway.core.NodeId;
import kr.c4i.gateway.core.metrics.MetricNames;
import kr.c4i.gateway.core.transport.TransportKind;
import kr.c4i.gateway.custody.CustodyLog;
import kr.c4i.gateway.dds.DataType;
import kr.c4i.gateway.dds.DataWriter;
import kr.c4i.gateway.dds.DomainParticipant;
import kr.c4i.gateway.dds.ParticipantSettings;
import kr.c4i.gateway.dds.Qos;
import kr.c4i.gateway.dds.SampleCodec;
import kr.c4i.gateway.dds.SampleDecoder;
import kr.c4i.gateway.dds.SampleEncoder;
import kr.c4i.gateway.dds.Topic;
import kr.c4i.gateway.dds.transport.DdsTransport;
import kr.c4i.gateway.dds.transport.DdsTransportSettings;
import kr.c4i.gateway.dds.transport.KmtfTypes;
import kr.c4i.gateway.dds.transport.KmtfTypes.KmtfMessageSample;
import kr.c4i.gateway.kmtf.KmtfRejection;
import kr.c4i.gateway.kmtf.KmtfValidator;
import kr.c4i.gateway.kmtf.catalogue.KmtfCatalogue;
import kr.c4i.gateway.kmtf.catalogue.MessageType;
import kr.c4i.gateway.kmtf.catalogue.Precedence;

/**
 * A foreign DDS participant, no bridge, writes samples of the KMTF envelope type on a KMTF topic of a receiving
 * node (real Cyclone DDS, real PostgreSQL): the good ones must reach the inbox and be receipted, each bad one must
 * land in inbound quarantine with its reason, be counted, stay out of the inbox and not be receipted, and none may
 * stall the receive loop.
 */
@Timeout(180)
class ForeignDdsWriterTest {

    private static final KmtfCatalogue CATALOGUE = KmtfCatalogue.loadDefault();
    private static final MessageType SITREP = CATALOGUE.find("SITREP").orElseThrow();
    private static final NodeId BRAVO = NodeId.of("bravo");
    private static final NodeId DELTA = NodeId.of("delta");

    @TempDir
    Path dir;

    private InterfaceDatabase db;
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final List<AutoCloseable> opened = new ArrayList<>();

    @BeforeEach
    void start() throws Exception {
        db = new InterfaceDatabase(dir.resolve("pg"));
    }

    @AfterEach
    void stop() throws Exception {
        for (AutoCloseable c : opened.reversed()) {
            c.close();
        }
        db.close();
    }

    /** Loopback only, one domain per test process; every participant in the process must use the same settings. */
    private static ParticipantSettings loopback() {
        return ParticipantSettings.builder().domainId(1 + (int) (ProcessHandle.current().pid() % 200))
                .networkInterface("127.0.0.1").multicast(false).peers(List.of("127.0.0.1"))
                .writeBatch(DdsTransportSettings.DEFAULT_WRITE_BATCH).build();
    }

    private DdsTransport transport(NodeId node, Set<String> types) {
        DdsTransport transport = new DdsTransport(node, CATALOGUE, types,
                DdsTransportSettings.builder(Duration.ofSeconds(10), 4096).participant(loopback()).build());
        opened.add(transport::close);
        return transport;
    }

    private static KmtfMessageSample sample(String id, String origin, String type, String classification,
            Instant created, byte[] body) {
        long nanos = created.getEpochSecond() * 1_000_000_000L + created.getNano();
        return new KmtfMessageSample(id, origin, type, Precedence.ROUTINE, classification, nanos, 0, 0, body);
    }

    private static byte[] kmtf(String type, int serial) {
        return Kmtf.message(type, serial).getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void goodSamplesReachTheInboxAndEveryBadOneIsQuarantinedCountedAndNotReceipted() throws Exception {
        BridgeMetrics metrics = new BridgeMetrics(registry, TransportKind.DDS);
        ValidatingInbox inbox = new ValidatingInbox(new InboundValidator(new KmtfValidator(CATALOGUE)),
                new InboxWriter(db.dataSource(), metrics, CustodyLog.off()),
                new InboundQuarantine(db.dataSource(), TransportKind.DDS.label(), CustodyLog.off()), metrics);
        DdsTransport bravo = transport(BRAVO, Set.of(SITREP.id()));
        bravo.open();
        bravo.subscribe(inbox);
        // Receipts go to the origin a sample claims: a transport of that name shows what bravo confirmed.
        Set<String> receipted = ConcurrentHashMap.newKeySet();
        DdsTransport delta = transport(DELTA, Set.of());
        delta.onReceipts((receiver, ids) -> receipted.addAll(ids));
        delta.open();

        Instant now = Instant.now();
        Map<String, String> bad = new TreeMap<>();
        List<KmtfMessageSample> samples = new ArrayList<>();
        samples.add(sample("good-1", "delta", "SITREP", "UNCLASSIFIED", now, kmtf("SITREP", 1)));
        bad.put("blank", "blank-message-id");
        samples.add(sample("  ", "delta", "SITREP", "UNCLASSIFIED", now, kmtf("SITREP", 2)));
        bad.put("wrong-topic", "wrong-topic");
        samples.add(sample("wrong-topic", "delta", "OPORD", "UNCLASSIFIED", now, kmtf("OPORD", 3)));
        bad.put("oversize", KmtfRejection.OVERSIZE);
        samples.add(sample("oversize", "delta", "SITREP", "UNCLASSIFIED", now, new byte[SITREP.maxSize() + 1]));
        bad.put("not-utf8", KmtfRejection.INVALID_ENCODING);
        samples.add(sample("not-utf8", "delta", "SITREP", "UNCLASSIFIED", now, new byte[] { 'M', (byte) 0xC3, 0x28 }));
        bad.put("not-kmtf", rejectionKind("just some text", "SITREP"));
        samples.add(sample("not-kmtf", "delta", "SITREP", "UNCLASSIFIED", now,
                "just some text".getBytes(StandardCharsets.UTF_8)));
        bad.put("other-type-text", KmtfRejection.TYPE_MISMATCH);
        samples.add(sample("other-type-text", "delta", "SITREP", "UNCLASSIFIED", now, kmtf("OPORD", 4)));
        bad.put("far-future", InboundValidator.INVALID_CREATED_AT);
        // Within what DDS carries, past what any sending bridge sends (Envelope.LATEST_CREATED_AT).
        samples.add(sample("far-future", "delta", "SITREP", "UNCLASSIFIED", Instant.parse("2262-02-01T00:00:00Z"),
                kmtf("SITREP", 5)));
        bad.put("relabelled", InboundValidator.CLASSIFICATION_MISMATCH);
        samples.add(sample("relabelled", "delta", "SITREP", "TOP SECRET", now, kmtf("SITREP", 6)));
        bad.put("no-classification", InboundValidator.INVALID_CLASSIFICATION);
        samples.add(sample("no-classification", "delta", "SITREP", "", now, kmtf("SITREP", 7)));
        bad.put("bad-origin", "invalid-origin");
        samples.add(sample("bad-origin", "Not A Node", "SITREP", "UNCLASSIFIED", now, kmtf("SITREP", 8)));
        samples.add(sample("good-2", "delta", "SITREP", "UNCLASSIFIED", now, kmtf("SITREP", 9)));

        Qos reliable = Qos.reliable().withDurability(Qos.Durability.TRANSIENT_LOCAL,
                Qos.History.keepLast(SITREP.historyDepth()));
        try (DomainParticipant foreign = DomainParticipant.create(loopback())) {
            DataWriter<KmtfMessageSample> writer = foreign.createWriter(
                    foreign.createTopic(SITREP.topicName(), KmtfTypes.MESSAGE), reliable);
            assertThat(writer.awaitMatched(1, Duration.ofSeconds(10))).isTrue();
            // A precedence no kmtf::Precedence enumerator names: Cyclone itself cannot deserialize it and drops it
            // (logging "deserialization ... failed") before any reader sees it, so it can only stay out of the inbox.
            DataWriter<BogusPrecedence> bogus = foreign.createWriter(
                    foreign.createTopic(SITREP.topicName(), BogusPrecedence.TYPE), reliable);
            assertThat(bogus.awaitMatched(1, Duration.ofSeconds(10))).isTrue();
            bogus.write(new BogusPrecedence("bogus-precedence", "delta", kmtf("SITREP", 10)));
            bogus.flush();
            samples.forEach(writer::write);
            // A message id longer than the binding decodes: Cyclone delivers it, the binding cannot read it.
            writer.write(sample("i".repeat((1 << 20) + 1), "delta", "SITREP", "UNCLASSIFIED", now, kmtf("SITREP", 12)));
            bad.put("(undecodable)", "undecodable");
            writer.flush();

            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
                assertThat(db.count("SELECT count(*) FROM inbox")).isEqualTo(2);
                assertThat(db.count("SELECT count(*) FROM inbound_quarantine")).isEqualTo(bad.size());
            });
            // A good sample written after every bad one still goes in: nothing stalled.
            writer.write(sample("good-3", "delta", "SITREP", "UNCLASSIFIED", Instant.now(), kmtf("SITREP", 11)));
            writer.flush();
            await().atMost(Duration.ofSeconds(30))
                    .until(() -> receipted.containsAll(Set.of("good-1", "good-2", "good-3")));
        }

        assertThat(db.strings("SELECT message_id FROM inbox ORDER BY message_id"))
                .containsExactly("good-1", "good-2", "good-3");
        Map<String, String> quarantined = new TreeMap<>();
        db.strings("SELECT coalesce(nullif(trim(message_id), ''), "
                + "CASE WHEN message_id IS NULL THEN '(undecodable)' ELSE 'blank' END) || '=' || reason_kind "
                + "FROM inbound_quarantine WHERE transport = 'dds'").forEach(row -> {
                    String[] kv = row.split("=", 2);
                    quarantined.put(kv[0], kv[1]);
                });
        assertThat(quarantined).isEqualTo(bad);
        assertThat(db.count("SELECT count(*) FROM inbound_quarantine WHERE reason = '' OR reason IS NULL")).isZero();
        assertThat(db.count("SELECT count(*) FROM inbound_quarantine WHERE message_id = 'oversize' "
                + "AND body_size = " + (SITREP.maxSize() + 1) + " AND topic = '" + SITREP.topicName() + "'"))
                .isEqualTo(1);
        Map<String, Long> counted = new TreeMap<>();
        bad.values().forEach(kind -> counted.merge(kind, 1L, Long::sum));
        Map<String, Long> metric = new TreeMap<>();
        for (Counter c : registry.find(MetricNames.INBOUND_REJECTED).tag(MetricNames.TAG_TRANSPORT, "dds")
                .counters()) {
            metric.put(c.getId().getTag(MetricNames.TAG_REASON), (long) c.count());
        }
        assertThat(metric).isEqualTo(counted);
        assertThat(receipted).containsExactlyInAnyOrder("good-1", "good-2", "good-3");
        assertThat(bravo.stats().samplesInvalid()).isEqualTo(5);
    }

    private static String rejectionKind(String text, String type) {
        try {
            new KmtfValidator(CATALOGUE).validate(text.getBytes(StandardCharsets.UTF_8), type);
        }
        catch (KmtfRejection rejection) {
            return rejection.kind();
        }
        throw new AssertionError(text + " is valid KMTF");
    }

    /** {@code kmtf::KmtfMessage} as a writer with a fifth {@code kmtf::Precedence} enumerator sends it. */
    private record BogusPrecedence(String messageId, String origin, byte[] body) {

        static final DataType<BogusPrecedence> TYPE = DataType.<BogusPrecedence>builder("kmtf::KmtfMessage")
                .string("message_id").string("origin").string("message_type")
                .enumeration("precedence", List.of("FLASH", "IMMEDIATE", "PRIORITY", "ROUTINE", "OVERRIDE"))
                .string("classification").int64("created_at_ns").uint64("seq").int64("sent_at_ns").octets("body")
                .build(new SampleCodec<>() {

                    @Override
                    public void encode(BogusPrecedence sample, SampleEncoder out) {
                        out.string(sample.messageId());
                        out.string(sample.origin());
                        out.string("SITREP");
                        out.enumerator(4);
                        out.string("UNCLASSIFIED");
                        out.int64(System.currentTimeMillis() * 1_000_000L);
                        out.uint64(1);
                        out.int64(0);
                        out.octets(sample.body());
                    }

                    @Override
                    public BogusPrecedence decode(SampleDecoder in) {
                        throw new UnsupportedOperationException("write only");
                    }
                });
    }
}
