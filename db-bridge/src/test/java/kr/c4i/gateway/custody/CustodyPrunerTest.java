package kr.c4i.gateway.custody;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;

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
 * The custody log's pruner on a node's interface database (the gateway's relay store has the same table): by age,
 * by bound, oldest first, and never failing. Rows are written with their times, so nothing waits for a clock.
 */
@ExtendWith(OutputCaptureExtension.class)
class CustodyPrunerTest {

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

    private CustodyPruner pruner(Duration retention, long maxRows) {
        return new CustodyPruner(db.dataSource(), new CustodyProperties(true, retention, maxRows,
                Duration.ofMinutes(1), true), registry);
    }

    /** {@code count} rows named {@code prefix-1...}, logged {@code age} ago, in that order. */
    private void logged(String prefix, int count, String age) throws Exception {
        db.execute("INSERT INTO custody_log (at, event, hop, message_ids) SELECT clock_timestamp() - ?::interval, "
                + "'sent', 'a', ARRAY[? || '-' || i] FROM generate_series(1, ?) AS i ORDER BY i", age, prefix, count);
    }

    private double pruned(String reason) {
        return registry.get(MetricNames.CUSTODY_PRUNED).tag(MetricNames.TAG_REASON, reason).counter().count();
    }

    @Test
    void rowsPastTheRetentionGoInBatchesAndTheRestStays() throws Exception {
        logged("old", CustodyPruner.BATCH * 2 + 500, "8 days");
        logged("new", 3, "6 days 23 hours");

        CustodyPruner.Pruned pruned = pruner(Duration.ofDays(7), 1_000_000).prune();

        assertThat(pruned).isEqualTo(new CustodyPruner.Pruned(CustodyPruner.BATCH * 2 + 500, 0));
        assertThat(db.strings("SELECT message_ids[1] FROM custody_log ORDER BY id")).containsExactly("new-1", "new-2",
                "new-3");
        assertThat(pruned("age")).isEqualTo(CustodyPruner.BATCH * 2 + 500);
    }

    @Test
    void overTheBoundTheOldestRowsGoFirst() throws Exception {
        logged("m", 12, "1 minute");

        CustodyPruner.Pruned pruned = pruner(Duration.ofDays(7), 5).prune();

        assertThat(pruned).isEqualTo(new CustodyPruner.Pruned(0, 7));
        assertThat(db.strings("SELECT message_ids[1] FROM custody_log ORDER BY id")).containsExactly("m-8", "m-9",
                "m-10", "m-11", "m-12");
        assertThat(pruned("bound")).isEqualTo(7);
        assertThat(pruner(Duration.ofDays(7), 5).prune()).as("at the bound").isEqualTo(new CustodyPruner.Pruned(0, 0));
    }

    @Test
    void aDatabaseAwayIsCountedAndLoggedOnceAndTheNextRoundCatchesUp(CapturedOutput output) throws Exception {
        logged("old", 4, "8 days");
        CustodyPruner pruner = pruner(Duration.ofDays(7), 1_000_000);
        db.stop();

        pruner.roundQuietly();
        pruner.roundQuietly();

        assertThat(registry.get(MetricNames.CUSTODY_PRUNE_FAILURES).counter().count()).isEqualTo(2);
        assertThat(output.getAll().split("Unable to prune the custody log", -1)).hasSize(2);
        db.start();
        pruner.roundQuietly();
        assertThat(output).contains("Pruning the custody log works again");
        assertThat(db.count("SELECT count(*) FROM custody_log")).isZero();
    }
}
