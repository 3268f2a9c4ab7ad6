package kr.c4i.gateway.custody;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import javax.sql.DataSource;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

import kr.c4i.gateway.core.metrics.MetricNames;

/**
 * Merges the custody log's GIN pending list (the ids of the rows written since the last merge) into the index, on a
 * thread of its own every {@link #EVERY}: a custody step then only appends its row's ids to the list, and the merge,
 * which sorts many rows' ids into the index at once, never runs inside a step's transaction unless this merger falls
 * behind by the list's whole limit (the migration that turned the list on). A merge that fails (the database away,
 * a service account that does not own the index) is counted and logged once until one succeeds; meanwhile
 * PostgreSQL's autovacuum and, at the limit, the writing transactions merge the list, so nothing waits for this.
 */
public final class CustodyIndexMerger implements SmartLifecycle {

    /** How often the list is merged: at a few thousand ids a second, a list of well under a megabyte. */
    static final Duration EVERY = Duration.ofSeconds(1);

    private static final String MERGE = "SELECT gin_clean_pending_list('custody_log_message_ids'::regclass)";

    private static final Logger log = LoggerFactory.getLogger(CustodyIndexMerger.class);

    private final DataSource dataSource;
    private final Counter failures;
    private @Nullable ScheduledExecutorService scheduler;
    private boolean failing;

    public CustodyIndexMerger(DataSource dataSource, MeterRegistry registry) {
        this.dataSource = dataSource;
        this.failures = Counter.builder(MetricNames.CUSTODY_INDEX_MERGE_FAILURES)
                .description("Custody log index merges that failed").register(registry);
    }

    /** One merge, as the merger's thread runs it: failures are counted and logged, never thrown. */
    void mergeQuietly() {
        try {
            merge();
            if (failing) {
                failing = false;
                log.info("Merging the custody log's index works again");
            }
        }
        catch (SQLException | RuntimeException ex) {
            failures.increment();
            if (!failing) {
                failing = true;
                log.warn("Unable to merge the custody log's index (tried again every {}; not logged again until it "
                        + "works; autovacuum merges it meanwhile): {}", EVERY, ex.toString());
            }
        }
    }

    /** @return the pending list's pages merged into the index */
    long merge() throws SQLException {
        try (Connection c = dataSource.getConnection(); Statement s = c.createStatement();
                ResultSet rs = s.executeQuery(MERGE)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    @Override
    public synchronized void start() {
        if (scheduler != null) {
            return;
        }
        scheduler = Executors.newSingleThreadScheduledExecutor(
                Thread.ofPlatform().daemon().name("custody-index-merger").factory());
        scheduler.scheduleWithFixedDelay(this::mergeQuietly, EVERY.toMillis(), EVERY.toMillis(),
                TimeUnit.MILLISECONDS);
    }

    @Override
    public synchronized void stop() {
        if (scheduler == null) {
            return;
        }
        scheduler.shutdownNow();
        try {
            scheduler.awaitTermination(5, TimeUnit.SECONDS);
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
        scheduler = null;
    }

    @Override
    public synchronized boolean isRunning() {
        return scheduler != null;
    }
}
