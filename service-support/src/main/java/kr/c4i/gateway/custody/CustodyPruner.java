package kr.c4i.gateway.custody;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
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
 * Deletes from the custody log, on a thread of its own every prune interval, the rows past their retention and then
 * the oldest rows over its bound, {@value #BATCH} rows a statement. A statement takes only the oldest rows, which no
 * custody step touches, and skips those the pruner of the node's other bridge (or of the site's other gateway) holds,
 * so pruning never waits for nor holds up data. A round that fails (the database away) is counted and tried again at
 * the next; it is logged once until a round succeeds again.
 */
public final class CustodyPruner implements SmartLifecycle {

    /** Rows deleted by one statement. */
    static final int BATCH = 1000;

    /** Statements per round and reason at most: a retention cut short is caught up over a few rounds. */
    static final int MAX_BATCHES = 100;

    // The oldest rows by id (ids and times grow together), those of them past the retention: the primary key finds
    // them at once however large the table, where a scan for old times would read it whole when there are none. Only
    // those are locked: a round with nothing to prune writes nothing.
    private static final String BY_AGE = """
            DELETE FROM custody_log WHERE id IN (
                SELECT id FROM custody_log
                 WHERE id IN (SELECT id FROM custody_log ORDER BY id LIMIT ?)
                   AND at < clock_timestamp() - ? * interval '1 millisecond'
                   FOR UPDATE SKIP LOCKED)""";

    // The rows below the newest maxRows ids. Ids of rolled-back steps are never used, so a little less than the bound
    // may be kept: never more.
    private static final String BY_BOUND = """
            DELETE FROM custody_log WHERE id IN (
                SELECT id FROM custody_log WHERE id <= (SELECT max(id) FROM custody_log) - ?
                 ORDER BY id LIMIT ? FOR UPDATE SKIP LOCKED)""";

    private static final Logger log = LoggerFactory.getLogger(CustodyPruner.class);

    private final DataSource dataSource;
    private final CustodyProperties properties;
    private final Counter prunedByAge;
    private final Counter prunedByBound;
    private final Counter failures;
    private @Nullable ScheduledExecutorService scheduler;
    private boolean failing;

    public CustodyPruner(DataSource dataSource, CustodyProperties properties, MeterRegistry registry) {
        this.dataSource = dataSource;
        this.properties = properties;
        this.prunedByAge = Counter.builder(MetricNames.CUSTODY_PRUNED).tag(MetricNames.TAG_REASON, "age")
                .description("Custody log rows deleted past their retention").register(registry);
        this.prunedByBound = Counter.builder(MetricNames.CUSTODY_PRUNED).tag(MetricNames.TAG_REASON, "bound")
                .description("Custody log rows deleted over the log's bound").register(registry);
        this.failures = Counter.builder(MetricNames.CUSTODY_PRUNE_FAILURES)
                .description("Custody log pruning rounds that failed").register(registry);
    }

    /** One round, as the pruner's thread runs it: failures are counted and logged, never thrown. */
    void pruneQuietly() {
        try {
            prune();
            if (failing) {
                failing = false;
                log.info("Pruning the custody log works again");
            }
        }
        catch (SQLException | RuntimeException ex) {
            failures.increment();
            if (!failing) {
                failing = true;
                log.warn("Unable to prune the custody log (tried again every {}; not logged again until it works): {}",
                        properties.pruneInterval(), ex.toString());
            }
        }
    }

    /** Rows one round deleted. */
    record Pruned(long byAge, long byBound) {
    }

    Pruned prune() throws SQLException {
        long byAge = 0;
        for (int i = 0; i < MAX_BATCHES; i++) {
            int deleted = delete(BY_AGE, BATCH, properties.retention().toMillis());
            byAge += deleted;
            if (deleted == 0) {
                break;
            }
        }
        prunedByAge.increment(byAge);
        long byBound = 0;
        for (int i = 0; i < MAX_BATCHES; i++) {
            int deleted = delete(BY_BOUND, properties.maxRows(), BATCH);
            byBound += deleted;
            if (deleted < BATCH) {
                break;
            }
        }
        prunedByBound.increment(byBound);
        return new Pruned(byAge, byBound);
    }

    private int delete(String sql, long first, long second) throws SQLException {
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setLong(1, first);
            ps.setLong(2, second);
            return ps.executeUpdate();
        }
    }

    @Override
    public synchronized void start() {
        if (scheduler != null) {
            return;
        }
        Duration every = properties.pruneInterval();
        scheduler = Executors.newSingleThreadScheduledExecutor(
                Thread.ofPlatform().daemon().name("custody-pruner").factory());
        scheduler.scheduleWithFixedDelay(this::pruneQuietly, every.toMillis(), every.toMillis(), TimeUnit.MILLISECONDS);
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
