package kr.c4i.gateway.bridge.inbox;

import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.IntStream;

import javax.sql.DataSource;

import kr.c4i.gateway.bridge.metrics.BridgeMetrics;
import kr.c4i.gateway.core.Envelope;
import kr.c4i.gateway.core.transport.InboundHandler;
import kr.c4i.gateway.custody.CustodyEvent;
import kr.c4i.gateway.custody.CustodyLog;
import kr.c4i.gateway.jdbc.BinaryCopyRows;
import kr.c4i.gateway.jdbc.Transactions;
import kr.c4i.gateway.tracing.MessageTracing;

/**
 * Writes what the transport delivers into the inbox, one statement and one commit per batch.
 * The inbox's unique message id makes redelivery harmless, which is what turns the transports' at-least-once into
 * exactly-once as the application sees it. A batch is written with a binary {@code COPY}, which costs the server
 * half of what an insert that skips the rows already there does; a batch that meets one (a redelivery, or the
 * other bridge of a node pair, which inserts the same messages) fails whole, and is written again in a new
 * transaction with {@code INSERT ... ON CONFLICT DO NOTHING}, which this writer then keeps to for
 * {@link #CONFLICT_COOL_DOWN}, since where one batch met its messages the next ones likely will. A failure throws, so
 * the transport keeps the batch and redelivers it. The commit is synchronous even on a server whose default
 * is {@code synchronous_commit = off}: what this returns from is durable, so the transport may acknowledge it. The
 * custody log records the messages newly in the inbox (not the redeliveries absorbed) in the same transaction, written
 * first so that each inbox row names its delivery's log row ({@code delivered_in}), through which it is found. Each
 * row keeps the hops its message carried ({@code trace}) and its creation context ({@code traceparent}, for the
 * application to continue its trace); its {@code received_at} is this node's own. Each message newly in the inbox
 * has its span ({@link MessageTracing}).
 */
public final class InboxWriter implements InboundHandler {

    /** How long after a batch met messages already in the inbox the writer skips them instead of copying. */
    static final Duration CONFLICT_COOL_DOWN = Duration.ofSeconds(10);

    // Both write in message id order (the copy sorted in Java, the insert by COLLATE "C": one order for ASCII ids).
    // Both bridges of a node pair insert the same messages, and in their arrival orders their unique-index locks
    // could deadlock (PostgreSQL then aborts one after a second); in one order one waits instead.
    private static final String COPY = """
            COPY inbox (message_id, origin_node, kmtf_type, precedence, classification, body, created_at, trace,
                        traceparent, transport, delivered_in) FROM STDIN (FORMAT binary)""";

    private static final String INSERT = """
            INSERT INTO inbox (message_id, origin_node, kmtf_type, precedence, classification, body, created_at, trace,
                               traceparent, transport, delivered_in)
            SELECT m.id, m.origin, m.type, m.precedence, m.classification, m.body,
                   timestamptz 'epoch' + m.created_us * interval '1 microsecond', m.trace, m.traceparent, ?,
                   nullif(m.delivered_in, 0)
              FROM unnest(?::text[], ?::text[], ?::text[], ?::text[], ?::text[], ?::bytea[], ?::bigint[], ?::text[],
                          ?::text[], ?::bigint[])
                   AS m(id, origin, type, precedence, classification, body, created_us, trace, traceparent,
                        delivered_in)
             ORDER BY m.id COLLATE "C"
            ON CONFLICT (message_id) DO NOTHING
            RETURNING created_at, message_id""";

    // Redeliveries the inbox absorbed are no delivery: out of the rows logged before the insert, and a row left with
    // none goes. Two statements on disjoint rows (one statement may not both update and delete a row).
    private static final String UNLOG_ABSORBED = """
            UPDATE custody_log SET message_ids = ARRAY(SELECT m FROM unnest(message_ids) AS m WHERE m = ANY (?::text[]))
             WHERE id = ANY (?::bigint[]) AND message_ids && ?::text[] AND NOT message_ids <@ ?::text[]""";

    private static final String DROP_ABSORBED = """
            DELETE FROM custody_log WHERE id = ANY (?::bigint[]) AND NOT message_ids && ?::text[]""";

    /** The table whose rows name the custody log row of their delivery ({@code delivered_in}). */
    private static final String TABLE = "inbox";
    private static final String UNIQUE_VIOLATION = "23505";
    private static final int COPY_FIELDS = 11;
    // The fields' lengths and the texts besides the body, about.
    private static final int COPY_ROW_OVERHEAD = 200;
    private static final Comparator<Envelope> BY_MESSAGE_ID = Comparator.comparing(Envelope::messageId);

    private final DataSource dataSource;
    private final BridgeMetrics metrics;
    private final CustodyLog custody;
    private final MessageTracing tracing;
    private final Clock clock;
    /** Until when batches are inserted skipping what is there, not copied; a race between two only picks the path. */
    private volatile Instant skipUntil = Instant.MIN;

    public InboxWriter(DataSource dataSource, BridgeMetrics metrics, CustodyLog custody) {
        this(dataSource, metrics, custody, MessageTracing.off());
    }

    public InboxWriter(DataSource dataSource, BridgeMetrics metrics, CustodyLog custody, MessageTracing tracing) {
        this(dataSource, metrics, custody, tracing, Clock.systemUTC());
    }

    InboxWriter(DataSource dataSource, BridgeMetrics metrics, CustodyLog custody, MessageTracing tracing,
            Clock clock) {
        this.dataSource = dataSource;
        this.metrics = metrics;
        this.custody = custody;
        this.tracing = tracing;
        this.clock = clock;
    }

    /** Whether the next batch goes by {@code COPY}: no batch met messages already in the inbox lately. */
    boolean copies() {
        return !clock.instant().isBefore(skipUntil);
    }

    @Override
    public void deliver(List<Envelope> batch) throws SQLException {
        if (batch.isEmpty()) {
            return;
        }
        metrics.delivered(batch.size());
        MessageTracing.Receiving receiving = tracing.receiving(metrics.transport().label());
        List<Envelope> rows = distinctInIdOrder(batch);
        List<Inserted> created = null;
        if (copies()) {
            try {
                created = copy(rows);
            }
            catch (SQLException ex) {
                if (!UNIQUE_VIOLATION.equals(ex.getSQLState())) {
                    throw ex;
                }
                skipUntil = clock.instant().plus(CONFLICT_COOL_DOWN);
            }
        }
        if (created == null) {
            created = insertSkippingWhatIsThere(rows);
        }
        Set<String> stored = new HashSet<>(created.size() * 2);
        Instant now = Instant.now();
        for (Inserted row : created) {
            metrics.latency(Duration.between(row.createdAt(), now));
            stored.add(row.messageId());
        }
        for (Envelope envelope : batch) {
            if (stored.contains(envelope.messageId())) {
                receiving.stored(envelope);
            }
        }
        int inserted = created.size();
        metrics.inserted(inserted, batch.size() - inserted);
    }

    /** The batch's messages, each once (its first delivery), in message id order. */
    private static List<Envelope> distinctInIdOrder(List<Envelope> batch) {
        Map<String, Envelope> unique = new LinkedHashMap<>(batch.size() * 2);
        for (Envelope e : batch) {
            unique.putIfAbsent(e.messageId(), e);
        }
        List<Envelope> rows = new ArrayList<>(unique.values());
        rows.sort(BY_MESSAGE_ID);
        return rows;
    }

    /** A delivery step for each of the rows, the i-th row's the i-th entry. */
    private CustodyLog.Entries deliveries(List<Envelope> rows) {
        CustodyLog.Entries steps = custody.entries();
        for (Envelope e : rows) {
            steps.addFoundThrough(TABLE, CustodyEvent.DELIVERED, e.messageId(), List.of(e.origin()), e.precedence(),
                    e.origin());
        }
        return steps;
    }

    /** The rows (distinct messages) in one {@code COPY}; every message is new or the whole copy fails. */
    private List<Inserted> copy(List<Envelope> rows) throws SQLException {
        int bytes = 0;
        for (Envelope e : rows) {
            bytes += e.body().length + COPY_ROW_OVERHEAD;
        }
        String transport = metrics.transport().label();
        int size = bytes;
        // The transport acknowledges once deliver returns: the commit is durable when it does.
        return Transactions.durable(dataSource, tx -> {
            CustodyLog.Written logged = deliveries(rows).write(tx);
            BinaryCopyRows copy = new BinaryCopyRows(size);
            List<Inserted> inserted = new ArrayList<>(rows.size());
            for (int i = 0; i < rows.size(); i++) {
                Envelope e = rows.get(i);
                copy.row(COPY_FIELDS).text(e.messageId()).text(e.origin().value()).text(e.kmtfType())
                        .text(e.precedence().name()).text(e.classification()).bytea(e.body())
                        .timestamptz(e.createdAt()).text(e.traceText())
                        .text(e.traceParent() == null ? null : e.traceParent().value()).text(transport);
                long step = logged.row(i);
                if (step > 0) {
                    copy.bigint(step);
                }
                else {
                    copy.nothing();
                }
                inserted.add(new Inserted(e.messageId(), e.createdAt()));
            }
            copy.copyIn(tx, COPY);
            return inserted;
        });
    }

    /** The rows (distinct messages) in one statement that skips those already in the inbox; returns what it wrote. */
    private List<Inserted> insertSkippingWhatIsThere(List<Envelope> rows) throws SQLException {
        // The transport acknowledges once deliver returns: the commit is durable when it does.
        return Transactions.durable(dataSource, tx -> {
            CustodyLog.Entries steps = deliveries(rows);
            CustodyLog.Written logged = steps.write(tx);
            try (PreparedStatement ps = tx.prepareStatement(INSERT)) {
                ps.setString(1, metrics.transport().label());
                ps.setArray(2, texts(tx, rows, Envelope::messageId));
                ps.setArray(3, texts(tx, rows, e -> e.origin().value()));
                ps.setArray(4, texts(tx, rows, Envelope::kmtfType));
                ps.setArray(5, texts(tx, rows, e -> e.precedence().name()));
                ps.setArray(6, texts(tx, rows, Envelope::classification));
                ps.setArray(7, tx.createArrayOf("bytea", rows.stream().map(Envelope::body).toArray(byte[][]::new)));
                ps.setArray(8, tx.createArrayOf("bigint", rows.stream()
                        .map(e -> ChronoUnit.MICROS.between(Instant.EPOCH, e.createdAt())).toArray(Long[]::new)));
                ps.setArray(9, texts(tx, rows, Envelope::traceText));
                ps.setArray(10, texts(tx, rows, e -> e.traceParent() == null ? null : e.traceParent().value()));
                ps.setArray(11, tx.createArrayOf("bigint",
                        IntStream.range(0, rows.size()).mapToObj(logged::row).toArray(Long[]::new)));
                List<Inserted> inserted = new ArrayList<>(rows.size());
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        inserted.add(new Inserted(rs.getString(2), rs.getTimestamp(1).toInstant()));
                    }
                }
                if (inserted.size() < rows.size() && !steps.isEmpty()) {
                    unlogAbsorbed(tx, inserted, logged, rows.size());
                }
                return inserted;
            }
        });
    }

    private static void unlogAbsorbed(Connection tx, List<Inserted> inserted, CustodyLog.Written logged, int entries)
            throws SQLException {
        Array rows = tx.createArrayOf("bigint", IntStream.range(0, entries).mapToObj(logged::row)
                .filter(row -> row > 0).distinct().toArray(Long[]::new));
        Array kept = tx.createArrayOf("text", inserted.stream().map(Inserted::messageId).toArray(String[]::new));
        try (PreparedStatement unlog = tx.prepareStatement(UNLOG_ABSORBED);
                PreparedStatement drop = tx.prepareStatement(DROP_ABSORBED)) {
            unlog.setArray(1, kept);
            unlog.setArray(2, rows);
            unlog.setArray(3, kept);
            unlog.setArray(4, kept);
            unlog.executeUpdate();
            drop.setArray(1, rows);
            drop.setArray(2, kept);
            drop.executeUpdate();
        }
    }

    /** A row newly in the inbox. */
    private record Inserted(String messageId, Instant createdAt) {
    }

    /**
     * A column of the batch as a {@code text[]} parameter. Typed as {@code String[]}, PgJDBC sends it in binary; an
     * {@code Object[]} it spells out and quotes as an array literal, which the server then parses.
     */
    private static Array texts(Connection tx, List<Envelope> rows, Function<Envelope, String> column)
            throws SQLException {
        String[] values = new String[rows.size()];
        for (int i = 0; i < values.length; i++) {
            values[i] = column.apply(rows.get(i));
        }
        return tx.createArrayOf("text", values);
    }
}
