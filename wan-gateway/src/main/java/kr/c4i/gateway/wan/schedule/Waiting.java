package kr.c4i.gateway.wan.schedule;

import java.time.Instant;

import org.jspecify.annotations.Nullable;

import kr.c4i.gateway.core.NodeId;
import kr.c4i.gateway.kmtf.catalogue.Precedence;

/**
 * One stored copy waiting for its route, as the scheduler sees it: enough to choose, not the message itself.
 *
 * @param id the store's id of the copy
 * @param messageId the id of the message it is a copy of
 * @param precedence its precedence
 * @param kmtfType its catalogue type id
 * @param bytes its size on the link before compression (envelope and relay header)
 * @param createdAt when its origin's application wrote it (for expiry)
 * @param storedAt when this gateway stored it
 * @param origin the node its message came from, which the custody steps taken with it name; {@code null} for a
 *        custody step on its way to another site
 * @param storedIn the custody log row that recorded its storing, which the step that removes it names; 0 when not
 *        known (stored before this start, or with the log off)
 */
public record Waiting(long id, String messageId, Precedence precedence, String kmtfType, int bytes, Instant createdAt,
        Instant storedAt, @Nullable NodeId origin, long storedIn) {

    /** A copy whose storing's custody step is not known. */
    public Waiting(long id, String messageId, Precedence precedence, String kmtfType, int bytes, Instant createdAt,
            Instant storedAt, @Nullable NodeId origin) {
        this(id, messageId, precedence, kmtfType, bytes, createdAt, storedAt, origin, 0);
    }

    /** A copy whose origin its steps do not name. */
    public Waiting(long id, String messageId, Precedence precedence, String kmtfType, int bytes, Instant createdAt,
            Instant storedAt) {
        this(id, messageId, precedence, kmtfType, bytes, createdAt, storedAt, null);
    }
}
