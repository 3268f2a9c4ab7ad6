package kr.c4i.gateway.wan.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;

import org.jspecify.annotations.Nullable;

import kr.c4i.gateway.core.Envelope;

/**
 * A batch of envelopes as one array per column, bound to the parameters of an {@code INSERT ... SELECT FROM unnest(...)}
 * that writes the whole batch in one statement.
 */
final class EnvelopeColumns {

    private final String[] messageIds;
    private final String[] origins;
    private final String[] types;
    private final Short[] precedences;
    private final String[] classifications;
    private final Long[] created;
    private final byte[][] bodies;
    private final String[] traces;
    private final @Nullable String[] traceParents;

    EnvelopeColumns(List<Envelope> envelopes) {
        int n = envelopes.size();
        messageIds = new String[n];
        origins = new String[n];
        types = new String[n];
        precedences = new Short[n];
        classifications = new String[n];
        created = new Long[n];
        bodies = new byte[n][];
        traces = new String[n];
        traceParents = new String[n];
        for (int i = 0; i < n; i++) {
            Envelope e = envelopes.get(i);
            messageIds[i] = e.messageId();
            origins[i] = e.origin().value();
            types[i] = e.kmtfType();
            precedences[i] = (short) e.precedence().ordinal();
            classifications[i] = e.classification();
            created[i] = ChronoUnit.MICROS.between(Instant.EPOCH, e.createdAt());
            bodies[i] = e.body();
            traces[i] = e.traceText();
            traceParents[i] = e.traceParent() == null ? null : e.traceParent().value();
        }
    }

    /**
     * Binds the arrays to the nine parameters from {@code first} on: message id (text), origin node (text), KMTF type
     * (text), precedence ordinal (smallint), classification (text), created (bigint, microseconds since the epoch),
     * body (bytea), trace (text, {@link Envelope#traceText}), trace context (text, the traceparent's, null for none).
     */
    void bind(Connection c, PreparedStatement ps, int first) throws SQLException {
        ps.setArray(first, c.createArrayOf("text", messageIds));
        ps.setArray(first + 1, c.createArrayOf("text", origins));
        ps.setArray(first + 2, c.createArrayOf("text", types));
        ps.setArray(first + 3, c.createArrayOf("smallint", precedences));
        ps.setArray(first + 4, c.createArrayOf("text", classifications));
        ps.setArray(first + 5, c.createArrayOf("bigint", created));
        ps.setArray(first + 6, c.createArrayOf("bytea", bodies));
        ps.setArray(first + 7, c.createArrayOf("text", traces));
        ps.setArray(first + 8, c.createArrayOf("text", traceParents));
    }
}
