package kr.c4i.gateway.wan.store;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

import javax.sql.DataSource;

import kr.c4i.gateway.core.Envelope;
import kr.c4i.gateway.custody.CustodyEvent;
import kr.c4i.gateway.custody.CustodyLog;
import kr.c4i.gateway.jdbc.Transactions;

/**
 * Messages taken off the LAN that the gateway cannot relay as they are, kept with their bytes, their trace as they
 * came (no hop of this gateway's: it relays them nowhere) and their trace context in table {@code relay_quarantine}
 * (Flyway migrations V2, V10 and V12) instead of being dropped: custody passes here, as to the relay store, and an
 * operator reads them there. One row per message id: a message offered again is absorbed. The custody log records
 * each message kept in the same transaction.
 */
public final class RelayQuarantine {

    /** The reason of a message whose KMTF type the gateway's catalogue does not define. */
    public static final String UNKNOWN_TYPE = "unknown-type";

    private static final String INSERT = """
            INSERT INTO relay_quarantine (message_id, origin_node, kmtf_type, precedence, classification, created_at,
                                          body, trace, trace_parent, reason, quarantined_at)
            SELECT q.message_id, q.origin, q.type, q.precedence, q.classification,
                   timestamptz 'epoch' + q.created_us * interval '1 microsecond', q.body, q.trace, q.trace_parent, ?,
                   timestamptz 'epoch' + ? * interval '1 microsecond'
              FROM unnest(?::text[], ?::text[], ?::text[], ?::smallint[], ?::text[], ?::bigint[], ?::bytea[],
                          ?::text[], ?::text[])
                   AS q(message_id, origin, type, precedence, classification, created_us, body, trace, trace_parent)
            ON CONFLICT (message_id) DO NOTHING
            RETURNING message_id""";

    private final DataSource dataSource;
    private final Clock clock;
    private final CustodyLog custody;

    /** Over a database that has the {@code relay_quarantine} table (Flyway migration V2). */
    public RelayQuarantine(DataSource dataSource, Clock clock, CustodyLog custody) {
        this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.custody = Objects.requireNonNull(custody, "custody");
    }

    /**
     * Keeps messages for one reason, in one transaction whose commit is on disk when this returns (as
     * {@link RelayStore#accept} commits), so the LAN side may then acknowledge them.
     *
     * @return the ids of the messages kept now; the others were kept already (or repeat one of the batch)
     * @throws SQLException if the transaction failed: none of the batch is kept
     */
    public Set<String> keep(List<Envelope> envelopes, String reason) throws SQLException {
        if (envelopes.isEmpty()) {
            return Set.of();
        }
        EnvelopeColumns columns = new EnvelopeColumns(envelopes);
        Map<String, Envelope> byId = new HashMap<>();
        envelopes.forEach(e -> byId.putIfAbsent(e.messageId(), e));
        return Transactions.durable(dataSource, tx -> {
            Set<String> kept = new HashSet<>();
            CustodyLog.Entries steps = custody.entries();
            try (PreparedStatement ps = tx.prepareStatement(INSERT)) {
                ps.setString(1, reason);
                ps.setLong(2, ChronoUnit.MICROS.between(Instant.EPOCH, clock.instant()));
                columns.bind(tx, ps, 3);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        Envelope envelope = byId.get(rs.getString(1));
                        kept.add(envelope.messageId());
                        steps.add(CustodyEvent.QUARANTINED, envelope.messageId(), RelayStore.LAN_LINK,
                                List.of(envelope.origin()), envelope.precedence(), reason,
                                ForwardedStep.TYPE.equals(envelope.kmtfType()) ? null : envelope.origin());
                    }
                }
            }
            steps.write(tx);
            return kept;
        });
    }
}
