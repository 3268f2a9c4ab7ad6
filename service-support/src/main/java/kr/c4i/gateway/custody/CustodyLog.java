package kr.c4i.gateway.custody;

import java.io.ByteArrayOutputStream;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Predicate;
import java.util.stream.Collectors;

import org.jspecify.annotations.Nullable;

import kr.c4i.gateway.core.NodeId;
import kr.c4i.gateway.kmtf.catalogue.Precedence;

/**
 * The writing side of a node's or gateway's custody log (table {@code custody_log}, each service's Flyway
 * migrations): an append-only record of the custody steps it takes, written in the transaction of the step it
 * records, so a step rolled back leaves no entry and an entry never outlives its step. A transaction's entries cost
 * one statement however many messages they name: they go in as one row per event, link, peers, precedence and
 * detail, each row naming its messages (found again through the GIN index on {@code message_ids}).
 *
 * <p>A later step of messages whose earlier step this log holds (a receipt of messages sent, a removal of copies
 * stored) names the rows of that earlier step ({@link Written#row}) in {@code earlier} (wan-store and db-bridge V13),
 * and is found through them: its ids stay out of the index, whose entries cost more than the rows.
 *
 * <p>A step that moved its messages' own rows in this database (a node's send marks its outbox rows, its delivery
 * writes its inbox rows) is found through those rows, which name its row ({@code outbox.sent_in},
 * {@code inbox.delivered_in}; db-bridge V14): its {@code found_through} names the table, and its ids stay out of the
 * index as well. These are a node's steps at full speed, one of each per message.
 *
 * <p>A gateway's log is {@link #bloomed}: its other rows (a copy's {@code stored} step, at full speed one per message
 * and gateway) carry a Bloom filter of their ids ({@code ids_bloom}, wan-store V15) instead of putting them into the
 * index, and a trace finds them by scanning the filters ({@link CustodyLogReader}).
 *
 * <p>A step with another node's messages names their origin node (column {@code origin}: wan-store V11, db-bridge
 * V11), for that node's delivery reports. At a WAN gateway a step with messages of another site's node is also
 * queued in {@code custody_forward}, in the same statement, for the gateway to forward to that site
 * ({@link #forwarding}); a node has no such table and forwards nothing.
 */
public final class CustodyLog {

    /** Longest detail kept, in characters: a reason, not a document. */
    static final int MAX_DETAIL_CHARS = 300;

    // The rows' message ids as one array, each row taking its slice (and the same for the earlier rows they name):
    // what is bound grows with the messages, not with rows times messages. The rows of one statement share its time,
    // so a reader tells them apart from later steps. Each row comes back with what it was grouped by, for the caller
    // to learn its id.
    private static final String INSERT = """
            INSERT INTO custody_log (at, event, hop, link, peer, precedence, detail, message_ids, origin, earlier,
                                     found_through, ids_bloom)
            SELECT statement_timestamp(), r.event, ?, r.link, string_to_array(r.peers, ','), r.precedence, r.detail,
                   (?::text[])[r.first:r.last], r.origin,
                   CASE WHEN r.efirst IS NOT NULL THEN (?::bigint[])[r.efirst:r.elast] END, r.through,
                   CASE WHEN r.bfirst IS NOT NULL THEN substring(?::bytea FROM r.bfirst FOR r.blength) END
              FROM unnest(?::text[], ?::text[], ?::text[], ?::text[], ?::text[], ?::int[], ?::int[], ?::text[],
                          ?::int[], ?::int[], ?::text[], ?::int[], ?::int[])
                   AS r(event, link, peers, precedence, detail, first, last, origin, efirst, elast, through, bfirst,
                        blength)
            RETURNING id, event, link, array_to_string(peer, ','), precedence, detail, origin, earlier IS NOT NULL,
                      found_through""";

    // The same at a gateway with rows to forward: those of the origins to forward are queued too.
    private static final String INSERT_AND_FORWARD = "WITH logged AS (" + INSERT + """
            ),
            forwarded AS (
                INSERT INTO custody_forward (log_id)
                SELECT id FROM logged WHERE origin = ANY(?::text[]) AND event = ANY(?::text[]))
            SELECT * FROM logged""";

    private static final CustodyLog OFF = new CustodyLog("", "", false, false, origin -> false, new String[0]);

    private final String hop;
    private final String link;
    private final boolean enabled;
    private final boolean bloomed;
    private final Predicate<NodeId> forwarded;
    private final String[] forwardedEvents;

    /**
     * @param hop this node's or site's id, as each row names where it was written
     * @param link what entries travel over unless they say otherwise: the node's transport ({@code jms}, {@code dds}),
     *        the gateway's WAN link ({@code norm}, {@code dds}, {@code jms})
     */
    public CustodyLog(String hop, String link) {
        this(hop, link, true, false, origin -> false, new String[0]);
    }

    private CustodyLog(String hop, String link, boolean enabled, boolean bloomed, Predicate<NodeId> forwarded,
            String[] forwardedEvents) {
        this.hop = Objects.requireNonNull(hop, "hop");
        this.link = Objects.requireNonNull(link, "link");
        this.enabled = enabled;
        this.bloomed = bloomed;
        this.forwarded = Objects.requireNonNull(forwarded, "forwarded");
        this.forwardedEvents = forwardedEvents.clone();
    }

    /**
     * This log, queuing for forwarding the steps of these events whose origin is one of {@code elsewhere} (another
     * site's node).
     */
    public CustodyLog forwarding(Predicate<NodeId> elsewhere, Set<CustodyEvent> events) {
        return new CustodyLog(hop, link, enabled, bloomed, elsewhere,
                events.stream().map(CustodyEvent::label).sorted().toArray(String[]::new));
    }

    /**
     * This log, naming the messages of each row that neither its earlier rows nor this database's moved rows find
     * through a Bloom filter of their ids ({@code ids_bloom}) instead of the message id index: a WAN gateway's, whose
     * {@code stored} steps would otherwise put an index entry per message and hop (wan-store V15). A trace then scans
     * the filters of the log's rows, which takes longer the longer the log (docs/benchmarks.md).
     */
    public CustodyLog bloomed() {
        return new CustodyLog(hop, link, enabled, true, forwarded, forwardedEvents);
    }

    /**
     * The Bloom filter ({@code ids_bloom}) a bloomed log's row of these messages carries, for rows a gateway writes
     * beside this log's own: the steps other sites' gateways forward to it.
     */
    public static byte[] idsBloom(List<String> messageIds) {
        return MessageIdBloom.of(messageIds);
    }

    /** What its steps travel over unless they say otherwise. */
    public String link() {
        return link;
    }

    /** A log that records nothing ({@code gateway.custody.enabled=false}). */
    public static CustodyLog off() {
        return OFF;
    }

    /** The entries of one transaction, written with {@link Entries#write} before it commits. */
    public Entries entries() {
        return new Entries();
    }

    /** The custody steps of one transaction, grouped into the rows they are written as. */
    public final class Entries {

        private final Map<Row, Group> rows = new LinkedHashMap<>();
        // Each step's group, by the order steps were added. A store transaction's steps come in long runs of one row
        // (a batch's copies for one route): the run's row and group are kept at hand, so a step costs a comparison
        // with the row before, not two hash look-ups (a few per cent of the relay's CPU in a flight recording).
        private final List<Group> entries = new ArrayList<>();
        private final Set<String> forwardedOrigins = new HashSet<>();
        private @Nullable Row lastRow;
        private @Nullable Group lastGroup;

        private Entries() {
        }

        /** A step over this log's link. */
        public Entries add(CustodyEvent event, String messageId, Collection<?> peers, @Nullable Precedence precedence,
                @Nullable String detail) {
            return add(event, messageId, link, peers, precedence, detail);
        }

        /** A step over this log's link, forwarded to the site of {@code origin} when given. */
        public Entries add(CustodyEvent event, String messageId, Collection<?> peers, @Nullable Precedence precedence,
                @Nullable String detail, @Nullable NodeId origin) {
            return add(event, messageId, link, peers, precedence, detail, origin);
        }

        /**
         * One message's step.
         *
         * @param link what it travels over, e.g. {@code lan} for a gateway's LAN side
         * @param peers the nodes or sites on the other side of the step (destinations, origin, next hop), which are
         *        ids and so hold no comma; empty for none
         * @param detail a short reason, cut to {@value CustodyLog#MAX_DETAIL_CHARS} characters; {@code null} for none
         */
        public Entries add(CustodyEvent event, String messageId, String link, Collection<?> peers,
                @Nullable Precedence precedence, @Nullable String detail) {
            return add(event, messageId, link, peers, precedence, detail, null);
        }

        /**
         * One message's step, naming its origin node when it is another node's message ({@code null} for this
         * node's own); queued for forwarding when {@link #forwarding} says so of the origin.
         */
        public Entries add(CustodyEvent event, String messageId, String link, Collection<?> peers,
                @Nullable Precedence precedence, @Nullable String detail, @Nullable NodeId origin) {
            return add(event, messageId, link, peers, precedence, detail, origin, 0);
        }

        /**
         * One message's later step, found through {@code earlier}, the row of its earlier step in this log
         * ({@link Written#row}), instead of by its id; 0 when that row is not known, and the step is found by its id.
         */
        public Entries add(CustodyEvent event, String messageId, String link, Collection<?> peers,
                @Nullable Precedence precedence, @Nullable String detail, @Nullable NodeId origin, long earlier) {
            return add(event, messageId, link, peers, precedence, detail, origin, earlier, null);
        }

        /**
         * One message's step over this log's link, found through the message's row in {@code table} of this database
         * ({@code outbox}, {@code inbox}), which the caller has name the step's row ({@link Written#row}) in the same
         * transaction, instead of by its id.
         */
        public Entries addFoundThrough(String table, CustodyEvent event, String messageId, Collection<?> peers,
                @Nullable Precedence precedence, @Nullable NodeId origin) {
            return add(event, messageId, link, peers, precedence, null, origin, 0, Objects.requireNonNull(table));
        }

        private Entries add(CustodyEvent event, String messageId, String link, Collection<?> peers,
                @Nullable Precedence precedence, @Nullable String detail, @Nullable NodeId origin, long earlier,
                @Nullable String foundThrough) {
            if (!enabled) {
                return this;
            }
            Group group = lastGroup;
            Row last = lastRow;
            if (group == null || last == null
                    || !last.sameAs(event, link, peers, precedence, detail, origin, earlier > 0, foundThrough)) {
                Row row = new Row(event.label(), link, peers(peers), precedence == null ? null : precedence.name(),
                        detail(detail), origin == null ? null : origin.value(), earlier > 0, foundThrough);
                group = rows.computeIfAbsent(row, r -> new Group());
                lastRow = row;
                lastGroup = group;
                if (origin != null && forwarded.test(origin)) {
                    forwardedOrigins.add(origin.value());
                }
            }
            group.ids.add(messageId);
            if (earlier > 0) {
                group.earlier.add(earlier);
            }
            entries.add(group);
            return this;
        }

        /** How many steps were added: the next one's place in {@link Written#row}. */
        public int size() {
            return entries.size();
        }

        public boolean isEmpty() {
            return rows.isEmpty();
        }

        /**
         * Writes the entries in {@code tx}, the transaction of the steps they record; nothing if there are none.
         *
         * @return the row each step went into
         */
        public Written write(Connection tx) throws SQLException {
            if (rows.isEmpty()) {
                return Written.NONE;
            }
            int n = rows.size();
            List<String> ids = new ArrayList<>();
            List<Long> earlier = new ArrayList<>();
            String[] events = new String[n];
            String[] links = new String[n];
            String[] peers = new String[n];
            String[] precedences = new String[n];
            String[] details = new String[n];
            String[] origins = new String[n];
            Integer[] first = new Integer[n];
            Integer[] last = new Integer[n];
            Integer[] earlierFirst = new Integer[n];
            Integer[] earlierLast = new Integer[n];
            String[] foundThrough = new String[n];
            Integer[] bloomFirst = new Integer[n];
            Integer[] bloomLength = new Integer[n];
            ByteArrayOutputStream blooms = new ByteArrayOutputStream();
            int i = 0;
            for (Map.Entry<Row, Group> entry : rows.entrySet()) {
                Row row = entry.getKey();
                Group group = entry.getValue();
                events[i] = row.event();
                links[i] = row.link();
                peers[i] = row.peers();
                precedences[i] = row.precedence();
                details[i] = row.detail();
                origins[i] = row.origin();
                foundThrough[i] = row.foundThrough();
                first[i] = ids.size() + 1;
                ids.addAll(group.ids);
                last[i] = ids.size();
                if (row.later()) {
                    earlierFirst[i] = earlier.size() + 1;
                    earlier.addAll(group.earlier);
                    earlierLast[i] = earlier.size();
                }
                else if (bloomed && row.foundThrough() == null) {
                    byte[] bloom = MessageIdBloom.of(group.ids);
                    bloomFirst[i] = blooms.size() + 1;
                    bloomLength[i] = bloom.length;
                    blooms.writeBytes(bloom);
                }
                i++;
            }
            boolean forward = !forwardedOrigins.isEmpty();
            try (PreparedStatement ps = tx.prepareStatement(forward ? INSERT_AND_FORWARD : INSERT)) {
                ps.setString(1, hop);
                ps.setArray(2, tx.createArrayOf("text", ids.toArray(String[]::new)));
                ps.setArray(3, tx.createArrayOf("bigint", earlier.toArray(Long[]::new)));
                ps.setBytes(4, blooms.toByteArray());
                ps.setArray(5, tx.createArrayOf("text", events));
                ps.setArray(6, tx.createArrayOf("text", links));
                ps.setArray(7, tx.createArrayOf("text", peers));
                ps.setArray(8, tx.createArrayOf("text", precedences));
                ps.setArray(9, tx.createArrayOf("text", details));
                ps.setArray(10, tx.createArrayOf("integer", first));
                ps.setArray(11, tx.createArrayOf("integer", last));
                ps.setArray(12, tx.createArrayOf("text", origins));
                ps.setArray(13, tx.createArrayOf("integer", earlierFirst));
                ps.setArray(14, tx.createArrayOf("integer", earlierLast));
                ps.setArray(15, tx.createArrayOf("text", foundThrough));
                ps.setArray(16, tx.createArrayOf("integer", bloomFirst));
                ps.setArray(17, tx.createArrayOf("integer", bloomLength));
                if (forward) {
                    ps.setArray(18, tx.createArrayOf("text", forwardedOrigins.toArray(String[]::new)));
                    ps.setArray(19, tx.createArrayOf("text", forwardedEvents));
                }
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        Group group = rows.get(new Row(rs.getString(2), rs.getString(3), rs.getString(4),
                                rs.getString(5), rs.getString(6), rs.getString(7), rs.getBoolean(8),
                                rs.getString(9)));
                        if (group != null) {
                            group.row = rs.getLong(1);
                        }
                    }
                }
            }
            long[] byEntry = new long[entries.size()];
            for (int e = 0; e < byEntry.length; e++) {
                byEntry[e] = entries.get(e).row;
            }
            return new Written(byEntry);
        }
    }

    /** The rows a transaction's steps went into, by the order the steps were added. */
    public static final class Written {

        static final Written NONE = new Written(new long[0]);

        private final long[] rows;

        private Written(long[] rows) {
            this.rows = rows;
        }

        /**
         * The row of the {@code entry}-th step added ({@link Entries#size} before adding it), for a later step of the
         * same message to name; 0 when none was written (the log is off).
         */
        public long row(int entry) {
            return entry >= 0 && entry < rows.length ? rows[entry] : 0;
        }
    }

    private static final class Group {

        private final List<String> ids = new ArrayList<>();
        private final Set<Long> earlier = new LinkedHashSet<>();
        // Its row in the log once written: 0 until then, or if the statement did not return it.
        private long row;
    }

    /**
     * What a row's steps share; later steps (found through the earlier rows they name) and steps found through their
     * messages' rows share rows only among their own kind.
     */
    private record Row(String event, String link, @Nullable String peers, @Nullable String precedence,
            @Nullable String detail, @Nullable String origin, boolean later, @Nullable String foundThrough) {

        /**
         * Whether a step given so is of this row, compared without making its row: one peer or none, a detail that
         * needs no mending. A step this cannot tell (several peers) is not, and its row is made and looked up.
         */
        boolean sameAs(CustodyEvent event, String link, Collection<?> peers, @Nullable Precedence precedence,
                @Nullable String detail, @Nullable NodeId origin, boolean later, @Nullable String foundThrough) {
            return this.later == later && this.event.equals(event.label()) && this.link.equals(link)
                    && Objects.equals(this.foundThrough, foundThrough)
                    && (precedence == null ? this.precedence == null : precedence.name().equals(this.precedence))
                    && (origin == null ? this.origin == null : origin.value().equals(this.origin))
                    && Objects.equals(this.detail, detail)
                    && (peers.isEmpty() ? this.peers == null
                            : peers.size() == 1 && this.peers != null && this.peers.indexOf(',') < 0
                                    && this.peers.equals(peers.iterator().next().toString()));
        }
    }

    private static @Nullable String peers(Collection<?> peers) {
        if (peers.isEmpty()) {
            return null;
        }
        // One peer, as most steps have, without a stream.
        String joined = peers.size() == 1 ? peers.iterator().next().toString()
                : peers.stream().map(Object::toString).collect(Collectors.joining(","));
        int commas = 0;
        for (int at = joined.indexOf(','); at >= 0; at = joined.indexOf(',', at + 1)) {
            commas++;
        }
        if (commas != peers.size() - 1) {
            throw new IllegalArgumentException("A custody peer is a node or site id, without a comma: " + peers);
        }
        return joined;
    }

    /** Storable (PostgreSQL text holds no NUL) and short. */
    private static @Nullable String detail(@Nullable String detail) {
        if (detail == null) {
            return null;
        }
        String storable = detail.replace('\0', '\uFFFD');
        return storable.length() <= MAX_DETAIL_CHARS ? storable : storable.substring(0, MAX_DETAIL_CHARS - 1) + "…";
    }
}
