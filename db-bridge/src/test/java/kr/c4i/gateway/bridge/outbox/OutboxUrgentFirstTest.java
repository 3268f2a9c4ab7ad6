package kr.c4i.gateway.bridge.outbox;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import kr.c4i.gateway.bridge.support.InterfaceDatabase;
import kr.c4i.gateway.bridge.support.Kmtf;
import kr.c4i.gateway.bridge.support.RecordingTransport;
import kr.c4i.gateway.kmtf.catalogue.KmtfCatalogue;

/**
 * A bridge behind its outbox sends the FLASH and IMMEDIATE rows written behind the backlog first, FLASH first, whether
 * the row says so or its type's default does; every other row still goes once, in id order, and none is passed over.
 * In the default catalogue EXORD defaults to FLASH, OPORD to IMMEDIATE and SITREP to PRIORITY.
 */
class OutboxUrgentFirstTest {

    private static final KmtfCatalogue CATALOGUE = KmtfCatalogue.loadDefault();

    @TempDir
    Path dir;

    private InterfaceDatabase db;
    private final RecordingTransport transport = new RecordingTransport();
    private OutboxRepository outbox;
    private OutboxPublisher publisher;
    private int serial;

    @BeforeEach
    void start() throws Exception {
        db = new InterfaceDatabase(dir.resolve("pg"));
        outbox = new OutboxRepository(db.dataSource(), CATALOGUE);
        publisher = OutboxLoop.publisher(db.dataSource(), outbox, CATALOGUE, transport, 3);
    }

    @AfterEach
    void stop() throws Exception {
        db.close();
    }

    private void insert(String messageId, String type, @Nullable String precedence) throws Exception {
        db.execute("INSERT INTO outbox (message_id, kmtf_type, precedence, body) "
                + "VALUES (?, ?, ?, convert_to(?, 'UTF8'))", messageId, type, precedence,
                Kmtf.message(type, ++serial));
    }

    private void routine(int count) throws Exception {
        for (int i = 0; i < count; i++) {
            insert("r-" + serial, "SITREP", "ROUTINE");
        }
    }

    private List<String> sent() {
        return transport.sent.stream().map(o -> o.envelope().messageId()).toList();
    }

    private List<String> drain(int limit) throws Exception {
        for (int batches = 0; publisher.publishBatch(limit) == limit; batches++) {
            assertThat(batches).as("batches to drain the outbox").isLessThan(100);
        }
        return sent();
    }

    @Test
    void aBridgeBehindItsOutboxSendsTheUrgentRowsWrittenBehindTheBacklogFirstAndFlashBeforeImmediate()
            throws Exception {
        routine(25);
        insert("immediate-own", "SITREP", " o ");
        insert("routine-of-a-flash-type", "EXORD", "routine");
        insert("flash-by-type", "EXORD", null);
        insert("immediate-by-type", "OPORD", null);
        insert("flash-own", "SITREP", "Flash");
        routine(5);

        assertThat(publisher.publishBatch(10)).isEqualTo(10);

        assertThat(sent()).as("the first claim of a bridge just started looks ahead")
                .containsExactly("flash-by-type", "flash-own", "immediate-own", "immediate-by-type", "r-0", "r-1",
                        "r-2", "r-3", "r-4", "r-5");
        List<String> all = drain(10);
        assertThat(all).hasSize(35).doesNotHaveDuplicates();
        List<String> inOrder = new ArrayList<>(all.subList(4, all.size()));
        assertThat(inOrder).as("the rest in id order, a ROUTINE row of a FLASH type among them").containsExactly(
                List.of("r-0", "r-1", "r-2", "r-3", "r-4", "r-5", "r-6", "r-7", "r-8", "r-9", "r-10", "r-11", "r-12",
                        "r-13", "r-14", "r-15", "r-16", "r-17", "r-18", "r-19", "r-20", "r-21", "r-22", "r-23", "r-24",
                        "routine-of-a-flash-type", "r-30", "r-31", "r-32", "r-33", "r-34").toArray(String[]::new));
        assertThat(db.count("SELECT count(*) FROM outbox WHERE sent_at IS NULL")).isZero();
        assertThat(outbox.backlog()).isZero();
    }

    @Test
    void aBridgeThatKeepsUpSendsInIdOrderAndLooksAheadOnceAClaimIsFull() throws Exception {
        routine(3);
        assertThat(publisher.publishBatch(10)).isEqualTo(3);
        routine(12);
        insert("flash", "EXORD", null);

        assertThat(publisher.publishBatch(10)).as("the last claim was not full").isEqualTo(10);
        assertThat(sent()).doesNotContain("flash");
        assertThat(publisher.publishBatch(10)).isEqualTo(3);
        assertThat(sent().subList(13, 16)).as("after a full claim, urgent rows first").containsExactly("flash",
                "r-13", "r-14");
    }

    @Test
    void anUrgentRowThatFailsAloneIsTriedAgainAndQuarantinedWhileTheRestGoOnceEach() throws Exception {
        routine(4);
        insert("failing-immediate", "OPORD", null);
        routine(20);
        transport.explode("OPORD");

        List<String> all = drain(5);

        assertThat(all).hasSize(24).doesNotHaveDuplicates().doesNotContain("failing-immediate");
        assertThat(db.strings("SELECT message_id || ' ' || reason_kind FROM quarantine"))
                .containsExactly("failing-immediate " + OutboxPublisher.REPEATED_FAILURE);
        assertThat(db.count("SELECT count(*) FROM outbox WHERE sent_at IS NULL")).isZero();
    }

    @Test
    void whileThePollerIsolatesAFailureRowByRowItClaimsInIdOrderSoTheFailingRowIsTheOneClaimed() throws Exception {
        routine(3);
        insert("flash", "EXORD", null);

        assertThat(publisher.publishBatch(1, true)).isEqualTo(1);
        assertThat(publisher.publishBatch(1, true)).isEqualTo(1);
        assertThat(sent()).as("isolating: the rows in id order, the urgent one not ahead")
                .containsExactly("r-0", "r-1");
        assertThat(publisher.publishBatch(1, false)).isEqualTo(1);
        assertThat(sent().getLast()).as("after the isolation, a full claim looks ahead again").isEqualTo("flash");
    }
}
