package kr.c4i.gateway.bridge.outbox;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.jspecify.annotations.Nullable;

import kr.c4i.gateway.kmtf.catalogue.KmtfCatalogue;
import kr.c4i.gateway.kmtf.catalogue.MessageType;
import kr.c4i.gateway.kmtf.catalogue.Precedence;

/**
 * The FLASH and IMMEDIATE rows ahead of the outbox's claims, for a bridge behind its outbox to send first. A row is
 * urgent by its own precedence or, when that is NULL, by its type's default in the catalogue, which only the bridge
 * knows: so no index can find them, and each row ahead of the claims is read once, its id, type and precedence only,
 * from where the last look ended ({@code seen}). A whole outbox read that way costs about what one claim of its rows
 * does in index pages, and only while the bridge is behind; an index on the rows' urgency would cost every
 * application's insert instead (docs/benchmarks.md).
 *
 * <p>Missing a row costs only its turn, never the row: the claims in id order still reach every row. A row that
 * commits below the end of the last look, an invalid precedence, a type not in the catalogue and rows beyond
 * {@link #HELD} urgent ones go in id order; so does an urgent row whose claim rolled back.
 *
 * <p>The outbox poller's thread alone uses it.
 */
final class UrgentRowsAhead {

    /** Rows read in one look at most: a look costs a few milliseconds, and the next one goes on from there. */
    static final int LOOK = 10_000;

    /** Urgent rows held at most; more wait for their turn in id order. */
    static final int HELD = 10_000;

    private static final String LOOK_SQL = """
            SELECT id, kmtf_type, precedence FROM outbox WHERE id >= ? AND sent_at IS NULL ORDER BY id LIMIT ?""";

    private final KmtfCatalogue catalogue;
    /** The urgent rows found and not yet claimed, by id. */
    private final TreeMap<Long, Precedence> found = new TreeMap<>();
    /** Every row below was looked at (or is behind the claims). */
    private long seen = Long.MIN_VALUE;

    UrgentRowsAhead(KmtfCatalogue catalogue) {
        this.catalogue = catalogue;
    }

    /**
     * Looks at the rows written since the last look and hands over the urgent ones to claim now, FLASH first, then by
     * id; they are no longer held, whether the claim gets them or not.
     *
     * @param from where the claims in id order start: rows below are theirs
     */
    List<Long> take(Connection tx, long from, int limit) throws SQLException {
        found.headMap(from).clear();
        look(tx, Math.max(seen, from));
        List<Long> ids = new ArrayList<>(Math.min(limit, found.size()));
        for (Precedence wanted : List.of(Precedence.FLASH, Precedence.IMMEDIATE)) {
            for (Map.Entry<Long, Precedence> row : found.entrySet()) {
                if (ids.size() == limit) {
                    break;
                }
                if (row.getValue() == wanted) {
                    ids.add(row.getKey());
                }
            }
        }
        ids.forEach(found::remove);
        return ids;
    }

    private void look(Connection tx, long start) throws SQLException {
        try (PreparedStatement ps = tx.prepareStatement(LOOK_SQL)) {
            ps.setLong(1, start);
            ps.setInt(2, LOOK);
            long next = start;
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    long id = rs.getLong(1);
                    next = id + 1;
                    Precedence precedence = urgency(rs.getString(2), rs.getString(3));
                    if (precedence != null && found.size() < HELD) {
                        found.put(id, precedence);
                    }
                }
            }
            seen = next;
        }
    }

    /** FLASH or IMMEDIATE, as the row's envelope will say; {@code null} for the rest and for what is not valid. */
    private @Nullable Precedence urgency(String type, @Nullable String precedence) {
        Precedence resolved;
        if (precedence == null) {
            resolved = catalogue.find(type).map(MessageType::defaultPrecedence).orElse(null);
        }
        else {
            try {
                resolved = Precedence.parse(precedence);
            }
            catch (IllegalArgumentException invalid) {
                return null;
            }
        }
        return resolved == Precedence.FLASH || resolved == Precedence.IMMEDIATE ? resolved : null;
    }
}
