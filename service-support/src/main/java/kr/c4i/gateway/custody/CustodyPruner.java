package kr.c4i.gateway.custody;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;

import javax.sql.DataSource;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

import kr.c4i.gateway.core.metrics.MetricNames;

/**
 * Deletes from the custody log, every prune interval, the rows past their retention and then the oldest rows over
 * its bound, {@value #BATCH} rows a statement. A statement takes only the oldest rows, which no custody step touches,
 * and skips those the pruner of the node's other bridge (or of the site's other gateway) holds, so pruning never
 * waits for nor holds up data.
 */
public final class CustodyPruner extends CustodyUpkeep {

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

    private final DataSource dataSource;
    private final CustodyProperties properties;
    private final Counter prunedByAge;
    private final Counter prunedByBound;

    public CustodyPruner(DataSource dataSource, CustodyProperties properties, MeterRegistry registry) {
        super("custody-pruner", properties.pruneInterval(), "prune the custody log", "Pruning the custody log",
                Counter.builder(MetricNames.CUSTODY_PRUNE_FAILURES).description("Custody log pruning rounds that failed")
                        .register(registry));
        this.dataSource = dataSource;
        this.properties = properties;
        this.prunedByAge = Counter.builder(MetricNames.CUSTODY_PRUNED).tag(MetricNames.TAG_REASON, "age")
                .description("Custody log rows deleted past their retention").register(registry);
        this.prunedByBound = Counter.builder(MetricNames.CUSTODY_PRUNED).tag(MetricNames.TAG_REASON, "bound")
                .description("Custody log rows deleted over the log's bound").register(registry);
    }

    @Override
    void round() throws SQLException {
        prune();
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
}
