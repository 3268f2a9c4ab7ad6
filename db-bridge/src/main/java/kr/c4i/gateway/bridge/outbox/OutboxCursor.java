package kr.c4i.gateway.bridge.outbox;

import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import javax.sql.DataSource;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where the claims start. The outbox has no index on {@code sent_at} (db-bridge V16), so that marking a row sent is a
 * HOT update, written beside the row with no index entry, at a fraction of the cost of one that adds an entry to each
 * of the outbox's indexes (docs/benchmarks.md). Unsent rows are found instead by their ids, which the outbox's
 * sequence hands out in order: a claim reads from {@link #next} on, where the last claim ended.
 *
 * <p>Rows commit in another order than their ids (an application transaction that took id 100 may commit after the
 * one that took 101 was sent), and a claim of another bridge on the database may roll back. So the cursor looks
 * behind itself ({@link #check}): it notes the highest id visible and the transactions writing the outbox at that
 * moment (from {@code pg_locks}: a transaction holds its lock on the outbox from before it takes an id until it
 * ends); once those have all ended, every row below that id is visible or never will be, and one look from
 * {@link #low} on finds any still unsent, where the next claim starts again. Ids written by the application itself
 * below those already sent, or taken from a sequence that caches ids per session, escape that look: a sweep of the
 * whole outbox finds them, at the start and every {@link #SWEEP}.
 *
 * <p>The outbox poller's thread alone uses it.
 */
final class OutboxCursor {

    private static final Logger log = LoggerFactory.getLogger(OutboxCursor.class);

    /** How often the cursor looks behind itself at the most. */
    static final Duration CHECK = Duration.ofMillis(100);

    /** How often it looks through the whole outbox. */
    static final Duration SWEEP = Duration.ofMinutes(5);

    /** No id: where a claim that took no rows resumes. */
    static final long NONE = Long.MIN_VALUE;

    private static final String START = """
            SELECT min(id) FILTER (WHERE sent_at IS NULL), coalesce(max(id), 0) + 1 FROM outbox""";

    // The transactions writing the outbox now, and the highest id visible, read in this order: a row with an id below
    // it that is not visible belongs to a transaction that held its lock before taking the id.
    private static final String HORIZON = """
            SELECT coalesce((SELECT max(id) FROM outbox), 0) + 1,
                   ARRAY(SELECT virtualtransaction FROM pg_locks
                          WHERE locktype = 'relation' AND relation = 'outbox'::regclass AND mode = 'RowExclusiveLock'
                            AND granted AND pid <> pg_backend_pid())""";

    private static final String WRITING = """
            SELECT EXISTS (SELECT 1 FROM pg_locks
                            WHERE locktype = 'relation' AND relation = 'outbox'::regclass
                              AND mode = 'RowExclusiveLock' AND virtualtransaction = ANY (?))""";

    private static final String UNSENT_BELOW = """
            SELECT min(id) FROM outbox WHERE id >= ? AND id < ? AND sent_at IS NULL""";

    private static final String CACHED_IDS = """
            SELECT s.seqcache FROM pg_sequence s WHERE s.seqrelid = pg_get_serial_sequence('outbox', 'id')::regclass""";

    /** The highest id visible plus one, and the transactions writing the outbox when it was read. */
    private record Horizon(long below, List<String> writers) {
    }

    private final DataSource dataSource;
    private boolean started;
    /** Where the next claim starts. */
    private long next;
    /** Every row below is sent, quarantined or never to be; {@link #NONE} until the first look behind (a sweep). */
    private long low = NONE;
    private @Nullable Horizon horizon;
    private Instant nextCheck = Instant.MIN;
    private Instant nextSweep = Instant.MIN;

    OutboxCursor(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    /** Where a claim in {@code tx} starts: on the first, the lowest unsent id (a scan of the whole outbox). */
    long next(Connection tx) throws SQLException {
        if (!started) {
            try (PreparedStatement ps = tx.prepareStatement(START); ResultSet rs = ps.executeQuery()) {
                rs.next();
                long unsent = rs.getLong(1);
                next = rs.wasNull() ? rs.getLong(2) : unsent;
            }
            warnIfIdsAreCached(tx);
            started = true;
        }
        return next;
    }

    /**
     * A claim that committed: the next one starts where it says, after its rows or at the first it left unsent
     * ({@link #NONE}: it claimed none).
     */
    void resumeAt(long id) {
        if (id != NONE) {
            next = id;
        }
    }

    /** Where the unsent rows begin, as far as the cursor knows: the backlog is counted from here. */
    long low() {
        return low == NONE ? next : Math.min(low, next);
    }

    /**
     * Looks behind the claims, at most every {@link #CHECK}.
     *
     * @return whether it found rows to claim behind the cursor, so the next claim starts there and should not wait
     */
    boolean check(Instant now) throws SQLException {
        if (!started || now.isBefore(nextCheck)) {
            return false;
        }
        nextCheck = now.plus(CHECK);
        try (Connection c = dataSource.getConnection()) {
            if (horizon == null) {
                horizon = horizon(c);
                return false;
            }
            if (writing(c, horizon.writers())) {
                return false;
            }
            boolean sweep = low == NONE || !now.isBefore(nextSweep);
            Long unsent = unsentBelow(c, sweep ? Long.MIN_VALUE : low, horizon.below());
            long from = unsent == null ? horizon.below() : unsent;
            if (sweep && low != NONE && unsent != null && unsent < low) {
                log.warn("Outbox row {} is unsent below the rows the bridge had sent (an id the application wrote "
                        + "itself, or one its session had cached); sending it now", unsent);
            }
            low = from;
            if (sweep) {
                nextSweep = now.plus(SWEEP);
            }
            horizon = horizon(c);
            if (unsent != null && unsent < next) {
                next = unsent;
                return true;
            }
            return false;
        }
    }

    private static Horizon horizon(Connection c) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(HORIZON); ResultSet rs = ps.executeQuery()) {
            rs.next();
            List<String> writers = new ArrayList<>();
            Array array = rs.getArray(2);
            for (Object writer : (Object[]) array.getArray()) {
                writers.add((String) writer);
            }
            return new Horizon(rs.getLong(1), List.copyOf(writers));
        }
    }

    private static boolean writing(Connection c, List<String> writers) throws SQLException {
        if (writers.isEmpty()) {
            return false;
        }
        try (PreparedStatement ps = c.prepareStatement(WRITING)) {
            ps.setArray(1, c.createArrayOf("text", writers.toArray()));
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getBoolean(1);
            }
        }
    }

    private static @Nullable Long unsentBelow(Connection c, long from, long below) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(UNSENT_BELOW)) {
            ps.setLong(1, from);
            ps.setLong(2, below);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                long id = rs.getLong(1);
                return rs.wasNull() ? null : id;
            }
        }
    }

    private static void warnIfIdsAreCached(Connection c) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(CACHED_IDS); ResultSet rs = ps.executeQuery()) {
            if (rs.next() && rs.getLong(1) > 1) {
                log.warn("The outbox's id sequence caches {} ids per session: a row can then commit with an id below "
                        + "rows already sent, and waits for the bridge's sweep of the outbox (every {}) to be sent; "
                        + "ALTER SEQUENCE ... CACHE 1 sends it at once", rs.getLong(1), SWEEP);
            }
        }
    }
}
