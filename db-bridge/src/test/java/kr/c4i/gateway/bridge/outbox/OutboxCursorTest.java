package kr.c4i.gateway.bridge.outbox;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Instant;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import kr.c4i.gateway.bridge.support.InterfaceDatabase;
import kr.c4i.gateway.bridge.support.Kmtf;
import kr.c4i.gateway.bridge.support.RecordingTransport;
import kr.c4i.gateway.kmtf.catalogue.KmtfCatalogue;

/**
 * Claims find unsent rows by id from where the last ones ended, with no index on sent_at: a row that commits after
 * rows with higher ids were sent, a gap a rolled-back insert leaves and a row the application wrote with an id of its
 * own below the ones sent are each found, by looking behind the claims once the transactions writing the outbox at a
 * look have ended, or by the sweep of the whole outbox. Times are passed in, so no test waits for them.
 */
class OutboxCursorTest {

    private static final KmtfCatalogue CATALOGUE = KmtfCatalogue.loadDefault();

    @TempDir
    Path dir;

    private InterfaceDatabase db;
    private final RecordingTransport transport = new RecordingTransport();
    private OutboxRepository outbox;
    private OutboxPublisher publisher;
    private Instant now = Instant.parse("2026-11-27T05:00:00Z");

    @BeforeEach
    void start() throws Exception {
        db = new InterfaceDatabase(dir.resolve("pg"));
        outbox = new OutboxRepository(db.dataSource());
        publisher = OutboxLoop.publisher(db.dataSource(), outbox, CATALOGUE, transport, 5);
    }

    @AfterEach
    void stop() throws Exception {
        db.close();
    }

    private void insert(String messageId) throws Exception {
        db.execute("INSERT INTO outbox (message_id, kmtf_type, body) VALUES (?, 'SITREP', convert_to(?, 'UTF8'))",
                messageId, Kmtf.message("SITREP", messageId.hashCode()));
    }

    private List<String> sent() {
        return transport.sent.stream().map(o -> o.envelope().messageId()).toList();
    }

    /** Looks behind the claims, a check interval later each time. */
    private boolean check() throws Exception {
        now = now.plus(OutboxCursor.CHECK);
        return outbox.checkBehind(now);
    }

    @Test
    void aRowThatCommitsAfterRowsWithHigherIdsWereSentIsFoundOnceItsTransactionHasEnded() throws Exception {
        try (Connection application = db.dataSource().getConnection()) {
            application.setAutoCommit(false);
            try (PreparedStatement ps = application.prepareStatement("INSERT INTO outbox (message_id, kmtf_type, body) "
                    + "VALUES ('late', 'SITREP', convert_to(?, 'UTF8'))")) {
                ps.setString(1, Kmtf.message("SITREP", 1));
                ps.executeUpdate();
            }
            insert("m-2");
            insert("m-3");
            assertThat(publisher.publishBatch(100)).isEqualTo(2);

            assertThat(check()).as("a first look notes who writes the outbox").isFalse();
            assertThat(check()).as("the application's transaction is still open").isFalse();
            application.commit();
        }
        assertThat(check()).as("it has ended: the late row is behind the claims").isTrue();
        assertThat(publisher.publishBatch(100)).isEqualTo(1);

        assertThat(sent()).containsExactly("m-2", "m-3", "late");
        assertThat(db.count("SELECT count(*) FROM outbox WHERE sent_at IS NULL")).isZero();
        assertThat(outbox.backlog()).isZero();
    }

    @Test
    void aGapARolledBackInsertLeavesIsPassedAndTheBacklogCountedFromAboveIt() throws Exception {
        try (Connection application = db.dataSource().getConnection()) {
            application.setAutoCommit(false);
            try (PreparedStatement ps = application.prepareStatement("INSERT INTO outbox (kmtf_type, body) "
                    + "VALUES ('SITREP', convert_to(?, 'UTF8'))")) {
                ps.setString(1, Kmtf.message("SITREP", 1));
                ps.executeUpdate();
            }
            insert("m-2");
            assertThat(publisher.publishBatch(100)).isEqualTo(1);
            check();
            application.rollback();
        }
        assertThat(check()).as("nothing behind: the gap is passed").isFalse();
        insert("m-3");
        insert("m-4");

        assertThat(outbox.backlog()).isEqualTo(2);
        assertThat(publisher.publishBatch(100)).isEqualTo(2);
        assertThat(sent()).containsExactly("m-2", "m-3", "m-4");
    }

    @Test
    void aRowTheApplicationWroteWithAnIdBelowTheSentOnesIsFoundByTheSweep() throws Exception {
        insert("m-1");
        insert("m-2");
        assertThat(publisher.publishBatch(100)).isEqualTo(2);
        check();
        assertThat(check()).as("the first look through the whole outbox").isFalse();

        db.execute("INSERT INTO outbox (id, message_id, kmtf_type, body) VALUES (-7, 'own-id', 'SITREP', "
                + "convert_to(?, 'UTF8'))", Kmtf.message("SITREP", 7));
        for (int i = 0; i < 5; i++) {
            assertThat(check()).as("a look behind starts where every row was sent").isFalse();
        }
        now = now.plus(OutboxCursor.SWEEP);
        assertThat(check()).as("the sweep").isTrue();
        assertThat(publisher.publishBatch(100)).isEqualTo(1);

        assertThat(sent()).containsExactly("m-1", "m-2", "own-id");
    }
}
