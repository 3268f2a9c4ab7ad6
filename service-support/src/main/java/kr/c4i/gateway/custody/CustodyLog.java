package kr.c4i.gateway.custody;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
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
 * <p>A step with another node's messages names their origin node (column {@code origin}: wan-store V11, db-bridge
 * V11), for that node's delivery reports. At a WAN gateway a step with messages of another site's node is also
 * queued in {@code custody_forward}, in the same statement, for the gateway to forward to that site
 * ({@link #forwarding}); a node has no such table and forwards nothing.
 */
public final class CustodyLog {

    /** Longest detail kept, in characters: a reason, not a document. */
    static final int MAX_DETAIL_CHARS = 300;

    // The rows' message ids as one array, each row taking its slice: what is bound grows with the messages, not with
    // rows times messages. The rows of one statement share its time, so a reader tells them apart from later steps.
    private static final String INSERT = """
            INSERT INTO custody_log (at, event, hop, link, peer, precedence, detail, message_ids, origin)
            SELECT statement_timestamp(), r.event, ?, r.link, string_to_array(r.peers, ','), r.precedence, r.detail,
                   (?::text[])[r.first:r.last], r.origin
              FROM unnest(?::text[], ?::text[], ?::text[], ?::text[], ?::text[], ?::int[], ?::int[], ?::text[])
                   AS r(event, link, peers, precedence, detail, first, last, origin)""";

    // The same at a gateway with rows to forward: those of the origins to forward are queued too.
    private static final String INSERT_AND_FORWARD = """
            WITH logged AS (
                INSERT INTO custody_log (at, event, hop, link, peer, precedence, detail, message_ids, origin)
                SELECT statement_timestamp(), r.event, ?, r.link, string_to_array(r.peers, ','), r.precedence,
                       r.detail, (?::text[])[r.first:r.last], r.origin
                  FROM unnest(?::text[], ?::text[], ?::text[], ?::text[], ?::text[], ?::int[], ?::int[], ?::text[])
                       AS r(event, link, peers, precedence, detail, first, last, origin)
                RETURNING id, origin, event)
            INSERT INTO custody_forward (log_id)
            SELECT id FROM logged WHERE origin = ANY(?::text[]) AND event = ANY(?::text[])""";

    private static final CustodyLog OFF = new CustodyLog("", "", false, origin -> false, new String[0]);

    private final String hop;
    private final String link;
    private final boolean enabled;
    private final Predicate<NodeId> forwarded;
    private final String[] forwardedEvents;

    /**
     * @param hop this node's or site's id, as each row names where it was written
     * @param link what entries travel over unless they say otherwise: the node's transport ({@code jms}, {@code dds}),
     *        the gateway's WAN link ({@code norm}, {@code dds}, {@code jms})
     */
    public CustodyLog(String hop, String link) {
        this(hop, link, true, origin -> false, new String[0]);
    }

    private CustodyLog(String hop, String link, boolean enabled, Predicate<NodeId> forwarded,
            String[] forwardedEvents) {
        this.hop = Objects.requireNonNull(hop, "hop");
        this.link = Objects.requireNonNull(link, "link");
        this.enabled = enabled;
        this.forwarded = Objects.requireNonNull(forwarded, "forwarded");
        this.forwardedEvents = forwardedEvents.clone();
    }

    /**
     * This log, queuing for forwarding the steps of these events whose origin is one of {@code elsewhere} (another
     * site's node).
     */
    public CustodyLog forwarding(Predicate<NodeId> elsewhere, Set<CustodyEvent> events) {
        return new CustodyLog(hop, link, enabled, elsewhere,
                events.stream().map(CustodyEvent::label).sorted().toArray(String[]::new));
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

        private final Map<Row, List<String>> rows = new LinkedHashMap<>();
        private final Set<String> forwardedOrigins = new HashSet<>();

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
            if (!enabled) {
                return this;
            }
            Row row = new Row(event.label(), link, peers(peers), precedence == null ? null : precedence.name(),
                    detail(detail), origin == null ? null : origin.value());
            if (origin != null && forwarded.test(origin)) {
                forwardedOrigins.add(origin.value());
            }
            rows.computeIfAbsent(row, r -> new ArrayList<>()).add(messageId);
            return this;
        }

        public boolean isEmpty() {
            return rows.isEmpty();
        }

        /** Writes the entries in {@code tx}, the transaction of the steps they record; nothing if there are none. */
        public void write(Connection tx) throws SQLException {
            if (rows.isEmpty()) {
                return;
            }
            int n = rows.size();
            List<String> ids = new ArrayList<>();
            String[] events = new String[n];
            String[] links = new String[n];
            String[] peers = new String[n];
            String[] precedences = new String[n];
            String[] details = new String[n];
            String[] origins = new String[n];
            Integer[] first = new Integer[n];
            Integer[] last = new Integer[n];
            int i = 0;
            for (Map.Entry<Row, List<String>> entry : rows.entrySet()) {
                Row row = entry.getKey();
                events[i] = row.event();
                links[i] = row.link();
                peers[i] = row.peers();
                precedences[i] = row.precedence();
                details[i] = row.detail();
                origins[i] = row.origin();
                first[i] = ids.size() + 1;
                ids.addAll(entry.getValue());
                last[i] = ids.size();
                i++;
            }
            boolean forward = !forwardedOrigins.isEmpty();
            try (PreparedStatement ps = tx.prepareStatement(forward ? INSERT_AND_FORWARD : INSERT)) {
                ps.setString(1, hop);
                ps.setArray(2, tx.createArrayOf("text", ids.toArray()));
                ps.setArray(3, tx.createArrayOf("text", events));
                ps.setArray(4, tx.createArrayOf("text", links));
                ps.setArray(5, tx.createArrayOf("text", peers));
                ps.setArray(6, tx.createArrayOf("text", precedences));
                ps.setArray(7, tx.createArrayOf("text", details));
                ps.setArray(8, tx.createArrayOf("integer", first));
                ps.setArray(9, tx.createArrayOf("integer", last));
                ps.setArray(10, tx.createArrayOf("text", origins));
                if (forward) {
                    ps.setArray(11, tx.createArrayOf("text", forwardedOrigins.toArray()));
                    ps.setArray(12, tx.createArrayOf("text", forwardedEvents));
                }
                ps.executeUpdate();
            }
        }
    }

    private record Row(String event, String link, @Nullable String peers, @Nullable String precedence,
            @Nullable String detail, @Nullable String origin) {
    }

    private static @Nullable String peers(Collection<?> peers) {
        if (peers.isEmpty()) {
            return null;
        }
        String joined = peers.stream().map(Object::toString).collect(Collectors.joining(","));
        if (joined.chars().filter(c -> c == ',').count() != peers.size() - 1) {
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
