package kr.c4i.gateway.custody;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;

import javax.sql.DataSource;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

import kr.c4i.gateway.core.metrics.MetricNames;

/**
 * Merges the custody log's GIN pending list (the ids of the rows written since the last merge) into the index every
 * {@link #EVERY}: a custody step then only appends its row's ids to the list, and the merge, which sorts many rows'
 * ids into the index at once, never runs inside a step's transaction unless this merger falls behind by the list's
 * whole limit (the migration that turned the list on). While merges fail (the database away, a service account that
 * does not own the index), PostgreSQL's autovacuum and, at the limit, the writing transactions merge the list, so
 * nothing waits for this.
 */
public final class CustodyIndexMerger extends CustodyUpkeep {

    /** How often the list is merged: at a few thousand ids a second, a list of well under a megabyte. */
    static final Duration EVERY = Duration.ofSeconds(1);

    private static final String MERGE = "SELECT gin_clean_pending_list('custody_log_message_ids'::regclass)";

    private final DataSource dataSource;

    public CustodyIndexMerger(DataSource dataSource, MeterRegistry registry) {
        super("custody-index-merger", EVERY, "merge the custody log's index (autovacuum merges it meanwhile)",
                "Merging the custody log's index", Counter.builder(MetricNames.CUSTODY_INDEX_MERGE_FAILURES)
                        .description("Custody log index merges that failed").register(registry));
        this.dataSource = dataSource;
    }

    @Override
    void round() throws SQLException {
        merge();
    }

    /** @return the pending list's pages merged into the index */
    long merge() throws SQLException {
        try (Connection c = dataSource.getConnection(); Statement s = c.createStatement();
                ResultSet rs = s.executeQuery(MERGE)) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
