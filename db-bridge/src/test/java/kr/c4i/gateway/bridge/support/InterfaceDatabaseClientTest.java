package kr.c4i.gateway.bridge.support;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.stream.IntStream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import kr.c4i.gateway.interfacedb.InboundQuarantineRow;
import kr.c4i.gateway.interfacedb.InboxRow;
import kr.c4i.gateway.interfacedb.InterfaceDatabaseClient;
import kr.c4i.gateway.interfacedb.OutboxMessage;
import kr.c4i.gateway.interfacedb.QuarantineRow;
import kr.c4i.gateway.interfacedb.RawOutboxRow;

/** interface-db-client against the bridge's own schema (this module owns the migrations). */
class InterfaceDatabaseClientTest {

    @TempDir
    static Path dir;

    private static InterfaceDatabase db;
    private static InterfaceDatabaseClient client;

    @BeforeAll
    static void start() throws Exception {
        db = new InterfaceDatabase(dir.resolve("pg"));
        client = db.client();
    }

    @AfterAll
    static void stop() throws Exception {
        db.close();
    }

    @BeforeEach
    void empty() throws SQLException {
        db.execute("TRUNCATE outbox, inbox, quarantine, inbound_quarantine, outbox_delivery");
    }

    @Test
    void insertsLeaveIdPrecedenceAndTimeToTheOutbox() throws Exception {
        client.insert("SITREP", Kmtf.message("SITREP", 1));
        client.insert(new OutboxMessage("OPORD", new byte[] { 'x', (byte) 0xC3 }));

        assertThat(db.strings("SELECT kmtf_type || ' ' || (precedence IS NULL) || ' ' || (created_at IS NOT NULL)"
                + " || ' ' || (message_id <> '') FROM outbox ORDER BY id"))
                .containsExactly("SITREP true true true", "OPORD true true true");
        assertThat(db.strings("SELECT encode(body, 'hex') FROM outbox WHERE kmtf_type = 'OPORD'"))
                .containsExactly("78c3");
        assertThat(client.outboxCount()).isEqualTo(2);
        assertThat(client.unsentCount()).isEqualTo(2);
        assertThat(client.sentCount()).isZero();
    }

    @Test
    void aBatchIsOneStatementOfManyRowsInOrder() throws Exception {
        List<OutboxMessage> batch = IntStream.rangeClosed(1, 500)
                .mapToObj(i -> OutboxMessage.of(i % 2 == 0 ? "SITREP" : "OPORD", "body " + i)).toList();

        assertThat(client.insertAll(batch)).isEqualTo(500);

        assertThat(db.strings("SELECT kmtf_type || ' ' || convert_from(body, 'UTF8') FROM outbox ORDER BY id"))
                .hasSize(500).startsWith("OPORD body 1", "SITREP body 2").endsWith("SITREP body 500");
        // One statement, one transaction: every row carries the same transaction id.
        assertThat(client.count("SELECT count(DISTINCT xmin::text) FROM outbox")).isEqualTo(1);
    }

    @Test
    void numberedRowsAreCountedByTheirPrefix() throws Exception {
        client.insertNumbered("run7", "SITREP", List.of(bytes("one"), bytes("two"), bytes("three")));
        client.insert("SITREP", "other");
        db.execute("UPDATE outbox SET sent_at = clock_timestamp() WHERE message_id = 'run7-2'");
        db.execute("""
                INSERT INTO inbox (message_id, origin_node, kmtf_type, precedence, classification, body, created_at,
                                   transport)
                SELECT message_id, 'a', kmtf_type, 'ROUTINE', 'UNCLASSIFIED', body, created_at, 'jms'
                  FROM outbox WHERE message_id IN ('run7-1', 'run7-2')""");

        assertThat(db.strings("SELECT message_id FROM outbox WHERE message_id LIKE 'run7-%' ORDER BY id"))
                .containsExactly("run7-1", "run7-2", "run7-3");
        InterfaceDatabaseClient.OutboxStats outbox = client.outboxStats("run7");
        assertThat(outbox.rows()).isEqualTo(3);
        assertThat(outbox.unsent()).isEqualTo(2);
        assertThat(outbox.firstCreated()).isNotNull();
        assertThat(outbox.lastSent()).isNotNull();
        InterfaceDatabaseClient.InboxStats inbox = client.inboxStats("run7");
        assertThat(inbox.rows()).isEqualTo(2);
        assertThat(inbox.firstReceived()).isBeforeOrEqualTo(inbox.lastReceived());
        assertThat(client.inboxCount("run7")).isEqualTo(2);
        assertThat(client.inboxCount("run8")).isZero();
        assertThat(client.inboxStats("run8").firstCreated()).isNull();
    }

    @Test
    void aRawRowIsWrittenAsGivenAndTheConstraintsStillJudgeIt() throws Exception {
        long id = client.insertRaw(RawOutboxRow.of("legacy-1", "SITREP", " z ", "text", "2026-11-21 14:30:00+00"));

        assertThat(db.strings("SELECT id || ' ' || message_id || ' ' || precedence || ' ' "
                + "|| extract(epoch FROM created_at)::bigint FROM outbox"))
                .containsExactly(id + " legacy-1  z  " + Instant.parse("2026-11-21T14:30:00Z").getEpochSecond());
        assertThatThrownBy(() -> client.insertRaw(RawOutboxRow.of("inf", "SITREP", null, "text", "infinity")))
                .isInstanceOf(SQLException.class).hasMessageContaining("outbox_created_at_valid");
        db.dropOutboxConstraints();
        long infinite = client.insertRaw(RawOutboxRow.of("inf", "SITREP", null, "text", "infinity"));
        long now = client.insertRaw(RawOutboxRow.of("now", "SITREP", null, "text", null));
        assertThat(db.strings("SELECT created_at::text FROM outbox WHERE id = " + infinite)).containsExactly("infinity");
        assertThat(client.count("SELECT count(*) FROM outbox WHERE id = " + now + " AND created_at <= now() + "
                + "interval '1 minute' AND created_at > now() - interval '1 minute'")).isEqualTo(1);
    }

    @Test
    void readsTheInboxAndBothQuarantinesAsTheBridgeWroteThem() throws Exception {
        db.execute("""
                INSERT INTO inbox (message_id, origin_node, kmtf_type, precedence, classification, body, created_at,
                                   transport)
                VALUES ('m1', 'a', 'SITREP', 'FLASH', 'SECRET', ?, '2026-11-21 14:30:00+00', 'dds')""",
                bytes("MSGID/SITREP//"));
        db.execute("""
                INSERT INTO quarantine (outbox_id, message_id, kmtf_type, reason_kind, reason, body, created_at,
                                        quarantined_by)
                VALUES (42, 'q1', 'NOSUCHTYPE', 'UNKNOWN_TYPE', 'no such type', ?, clock_timestamp(), 'a')""",
                bytes("raw"));
        db.execute("""
                INSERT INTO inbound_quarantine (transport, origin_node, message_id, reason_kind, reason, body, body_size)
                VALUES ('jms', 'b', 'iq1', 'MALFORMED', 'not KMTF', ?, 3), ('dds', NULL, NULL, 'UNDECODABLE', 'bad', NULL,
                        NULL)""", bytes("bad"));

        List<InboxRow> inbox = client.inbox();
        assertThat(inbox).singleElement().satisfies(row -> {
            assertThat(row.messageId()).isEqualTo("m1");
            assertThat(row.originNode()).isEqualTo("a");
            assertThat(row.kmtfType()).isEqualTo("SITREP");
            assertThat(row.precedence()).isEqualTo("FLASH");
            assertThat(row.classification()).isEqualTo("SECRET");
            assertThat(row.text()).isEqualTo("MSGID/SITREP//");
            assertThat(row.createdAt()).isEqualTo(Instant.parse("2026-11-21T14:30:00Z"));
            assertThat(row.receivedAt()).isAfter(row.createdAt());
            assertThat(row.transport()).isEqualTo("dds");
        });
        List<QuarantineRow> quarantine = client.quarantine();
        assertThat(quarantine).singleElement().satisfies(row -> {
            assertThat(row.outboxId()).isEqualTo(42);
            assertThat(row.reasonKind()).isEqualTo("UNKNOWN_TYPE");
            assertThat(row.reason()).isEqualTo("no such type");
            assertThat(row.body()).isEqualTo(bytes("raw"));
            assertThat(row.quarantinedBy()).isEqualTo("a");
        });
        List<InboundQuarantineRow> inbound = client.inboundQuarantine();
        assertThat(inbound).extracting(InboundQuarantineRow::reasonKind).containsExactly("MALFORMED", "UNDECODABLE");
        assertThat(inbound.getFirst().body()).isEqualTo(bytes("bad"));
        assertThat(inbound.getFirst().bodySize()).isEqualTo(3);
        assertThat(inbound.getFirst().timesReceived()).isEqualTo(1);
        assertThat(inbound.getLast().originNode()).isNull();
        assertThat(inbound.getLast().body()).isNull();
        assertThat(inbound.getLast().bodySize()).isNull();
        assertThat(client.inboxCount()).isEqualTo(1);
        assertThat(client.quarantineCount()).isEqualTo(1);
        assertThat(client.inboundQuarantineCount()).isEqualTo(2);
        assertThat(client.quarantineReasons()).containsExactly(java.util.Map.entry("UNKNOWN_TYPE", 1L));
        assertThat(client.unreceiptedCount()).isZero();
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
