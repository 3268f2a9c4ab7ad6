package kr.c4i.gateway.wan.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

import javax.sql.DataSource;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import kr.c4i.gateway.core.Envelope;
import kr.c4i.gateway.core.HopTrace;
import kr.c4i.gateway.core.NodeId;
import kr.c4i.gateway.core.TraceParent;
import kr.c4i.gateway.core.link.SiteId;
import kr.c4i.gateway.custody.CustodyEvent;
import kr.c4i.gateway.custody.CustodyLog;
import kr.c4i.gateway.jdbc.BinaryCopyRows;
import kr.c4i.gateway.jdbc.Transactions;
import kr.c4i.gateway.kmtf.catalogue.Precedence;
import kr.c4i.gateway.wan.relay.RelayedEnvelope;
import kr.c4i.gateway.wan.schedule.Backlog;
import kr.c4i.gateway.wan.schedule.Waiting;

/**
 * The gateway's durable store of relayed copies (table {@code relay_copy}), one per route and message, and the
 * in-memory backlog per route that the scheduler takes from without asking the database.
 * <ul>
 * <li>{@link #accept} stores a batch in one transaction that is on disk when it returns (custody).</li>
 * <li>The store is bounded in bytes across all routes, with tiers by precedence ({@link StoreLimits}): a copy that
 * would fill the store past its precedence's tier is refused, never one already stored evicted.</li>
 * <li>A copy with a supersede key replaces the waiting copy of its route with the same key, in the same
 * transaction.</li>
 * <li>A copy the table holds for its route already is absorbed as a duplicate: the check is in memory
 * ({@link HeldCopies}), since one gateway process writes the store.</li>
 * <li>What is stored is also kept in memory up to a bound ({@link CopyCache}), so sending and delivering read no
 * rows; a removed copy is forgotten at once and deleted from the table with the others of a short round.</li>
 * <li>The backlog is read from the table when the store is made, so a restarted gateway resumes where it stopped;
 * copies that were in flight are waiting again.</li>
 * <li>The custody log records each copy stored, and each copy removed (acknowledged, delivered, expired, dropped), in
 * the transaction that writes it to the table or deletes it from there.</li>
 * </ul>
 * Times are kept to the microsecond, as PostgreSQL keeps them; a copy's trace as its text ({@link HopTrace#format}),
 * each hop's time to the millisecond after the message's creation; its trace context as the traceparent's text, or
 * NULL (V12).
 */
public final class RelayStore implements AutoCloseable {

    /**
     * Where the store's Flyway migrations are, as {@code spring.flyway.locations} names them: not db-bridge's
     * {@code db/migration}, since the tools' jar carries both services.
     */
    public static final String MIGRATIONS = "classpath:db/wan-store";

    // The store gives each copy its id (one process writes the table: see OWNERSHIP_LOCK), so a batch is written with
    // COPY, which returns nothing, instead of an INSERT that returns each row's id.
    private static final String COPY = """
            COPY relay_copy (id, route, message_id, origin_node, kmtf_type, precedence, classification, created_at, body,
                             crossed, bound_for, bytes, supersede_key, stored_at, trace, trace_parent)
            FROM STDIN (FORMAT binary)""";

    private static final int COPY_FIELDS = 16;
    // What a row takes in the COPY stream besides its copy's bytes: field lengths, numbers and array headers.
    private static final int COPY_ROW_OVERHEAD = 128;

    private static final String DELETE = "DELETE FROM relay_copy WHERE id = ANY(?) RETURNING id, route";

    private static final String LOAD = """
            SELECT id, message_id, origin_node, kmtf_type, precedence, classification,
                   (extract(epoch FROM created_at) * 1000000)::bigint, body, crossed, bound_for, trace, trace_parent
              FROM relay_copy WHERE id = ANY(?)""";

    private static final String BACKLOG = """
            SELECT id, route, message_id, precedence, kmtf_type, bytes,
                   (extract(epoch FROM created_at) * 1000000)::bigint, (extract(epoch FROM stored_at) * 1000000)::bigint,
                   supersede_key,
                   CASE WHEN kmtf_type <> '%s' THEN origin_node END
              FROM relay_copy ORDER BY id""".formatted(ForwardedStep.TYPE);

    private static final Precedence[] PRECEDENCES = Precedence.values();

    /** The key of the session-level advisory lock an open store holds on its database ("RELAY" in ASCII). */
    static final long OWNERSHIP_LOCK = 0x52454C4159L;

    /**
     * The key of the advisory lock each write of the store takes shared for its transaction ("RELAW"). An owner
     * that has just taken the store takes it alone once: it waits for, or ends, writes a predecessor began before it
     * lost the store, so none of them commits after the new owner has read the backlog.
     */
    static final long WRITE_LOCK = 0x52454C4157L;

    /**
     * The fence of every write: in its transaction, under {@link #WRITE_LOCK} shared, that the session holding the
     * store's lock is still this store's. A predecessor that was frozen, or cut off, and runs on writes nothing.
     */
    private static final String WRITE_GUARD = """
            WITH w AS MATERIALIZED (SELECT pg_advisory_xact_lock_shared(?))
            SELECT EXISTS (SELECT 1 FROM pg_locks l
                            WHERE l.locktype = 'advisory' AND l.granted AND l.classid = ? AND l.objid = ?
                              AND l.objsubid = 1 AND l.pid = ?)
              FROM w""";

    /** The store lock's session as pg_stat_activity names it: a lone gateway's, or one of a pair's. */
    static final String LONE_GATEWAY = "relay store of a lone gateway";
    static final String PAIRED_GATEWAY = "relay store of a gateway pair";

    /** How often a pair's new leader asks again for the store lock its predecessor still holds. */
    private static final Duration FENCE_POLL = Duration.ofMillis(100);

    /** How long a new owner tries to end a predecessor's writes before it gives up opening the store. */
    private static final Duration FENCE_WRITES_WITHIN = Duration.ofSeconds(30);

    /**
     * The sessions that hold an advisory lock of the store (its lock, or its write lock): process, client, since when,
     * and which kind of gateway's (a bigint key shows in pg_locks as its high and low 32 bits).
     */
    private static final String HOLDERS = """
            SELECT a.pid, coalesce(host(a.client_addr), 'a local socket'), a.backend_start, a.application_name
              FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
             WHERE l.locktype = 'advisory' AND l.granted AND l.classid = ? AND l.objid = ? AND l.objsubid = 1
               AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())""";

    /**
     * The default of how many bytes of stored copies are kept in memory as well
     * ({@code gateway.wan.store.cache-size}).
     */
    public static final long DEFAULT_CACHE_BYTES = 64L * 1024 * 1024;
    /** {@link #DEFAULT_CACHE_BYTES} as a property value, for the one statement of the default. */
    public static final String DEFAULT_CACHE_SIZE = "64MB";

    /**
     * How long a removed copy may stay in the table before it is deleted with the others removed meanwhile: one
     * delete a round instead of one per receipt and delivery halves the transactions of a gateway at a low rate.
     */
    static final Duration REMOVAL_DELAY = Duration.ofMillis(10);

    /** What the custody log says a step on this site's LAN went over. */
    public static final String LAN_LINK = "lan";

    private static final Logger log = LoggerFactory.getLogger(RelayStore.class);

    private final DataSource dataSource;
    private final StoreLimits limits;
    private final Clock clock;
    private final ConcurrentMap<Route, RouteBacklog> backlogs = new ConcurrentHashMap<>();
    // One string per type name for the whole backlog, not one per stored copy.
    private final ConcurrentMap<String, String> typeNames = new ConcurrentHashMap<>();
    // The same for the origins of copies read back from the table.
    private final ConcurrentMap<String, NodeId> nodes = new ConcurrentHashMap<>();
    // Guards storedBytes, reservedBytes and held; taken before a backlog's monitor, never after.
    private final Object capacity = new Object();
    private final HeldCopies held = new HeldCopies();
    // A session lock held while the store is open: HeldCopies is the truth only if one process writes the table.
    private @Nullable Connection ownership;
    /** The PostgreSQL process of the ownership session: writes check that it still holds the store's lock. */
    private volatile int ownerPid;
    /** Whether this store was opened as a pair member's, which names its lock session so. */
    private volatile boolean paired;
    /** Set when a write found the lock session gone: the next write first tries to take the lock again. */
    private volatile boolean ownershipLost;
    private final AtomicBoolean closed = new AtomicBoolean();
    private long storedBytes;
    // The id of the last copy stored or being stored; ids only grow while the store is open.
    private long lastId;
    // Bytes of copies being stored by accept calls under way, so that concurrent calls cannot overfill the store.
    private long reservedBytes;
    private final Map<Precedence, LongAdder> refusals = new EnumMap<>(Precedence.class);
    private final LongAdder duplicates = new LongAdder();
    private final LongAdder superseded = new LongAdder();
    private final RelayQuarantine quarantine;
    private final ForwardedCustody forwardedCustody;
    private final CopyCache cache;
    private final CustodyLog custody;
    // Removed copies not yet deleted from the table, by id, and the thread that deletes them.
    private final Map<Long, Removed> removals = new HashMap<>();
    private final Object deleting = new Object();
    private @Nullable ScheduledExecutorService deleter;
    private final AtomicLong failedDeletes = new AtomicLong();

    /**
     * A store over a database that has the {@code relay_copy} and {@code relay_quarantine} tables (Flyway
     * migrations), opened at once, that logs no custody steps.
     *
     * @throws IllegalStateException as {@link #open} does
     */
    public static RelayStore opened(DataSource dataSource, StoreLimits limits, Clock clock) {
        return opened(dataSource, limits, DEFAULT_CACHE_BYTES, clock);
    }

    /** {@link #opened(DataSource, StoreLimits, Clock)} with a cache of {@code cacheBytes}. */
    public static RelayStore opened(DataSource dataSource, StoreLimits limits, long cacheBytes, Clock clock) {
        return opened(dataSource, limits, cacheBytes, clock, CustodyLog.off());
    }

    /** {@link #opened(DataSource, StoreLimits, long, Clock)}, logging its custody steps in {@code custody}. */
    public static RelayStore opened(DataSource dataSource, StoreLimits limits, long cacheBytes, Clock clock,
            CustodyLog custody) {
        RelayStore store = new RelayStore(dataSource, limits, cacheBytes, clock, custody);
        store.open(null);
        return store;
    }

    /**
     * A store not open yet: it reads nothing until {@link #open}, so that a standby gateway holds one without
     * touching the leader's.
     *
     * @param cacheBytes the most bytes of stored copies also kept in memory, so that sending and delivering them
     *        reads no rows (0 keeps none)
     * @param custody where the store logs its custody steps: this site's, over its WAN link
     */
    public RelayStore(DataSource dataSource, StoreLimits limits, long cacheBytes, Clock clock, CustodyLog custody) {
        this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
        this.cache = new CopyCache(cacheBytes);
        this.limits = Objects.requireNonNull(limits, "limits");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.custody = Objects.requireNonNull(custody, "custody");
        this.quarantine = new RelayQuarantine(dataSource, clock, custody);
        this.forwardedCustody = new ForwardedCustody(dataSource);
        for (Precedence precedence : PRECEDENCES) {
            refusals.put(precedence, new LongAdder());
        }
    }

    /**
     * Takes the database for this store alone and reads the backlog of every route from it; once.
     *
     * @param fenceAfter for the leader of a gateway pair, how long to wait for the store lock of the previous leader
     *        before ending that leader's database session: it no longer holds the pair's leadership, and a session
     *        of a machine that died without closing it would hold the store for hours; {@code null} to refuse at
     *        once
     * @throws IllegalStateException if the backlog cannot be read, or another store (of this or another gateway
     *         process) is open on the same database: its duplicate check would not see this one's copies
     */
    public synchronized void open(@Nullable Duration fenceAfter) {
        if (ownership != null) {
            return;
        }
        Connection lock = takeOwnership(dataSource, fenceAfter);
        paired = fenceAfter != null;
        try {
            ownerPid = endPredecessorsWrites(lock);
            readBacklog();
        }
        catch (SQLException ex) {
            giveUpOwnership(lock);
            throw new IllegalStateException("Unable to read the relay store's backlog from relay_copy", ex);
        }
        ownership = lock;
        deleter = Executors.newSingleThreadScheduledExecutor(
                Thread.ofPlatform().daemon().name("relay-store-delete").factory());
        deleter.scheduleWithFixedDelay(this::deleteRemoved, REMOVAL_DELAY.toMillis(), REMOVAL_DELAY.toMillis(),
                TimeUnit.MILLISECONDS);
    }

    public StoreLimits limits() {
        return limits;
    }

    /** Where messages the gateway cannot relay as they are go instead, in the same database. */
    /**
     * Custody steps that no store transaction holds: messages passed on nowhere (dropped by the policy, refused for
     * want of clearance, unroutable). Written with {@link #log} before their custody ends.
     */
    public CustodyLog.Entries steps() {
        return custody.entries();
    }

    /** Writes such steps in a transaction of their own, on disk when it returns; nothing if there are none. */
    public void log(CustodyLog.Entries steps) throws SQLException {
        if (steps.isEmpty()) {
            return;
        }
        Transactions.durable(dataSource, tx -> {
            steps.write(tx);
            return null;
        });
    }

    /** The custody steps this gateway forwards to other sites, and those they forwarded here. */
    public ForwardedCustody forwardedCustody() {
        return forwardedCustody;
    }

    public RelayQuarantine quarantine() {
        return quarantine;
    }

    /**
     * Stores copies, in one transaction whose commit is on disk when this returns. Each copy is stored for its route,
     * or absorbed as a duplicate, refused because the store is too full for its precedence, or superseded by a newer
     * report with the same key. A copy that supersedes a waiting one deletes it in the same transaction. A copy that
     * another call is storing at the same moment waits for that call: it is absorbed if that call stored it, and
     * stored in a second transaction of this call if that call failed.
     *
     * @return one outcome per copy, in order
     * @throws SQLException if the transaction failed: nothing of the batch is stored, nothing was replaced (if only
     *         the second one failed, the rest of the batch is stored, and offering the batch again absorbs it)
     */
    public List<Acceptance> accept(List<Copy> copies) throws SQLException {
        ownAgainIfLost();
        int n = copies.size();
        Acceptance[] outcomes = new Acceptance[n];
        // Each copy's identity, made once: the batch, the duplicate check and its claim all look it up.
        RouteMessage[] keys = new RouteMessage[n];
        for (int i = 0; i < n; i++) {
            keys[i] = RouteMessage.of(copies.get(i));
        }
        int[] sameAs = resolveWithinBatch(copies, keys, outcomes);
        long[] replaces = new long[n];
        Waiting[] replacing = new Waiting[n];
        long[] ids = new long[n];
        List<Integer> toStore = new ArrayList<>(n);
        Map<Integer, HeldCopies.Claim> storedElsewhere = new HashMap<>();
        HeldCopies.Claim claim = new HeldCopies.Claim();
        long reserved = 0;
        synchronized (capacity) {
            for (int i = 0; i < n; i++) {
                if (outcomes[i] != null || sameAs[i] >= 0) {
                    continue;
                }
                Copy copy = copies.get(i);
                RouteMessage key = keys[i];
                if (held.holds(key)) {
                    outcomes[i] = Acceptance.DUPLICATE;
                    continue;
                }
                HeldCopies.Claim other = held.claimOf(key);
                if (other != null) {
                    storedElsewhere.put(i, other);
                    continue;
                }
                if (copy.supersedeKey() != null) {
                    Waiting waiting = routeBacklog(copy.route()).waitingWithKey(copy.supersedeKey());
                    if (waiting != null && waiting.createdAt().isAfter(createdAt(copy))) {
                        outcomes[i] = Acceptance.SUPERSEDED;
                        continue;
                    }
                    replaces[i] = waiting == null ? -1 : waiting.id();
                    replacing[i] = waiting;
                }
                if (storedBytes + reservedBytes + copy.bytes() > limits.limit(precedence(copy))) {
                    outcomes[i] = Acceptance.REFUSED;
                    continue;
                }
                reservedBytes += copy.bytes();
                reserved += copy.bytes();
                held.claim(key, claim);
                ids[i] = ++lastId;
                toStore.add(i);
            }
        }
        Instant storedAt = clock.instant().truncatedTo(ChronoUnit.MICROS);
        Map<Long, Route> replacedRows = Map.of();
        long[] storedIn = new long[n];
        boolean committed = false;
        try {
            if (!toStore.isEmpty()) {
                replacedRows = Transactions.durable(dataSource, tx -> {
                    guard(tx);
                    insert(tx, copies, toStore, ids, storedAt);
                    List<Long> replaced = new ArrayList<>();
                    for (int i : toStore) {
                        if (replaces[i] > 0) {
                            replaced.add(replaces[i]);
                        }
                    }
                    Map<Long, Route> deleted = delete(tx, replaced);
                    int[] entryOf = new int[n];
                    CustodyLog.Written written = stored(copies, toStore, replacing, deleted, entryOf).write(tx);
                    for (int i : toStore) {
                        storedIn[i] = written.row(entryOf[i]);
                    }
                    return deleted;
                });
            }
            committed = true;
        }
        finally {
            if (!committed) {
                synchronized (capacity) {
                    reservedBytes -= reserved;
                }
                unclaim(keys, toStore, claim);
                claim.settle();
            }
        }
        boolean settled = false;
        try {
            settle(copies, keys, outcomes, ids, storedIn, replaces, toStore, reserved, replacedRows, storedAt);
            settled = true;
        }
        finally {
            // Never leave a claim behind: a call waiting for it would wait for ever, or find it again and again.
            if (!settled) {
                unclaim(keys, toStore, claim);
            }
            claim.settle();
        }
        if (!storedElsewhere.isEmpty()) {
            acceptAfterOthers(copies, storedElsewhere, outcomes);
        }
        List<Acceptance> result = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            Acceptance outcome = sameAs[i] < 0 ? outcomes[i] : repeated(outcomes[sameAs[i]]);
            // Those stored elsewhere were counted by the call that offered them again.
            if (!storedElsewhere.containsKey(i)) {
                count(copies.get(i), outcome);
            }
            result.add(outcome);
        }
        return result;
    }

    /**
     * The custody steps of a store transaction: each copy stored (the {@code entryOf} each copy's step is, for its
     * removal to name), and each waiting one a newer report replaced.
     */
    private CustodyLog.Entries stored(List<Copy> copies, List<Integer> toStore, Waiting[] replacing,
            Map<Long, Route> deleted, int[] entryOf) {
        CustodyLog.Entries steps = custody.entries();
        for (int i : toStore) {
            Copy copy = copies.get(i);
            List<SiteId> crossed = copy.relayed().crossed();
            String from = crossed.size() < 2 ? "from this site's LAN" : "from site " + crossed.get(crossed.size() - 2);
            entryOf[i] = steps.size();
            step(steps, CustodyEvent.STORED, copy.route().key(), copy.messageId(), precedence(copy), from,
                    origin(copy), 0);
            Waiting replaced = replacing[i];
            if (replaced != null && deleted.containsKey(replaced.id())) {
                step(steps, CustodyEvent.DROPPED, copy.route().key(), replaced.messageId(), replaced.precedence(),
                        "superseded by a newer report", replaced.origin(), replaced.storedIn());
            }
        }
        return steps;
    }

    /**
     * One copy's step, over the LAN for the LAN's route, else over the WAN link, naming its message's origin, and
     * the row of its storing when it is a later step whose storing is known ({@code storedIn}, else 0).
     */
    private void step(CustodyLog.Entries steps, CustodyEvent event, String route, String messageId,
            Precedence precedence, @Nullable String detail, @Nullable NodeId origin, long storedIn) {
        steps.add(event, messageId, Route.Lan.KEY.equals(route) ? LAN_LINK : custody.link(), List.of(route),
                precedence, detail, origin, storedIn);
    }

    /**
     * The origin of a copy's message, which its steps name: the custody log forwards those with another site's
     * messages there, and the origin's delivery reports are read by it. None for a forwarded step itself, whose steps
     * are neither forwarded (that would forward steps of steps without end) nor reported.
     */
    private static @Nullable NodeId origin(Copy copy) {
        Envelope envelope = copy.relayed().envelope();
        return ForwardedStep.TYPE.equals(envelope.kmtfType()) ? null : envelope.origin();
    }

    /** Takes back what the claim still holds of these copies, for a call that stored none or not all of them. */
    private void unclaim(RouteMessage[] keys, List<Integer> claimed, HeldCopies.Claim claim) {
        synchronized (capacity) {
            for (int i : claimed) {
                held.unclaim(keys[i], claim);
            }
        }
    }

    /**
     * Offers again, once the calls that were storing them have settled, the copies that were being stored elsewhere:
     * absorbed if those calls stored them, stored now if not. Waits without giving way to an interrupt, as the
     * transaction it waits for does.
     */
    private void acceptAfterOthers(List<Copy> copies, Map<Integer, HeldCopies.Claim> storedElsewhere,
            Acceptance[] outcomes) throws SQLException {
        storedElsewhere.values().forEach(HeldCopies.Claim::await);
        List<Integer> indexes = new ArrayList<>(storedElsewhere.keySet());
        List<Acceptance> again = accept(indexes.stream().map(copies::get).toList());
        for (int j = 0; j < indexes.size(); j++) {
            outcomes[indexes.get(j)] = again.get(j);
        }
    }

    /** The backlog of one route, as the scheduler takes from it (empty until copies are stored for the route). */
    public Backlog backlog(Route route) {
        return routeBacklog(route);
    }

    /** The routes that have had copies since the store was opened. */
    public Set<Route> routes() {
        return Set.copyOf(backlogs.keySet());
    }

    /**
     * The stored copies with these ids, for building frames, in the order of {@code ids}; a copy no longer stored
     * (removed or superseded meanwhile) is absent. Copies kept in memory are not read from the table.
     */
    public Map<Long, RelayedEnvelope> load(Collection<Long> ids) throws SQLException {
        Map<Long, RelayedEnvelope> found = new HashMap<>();
        List<Long> uncached = new ArrayList<>();
        for (Long id : ids) {
            RelayedEnvelope cached = cache.get(id);
            if (cached != null) {
                found.put(id, cached);
            }
            else {
                uncached.add(id);
            }
        }
        if (!uncached.isEmpty()) {
            // Removed, not yet deleted from the table: no longer stored. An id stays in removals until its delete
            // has committed, so a row that the read below still finds is either one removed after this look (the
            // load came first) or one of these.
            synchronized (removals) {
                uncached.removeIf(removals::containsKey);
            }
            read(uncached, found);
        }
        Map<Long, RelayedEnvelope> ordered = new LinkedHashMap<>();
        for (Long id : ids) {
            RelayedEnvelope relayed = found.get(id);
            if (relayed != null) {
                ordered.put(id, relayed);
            }
        }
        return ordered;
    }

    /** Copies kept in memory as well as in the table now. */
    public int cachedCopies() {
        return cache.size();
    }

    private void read(List<Long> ids, Map<Long, RelayedEnvelope> found) throws SQLException {
        // A transaction only for its planning setting (Transactions): a read commits nothing.
        Transactions.lazy(dataSource, c -> {
            try (PreparedStatement ps = c.prepareStatement(LOAD)) {
                ps.setArray(1, c.createArrayOf("bigint", ids.toArray()));
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        Instant createdAt = micros(rs.getLong(7));
                        String messageId = rs.getString(2);
                        Envelope envelope = new Envelope(messageId, NodeId.of(rs.getString(3)), rs.getString(4),
                                PRECEDENCES[rs.getShort(5)], rs.getString(6), createdAt, rs.getBytes(8),
                                trace(rs.getString(11), createdAt, messageId),
                                traceParent(rs.getString(12), messageId));
                        found.put(rs.getLong(1), RelayedEnvelope.of(envelope, sites(rs.getArray(9)),
                                Set.copyOf(sites(rs.getArray(10)))));
                    }
                }
            }
            return null;
        });
    }

    /**
     * Forgets stored copies (custody passed to the next hop, or dropped): at once in their backlogs and the store's
     * bytes, and in the table within {@link #REMOVAL_DELAY}, together with the other copies removed meanwhile, in one
     * statement whose commit does not wait for the disk; the custody log records why in that transaction. Until then,
     * and after a crash that lost the delete, a removed copy may still be in the table: after a restart it is sent
     * again, and the next hop absorbs it; before, the same message offered again finds it and is absorbed here. Ids
     * not stored are ignored.
     *
     * @return the copies forgotten
     */
    public List<Waiting> remove(Collection<Long> ids, Removal why) {
        if (ids.isEmpty()) {
            return List.of();
        }
        List<Waiting> removed = new ArrayList<>(ids.size());
        Map<Long, Removed> toDelete = new HashMap<>();
        synchronized (capacity) {
            for (Long id : ids) {
                // Only this site's LAN and its peers are routes: a short look through each.
                for (Route route : backlogs.keySet()) {
                    Waiting copy = forget(id, route);
                    if (copy != null) {
                        removed.add(copy);
                        toDelete.put(id, new Removed(new RouteMessage(route.key(), copy.messageId()),
                                copy.precedence(), why, copy.origin(), copy.storedIn()));
                        break;
                    }
                }
            }
        }
        if (!toDelete.isEmpty()) {
            synchronized (removals) {
                removals.putAll(toDelete);
            }
        }
        return removed;
    }

    /**
     * Deletes from the table what was removed and not yet deleted; the store does so every {@link #REMOVAL_DELAY}.
     * Returns once what was removed before the call is deleted (or failed to be), also when the store's own round
     * had already taken it.
     */
    void deleteRemoved() {
        synchronized (deleting) {
            Map<Long, Removed> deleting;
            synchronized (removals) {
                if (removals.isEmpty()) {
                    return;
                }
                deleting = new HashMap<>(removals);
            }
            try {
                ownAgainIfLost();
                Transactions.lazy(dataSource, tx -> {
                    guard(tx);
                    Map<Long, Route> deleted = delete(tx, deleting.keySet());
                    removed(deleting, deleted).write(tx);
                    return deleted;
                });
                // Held and in removals until deleted: until then the same copy offered again is absorbed, and load
                // knows these rows are no longer stored.
                synchronized (capacity) {
                    deleting.forEach((id, removed) -> held.deleted(removed.copy(), id));
                }
                synchronized (removals) {
                    deleting.keySet().forEach(removals::remove);
                }
            }
            catch (SQLException | RuntimeException ex) {
                // Still in the table: tried again at the next round; logged sparsely, as an outage repeats every round.
                if (Long.bitCount(failedDeletes.incrementAndGet()) == 1) {
                    log.warn("Unable to delete {} removed copies from relay_copy (tried again every {} ms): {}",
                            deleting.size(), REMOVAL_DELAY.toMillis(), ex.toString());
                }
            }
        }
    }

    /** The custody steps of a delete round: why each copy it deleted was removed. */
    private CustodyLog.Entries removed(Map<Long, Removed> round, Map<Long, Route> deleted) {
        CustodyLog.Entries steps = custody.entries();
        round.forEach((id, copy) -> {
            if (deleted.containsKey(id)) {
                step(steps, copy.why().event(), copy.copy().route(), copy.copy().messageId(), copy.precedence(),
                        copy.why().detail(), copy.origin(), copy.storedIn());
            }
        });
        return steps;
    }

    /** A copy removed and not yet deleted from the table, why it was removed, and the row of its storing (or 0). */
    private record Removed(RouteMessage copy, Precedence precedence, Removal why, @Nullable NodeId origin,
            long storedIn) {
    }

    /** Deletes what was removed, then stops deleting and lets another store open the database; once. */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        ScheduledExecutorService running;
        Connection lock;
        synchronized (this) {
            running = deleter;
            lock = ownership;
        }
        if (running == null || lock == null) {
            return;
        }
        running.shutdownNow();
        try {
            running.awaitTermination(5, TimeUnit.SECONDS);
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
        deleteRemoved();
        giveUpOwnership(lock);
    }

    /**
     * Takes the store's advisory lock on a connection kept open until {@link #close}; the lock goes with the session,
     * also when the process dies. With {@code fenceAfter}, a holder that keeps it that long has its session ended.
     */
    private static Connection takeOwnership(DataSource dataSource, @Nullable Duration fenceAfter) {
        Connection c;
        try {
            c = dataSource.getConnection();
        }
        catch (SQLException ex) {
            throw new IllegalStateException("Unable to open the relay store's database", ex);
        }
        try {
            lockSession(c, fenceAfter != null);
            long fenceAt = fenceAfter == null ? 0 : System.nanoTime() + fenceAfter.toNanos();
            while (true) {
                if (tryLock(c, OWNERSHIP_LOCK)) {
                    return c;
                }
                if (fenceAfter == null) {
                    break;
                }
                if (System.nanoTime() - fenceAt >= 0) {
                    fence(c);
                    fenceAt = System.nanoTime() + fenceAfter.toNanos();
                }
                TimeUnit.MILLISECONDS.sleep(FENCE_POLL.toMillis());
            }
            String database = c.getCatalog();
            String holder = ownershipHolder(c);
            closeQuietly(c);
            throw new IllegalStateException("Another relay store is open on database " + database + ": " + holder
                    + " holds its advisory lock " + OWNERSHIP_LOCK + "; each gateway needs a store database of its own"
                    + " (if that gateway is gone and its session lingers, end the session with pg_terminate_backend)");
        }
        catch (SQLException ex) {
            closeQuietly(c);
            throw new IllegalStateException("Unable to take the relay store's lock on its database", ex);
        }
        catch (InterruptedException ex) {
            closeQuietly(c);
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while waiting for the relay store's lock", ex);
        }
        catch (RuntimeException ex) {
            closeQuietly(c);
            throw ex;
        }
    }

    /**
     * Ends the session that holds the store's lock: the previous leader's, which lost the pair's leadership; refuses
     * to end a lone gateway's, which no election stands behind.
     */
    private static void fence(Connection c) throws SQLException {
        for (Holder holder : holders(c, OWNERSHIP_LOCK)) {
            if (LONE_GATEWAY.equals(holder.kind())) {
                throw new IllegalStateException("The relay store on database " + c.getCatalog() + " is open by a "
                        + "gateway that is not one of a pair (" + holder + "): set gateway.wan.pair.enabled=true on "
                        + "both gateways of the site, or stop that one");
            }
            terminate(c, holder.pid(), "the relay store's lock, for a gateway that no longer leads the pair");
        }
    }

    /**
     * Waits until no write of another session is under way, ending those that do not finish (a frozen predecessor's
     * transaction would never end by itself), and returns the ownership session's PostgreSQL process. From then on a
     * write of any other store fails its guard.
     */
    private static int endPredecessorsWrites(Connection c) throws SQLException {
        long giveUpAt = System.nanoTime() + FENCE_WRITES_WITHIN.toNanos();
        while (!tryLock(c, WRITE_LOCK)) {
            if (System.nanoTime() - giveUpAt > 0) {
                throw new SQLException("Writes of another relay store on this database were still under way after "
                        + FENCE_WRITES_WITHIN.toSeconds() + " s and could not be ended");
            }
            // A write takes milliseconds: one still there after a poll belongs to a predecessor that is not running.
            sleep(FENCE_POLL);
            // This session does not hold the write lock here: every holder is another's.
            for (Holder writer : holders(c, WRITE_LOCK)) {
                terminate(c, writer.pid(), "a write of the relay store that is no longer its owner");
            }
        }
        try (PreparedStatement ps = c.prepareStatement("SELECT pg_advisory_unlock(?), pg_backend_pid()")) {
            ps.setLong(1, WRITE_LOCK);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getInt(2);
            }
        }
    }

    /** The fence of a write transaction: it goes on only while this store owns the database. */
    private void guard(Connection tx) throws SQLException {
        try (PreparedStatement ps = tx.prepareStatement(WRITE_GUARD)) {
            ps.setLong(1, WRITE_LOCK);
            ps.setLong(2, OWNERSHIP_LOCK >>> 32);
            ps.setLong(3, OWNERSHIP_LOCK & 0xFFFF_FFFFL);
            ps.setInt(4, ownerPid);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next() || !rs.getBoolean(1)) {
                    ownershipLost = true;
                    throw new SQLException("This relay store no longer holds its database's lock: its lock session "
                            + "ended (a pair's new leader ended it, or the database failed over); not written");
                }
            }
        }
    }

    /**
     * After a write found the lock session gone, takes the lock again if no one holds it (the session went with a
     * database that failed over to its standby, which has every committed copy: this store's memory still matches
     * it), outside any transaction; a lock someone else holds (a pair's new leader) keeps every write refused.
     */
    private synchronized void ownAgainIfLost() throws SQLException {
        if (!ownershipLost || closed.get()) {
            return;
        }
        Connection c = dataSource.getConnection();
        try {
            lockSession(c, paired);
            if (!tryLock(c, OWNERSHIP_LOCK)) {
                throw new SQLException("This relay store no longer owns its database: " + ownershipHolder(c)
                        + " holds its lock (a pair's new leader); nothing more is written");
            }
            ownerPid = endPredecessorsWrites(c);
        }
        catch (SQLException | RuntimeException ex) {
            closeQuietly(c);
            throw ex;
        }
        Connection previous = ownership;
        ownership = c;
        ownershipLost = false;
        if (previous != null) {
            closeQuietly(previous);
        }
        log.warn("The relay store's lock session had ended (its database failed over, or the session was ended): "
                + "the store holds the lock again, in PostgreSQL process {}", ownerPid);
    }

    /**
     * Makes {@code c} the session of the store's lock: no transaction left open on it (an open one would hold back
     * vacuum for good), and named, so that a pair's new leader tells its predecessor's session from a lone gateway's.
     */
    private static void lockSession(Connection c, boolean paired) throws SQLException {
        c.setAutoCommit(true);
        c.setClientInfo("ApplicationName", paired ? PAIRED_GATEWAY : LONE_GATEWAY);
    }

    /** Takes the session-level advisory lock {@code key} if it is free. */
    private static boolean tryLock(Connection c, long key) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT pg_try_advisory_lock(?)")) {
            ps.setLong(1, key);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() && rs.getBoolean(1);
            }
        }
    }

    private static void terminate(Connection c, int pid, String what) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT pg_terminate_backend(?)")) {
            ps.setInt(1, pid);
            try (ResultSet rs = ps.executeQuery()) {
                boolean ended = rs.next() && rs.getBoolean(1);
                log.warn("PostgreSQL process {} held {}: its session {}", pid, what, ended ? "is ended"
                        : "could not be ended (the store's database user may end only its own sessions)");
            }
        }
    }

    private static void sleep(Duration pause) throws SQLException {
        try {
            TimeUnit.MILLISECONDS.sleep(pause.toMillis());
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new SQLException("Interrupted while waiting for the relay store's writes", ex);
        }
    }

    /** A session that holds the store's lock; {@code kind} is its application name (a lone gateway's, or a pair's). */
    private record Holder(int pid, String client, Object since, @Nullable String kind) {

        @Override
        public String toString() {
            return "the session of PostgreSQL process " + pid + " (client " + client + ", connected since " + since
                    + ", " + kind + ")";
        }
    }

    private static List<Holder> holders(Connection c, long key) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(HOLDERS)) {
            ps.setLong(1, key >>> 32);
            ps.setLong(2, key & 0xFFFF_FFFFL);
            List<Holder> holders = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    holders.add(new Holder(rs.getInt(1), rs.getString(2), rs.getObject(3), rs.getString(4)));
                }
            }
            return holders;
        }
    }

    /** Who holds the store's lock, for the operator: the PostgreSQL process of the session and its client. */
    private static String ownershipHolder(Connection c) {
        try {
            List<Holder> holders = holders(c, OWNERSHIP_LOCK);
            if (!holders.isEmpty()) {
                return holders.getFirst().toString();
            }
        }
        catch (SQLException ex) {
            log.debug("Unable to tell who holds the relay store's lock", ex);
        }
        return "another session";
    }

    /** Unlocks before closing: a pool keeps the session, and with it a lock, of a connection closed to it. */
    private static void giveUpOwnership(Connection c) {
        try (PreparedStatement ps = c.prepareStatement("SELECT pg_advisory_unlock(?)")) {
            ps.setLong(1, OWNERSHIP_LOCK);
            ps.execute();
            c.setClientInfo("ApplicationName", "");
        }
        catch (SQLException ex) {
            log.debug("Unlocking the relay store's database failed; the lock ends with its session", ex);
        }
        closeQuietly(c);
    }

    private static void closeQuietly(Connection c) {
        try {
            c.close();
        }
        catch (SQLException ex) {
            log.debug("Closing the relay store's lock connection failed; its session ends with it", ex);
        }
    }

    /** What the store holds now, per route and precedence, and in all. */
    public StoreStats stats() {
        Map<Route, Map<Precedence, StoreStats.Level>> routes = new HashMap<>();
        backlogs.forEach((route, backlog) -> routes.put(route, backlog.stats()));
        synchronized (capacity) {
            return new StoreStats(storedBytes, limits.maxBytes(), routes);
        }
    }

    /** Copies of this precedence refused since start because the store was too full for it. */
    public long refusals(Precedence precedence) {
        return refusals.get(precedence).sum();
    }

    /** Copies absorbed since start because they were stored for their route already. */
    public long duplicates() {
        return duplicates.sum();
    }

    /** Copies dropped since start because a newer report with the same supersede key replaced them. */
    public long superseded() {
        return superseded.sum();
    }

    /**
     * Marks each copy that repeats an earlier one of the batch (same route and message: {@code sameAs} its index),
     * and each report that a newer one of the batch with the same route and supersede key makes worthless.
     */
    private static int[] resolveWithinBatch(List<Copy> copies, RouteMessage[] keys, Acceptance[] outcomes) {
        int[] sameAs = new int[copies.size()];
        Arrays.fill(sameAs, -1);
        Map<RouteMessage, Integer> first = new HashMap<>();
        Map<RouteKey, Integer> newest = new HashMap<>();
        for (int i = 0; i < copies.size(); i++) {
            Copy copy = copies.get(i);
            Integer earlier = first.putIfAbsent(keys[i], i);
            if (earlier != null) {
                sameAs[i] = earlier;
                continue;
            }
            if (copy.supersedeKey() != null) {
                RouteKey key = new RouteKey(copy.route(), copy.supersedeKey());
                Integer other = newest.get(key);
                if (other == null) {
                    newest.put(key, i);
                }
                else if (createdAt(copies.get(other)).isAfter(createdAt(copy))) {
                    outcomes[i] = Acceptance.SUPERSEDED;
                }
                else {
                    outcomes[other] = Acceptance.SUPERSEDED;
                    newest.put(key, i);
                }
            }
        }
        return sameAs;
    }

    private void settle(List<Copy> copies, RouteMessage[] keys, Acceptance[] outcomes, long[] ids, long[] storedIn,
            long[] replaces, List<Integer> toStore, long reserved, Map<Long, Route> replacedRows, Instant storedAt) {
        synchronized (capacity) {
            reservedBytes -= reserved;
            for (int i : toStore) {
                Copy copy = copies.get(i);
                long id = ids[i];
                Waiting stored = new Waiting(id, copy.messageId(), precedence(copy),
                        typeName(copy.relayed().envelope().kmtfType()), copy.bytes(), createdAt(copy), storedAt,
                        origin(copy), storedIn[i]);
                // Kept before the backlog shows it, so no sender reads its row.
                cache.put(id, copy.relayed(), copy.bytes());
                held.stored(keys[i], id);
                if (routeBacklog(copy.route()).add(stored, copy.supersedeKey())) {
                    storedBytes += copy.bytes();
                }
                Route route = replacedRows.get(replaces[i]);
                Waiting replaced = route == null ? null : forget(replaces[i], route);
                if (replaced != null) {
                    held.deleted(new RouteMessage(route.key(), replaced.messageId()), replaced.id());
                }
                outcomes[i] = new Acceptance(Outcome.STORED, stored, replaced);
            }
        }
    }

    /** A repeat within the batch fares as the copy it repeats, except that only one of them is stored. */
    private static Acceptance repeated(Acceptance first) {
        return first.outcome() == Outcome.STORED ? Acceptance.DUPLICATE : first;
    }

    private void count(Copy copy, Acceptance acceptance) {
        switch (acceptance.outcome()) {
            case DUPLICATE -> duplicates.increment();
            case REFUSED -> refusals.get(precedence(copy)).increment();
            case SUPERSEDED -> superseded.increment();
            case STORED -> {
                if (acceptance.superseded() != null) {
                    superseded.increment();
                }
            }
        }
    }

    private static void insert(Connection tx, List<Copy> copies, List<Integer> toStore, long[] ids,
            Instant storedAt) throws SQLException {
        int expectedBytes = 0;
        for (int i : toStore) {
            expectedBytes += copies.get(i).bytes() + COPY_ROW_OVERHEAD;
        }
        BinaryCopyRows rows = new BinaryCopyRows(expectedBytes);
        for (int i : toStore) {
            Copy copy = copies.get(i);
            Envelope e = copy.relayed().envelope();
            rows.row(COPY_FIELDS).bigint(ids[i]).text(copy.route().key()).text(e.messageId())
                    .text(e.origin().value()).text(e.kmtfType()).smallint((short) e.precedence().ordinal())
                    .text(e.classification()).timestamptz(e.createdAt()).bytea(e.body())
                    .textArray(copy.relayed().crossed(), SiteId::value)
                    .textArray(copy.relayed().boundFor(), SiteId::value).integer(copy.bytes())
                    .text(copy.supersedeKey()).timestamptz(storedAt).text(e.traceText())
                    .text(e.traceParent() == null ? null : e.traceParent().value());
        }
        rows.copyIn(tx, COPY);
    }

    private static Map<Long, Route> delete(Connection c, Collection<Long> ids) throws SQLException {
        if (ids.isEmpty()) {
            return Map.of();
        }
        Map<Long, Route> deleted = new HashMap<>();
        try (PreparedStatement ps = c.prepareStatement(DELETE)) {
            ps.setArray(1, c.createArrayOf("bigint", ids.toArray()));
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    deleted.put(rs.getLong(1), Route.parse(rs.getString(2)));
                }
            }
        }
        return deleted;
    }

    private void readBacklog() throws SQLException {
        try (Connection c = dataSource.getConnection()) {
            // Without autocommit PostgreSQL's driver reads through a cursor, a fetch at a time, not all rows at once.
            c.setAutoCommit(false);
            try (PreparedStatement ps = c.prepareStatement(BACKLOG)) {
                ps.setFetchSize(10_000);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        Route route = Route.parse(rs.getString(2));
                        String origin = rs.getString(10);
                        Waiting copy = new Waiting(rs.getLong(1), rs.getString(3), PRECEDENCES[rs.getShort(4)],
                                typeName(rs.getString(5)), rs.getInt(6), micros(rs.getLong(7)), micros(rs.getLong(8)),
                                origin == null ? null : nodes.computeIfAbsent(origin, NodeId::of));
                        held.loaded(new RouteMessage(route.key(), copy.messageId()), copy.id());
                        // Read in id order: the last is the highest, and the ids given from now on follow it.
                        lastId = copy.id();
                        if (routeBacklog(route).add(copy, rs.getString(9))) {
                            storedBytes += copy.bytes();
                        }
                    }
                }
            }
            c.commit();
        }
    }

    private @Nullable Waiting forget(long id, Route route) {
        cache.remove(id);
        Waiting copy = routeBacklog(route).forget(id);
        if (copy != null) {
            storedBytes -= copy.bytes();
        }
        return copy;
    }

    private RouteBacklog routeBacklog(Route route) {
        return backlogs.computeIfAbsent(route, RouteBacklog::new);
    }

    private String typeName(String kmtfType) {
        return typeNames.computeIfAbsent(kmtfType, t -> t);
    }

    private static Precedence precedence(Copy copy) {
        return copy.relayed().envelope().precedence();
    }

    private static Instant createdAt(Copy copy) {
        return copy.relayed().envelope().createdAt().truncatedTo(ChronoUnit.MICROS);
    }

    private static Instant micros(long micros) {
        return Instant.EPOCH.plus(micros, ChronoUnit.MICROS);
    }

    /**
     * A stored copy's trace; one whose text does not read (written by hand, say) is logged and read as empty: the
     * message is delivered all the same, as it would be from a sender that carries no trace.
     */
    private static HopTrace trace(String text, Instant createdAt, String messageId) {
        try {
            return HopTrace.parse(text, createdAt);
        }
        catch (IllegalArgumentException ex) {
            log.warn("The trace stored with message {} in relay_copy does not read ({}); sent on without one",
                    messageId, ex.getMessage());
            return HopTrace.EMPTY;
        }
    }

    /**
     * A stored copy's trace context, {@code null} for none; one whose text does not read (written by hand, say) is
     * logged and read as none, as a trace that does not read is.
     */
    private static @Nullable TraceParent traceParent(@Nullable String text, String messageId) {
        return TraceParent.carried(text, reason -> log.warn(
                "The trace context stored with message {} in relay_copy does not read ({}); sent on without one",
                messageId, reason));
    }

    private static List<SiteId> sites(java.sql.Array array) throws SQLException {
        return Arrays.stream((String[]) array.getArray()).map(SiteId::of).toList();
    }

    private record RouteKey(Route route, String supersedeKey) {
    }
}
