package kr.c4i.gateway.custody;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import kr.c4i.gateway.bridge.support.InterfaceDatabase;
import kr.c4i.gateway.core.metrics.MetricNames;

/**
 * The custody log index's merger on a node's interface database (a gateway's relay store has the same index): rows
 * written go into GIN's pending list, a merge moves them into the index, and a message is found before and after.
 */
@ExtendWith(OutputCaptureExtension.class)
class CustodyIndexMergerTest {

    @TempDir
    Path dir;

    private InterfaceDatabase db;
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

    @BeforeEach
    void start() throws Exception {
        db = new InterfaceDatabase(dir.resolve("pg"));
    }

    @AfterEach
    void stop() throws Exception {
        db.close();
    }

    private void logged(int rows) throws Exception {
        db.execute("INSERT INTO custody_log (event, hop, message_ids) SELECT 'sent', 'a', "
                + "ARRAY(SELECT 'm-' || i || '-' || j FROM generate_series(1, 50) AS j) FROM generate_series(1, ?) AS i",
                rows);
    }

    /** The rows naming a message, read through the index (a scan would find them whether merged or not). */
    private List<String> found(String messageId) throws Exception {
        return db.strings("SELECT event FROM (SELECT set_config('enable_seqscan', 'off', true)) AS off, custody_log "
                + "WHERE message_ids @> ARRAY['" + messageId + "']");
    }

    @Test
    void idsWaitInThePendingListUntilAMergeAndAreFoundThroughoutAndOnlyOnce() throws Exception {
        CustodyIndexMerger merger = new CustodyIndexMerger(db.dataSource(), registry);
        logged(200);

        assertThat(found("m-17-42")).as("found in the pending list").containsExactly("sent");
        assertThat(merger.merge()).as("pages merged").isPositive();
        assertThat(merger.merge()).as("pages left to merge").isZero();
        assertThat(found("m-17-42")).as("found in the index").containsExactly("sent");
        assertThat(found("m-201-1")).isEmpty();
    }

    @Test
    void aDatabaseAwayIsCountedAndLoggedOnceUntilAMergeWorksAgain(CapturedOutput output) throws Exception {
        CustodyIndexMerger merger = new CustodyIndexMerger(db.dataSource(), registry);
        logged(10);
        db.stop();

        merger.roundQuietly();
        merger.roundQuietly();

        assertThat(registry.get(MetricNames.CUSTODY_INDEX_MERGE_FAILURES).counter().count()).isEqualTo(2);
        assertThat(output.getAll().split("Unable to merge the custody log's index", -1)).hasSize(2);
        db.start();
        merger.roundQuietly();
        assertThat(output).contains("Merging the custody log's index works again");
        assertThat(merger.merge()).as("merged by the round that worked").isZero();
    }
}
