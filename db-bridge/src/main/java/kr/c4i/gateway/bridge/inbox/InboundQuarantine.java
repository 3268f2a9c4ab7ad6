package kr.c4i.gateway.bridge.inbox;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.List;

import javax.sql.DataSource;

import org.jspecify.annotations.Nullable;

import kr.c4i.gateway.core.Envelope;
import kr.c4i.gateway.core.NodeId;
import kr.c4i.gateway.core.transport.InboundRefusal;
import kr.c4i.gateway.custody.CustodyEvent;
import kr.c4i.gateway.custody.CustodyLog;
import kr.c4i.gateway.kmtf.catalogue.Precedence;

/**
 * Keeps what the receiving side refused in {@code inbound_quarantine}, one transaction per batch. What is stored is
 * what the sender claimed, so it is made storable first: NUL characters (which PostgreSQL text cannot hold) are
 * replaced, claimed fields are cut to {@value #MAX_CLAIMED_CHARS} characters and the body to its first
 * {@value #MAX_KEPT_BODY} bytes, so no refused input can make the quarantine itself fail. A message refused again
 * (a sender's resend) counts on its first row instead of adding one. The custody log records each refusal of an
 * arrival with a message id in the same transaction: {@code refused} for want of clearance, {@code quarantined}
 * otherwise.
 */
public final class InboundQuarantine {

    /** Longest claimed field kept (ids, origin, type, topic, classification), in characters. */
    static final int MAX_CLAIMED_CHARS = 200;
    static final int MAX_REASON_CHARS = 4000;
    /** Longest body kept, in bytes; {@code body_size} keeps the size that arrived. */
    static final int MAX_KEPT_BODY = 1024 * 1024;

    private static final Instant EARLIEST_STORABLE = Instant.parse("0001-01-01T00:00:00Z");
    private static final Instant LATEST_STORABLE = Instant.parse("9999-12-31T23:59:59Z");

    private static final String INSERT = """
            INSERT INTO inbound_quarantine (transport, origin_node, message_id, kmtf_type, topic, precedence,
                                            classification, created_at, reason_kind, reason, body, body_size)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (origin_node, message_id, reason_kind)
                WHERE origin_node IS NOT NULL AND message_id IS NOT NULL
            DO UPDATE SET times_received = inbound_quarantine.times_received + 1,
                          last_received_at = clock_timestamp()""";

    /** One refused arrival, every field as claimed and possibly {@code null} except the kind and reason. */
    public record Kept(@Nullable String origin, @Nullable String messageId, @Nullable String kmtfType,
            @Nullable String topic, @Nullable String precedence, @Nullable String classification,
            @Nullable Instant createdAt, String kind, String reason, byte @Nullable [] body) {

        static Kept of(Envelope envelope, String kind, String reason) {
            return new Kept(envelope.origin().value(), envelope.messageId(), envelope.kmtfType(), null,
                    envelope.precedence().name(), envelope.classification(), envelope.createdAt(), kind, reason,
                    envelope.body());
        }

        static Kept of(InboundRefusal refusal) {
            return new Kept(refusal.origin(), refusal.messageId(), refusal.kmtfType(), refusal.topic(), null, null,
                    null, refusal.kind(), refusal.reason(), refusal.body());
        }
    }

    private final DataSource dataSource;
    private final String transport;
    private final CustodyLog custody;

    public InboundQuarantine(DataSource dataSource, String transport, CustodyLog custody) {
        this.dataSource = dataSource;
        this.transport = transport;
        this.custody = custody;
    }

    public void keep(List<Kept> refused) throws SQLException {
        if (refused.isEmpty()) {
            return;
        }
        try (Connection tx = this.dataSource.getConnection()) {
            tx.setAutoCommit(false);
            try (PreparedStatement ps = tx.prepareStatement(INSERT)) {
                for (Kept kept : refused) {
                    ps.setString(1, this.transport);
                    ps.setString(2, claimed(kept.origin()));
                    ps.setString(3, claimed(kept.messageId()));
                    ps.setString(4, claimed(kept.kmtfType()));
                    ps.setString(5, claimed(kept.topic()));
                    ps.setString(6, claimed(kept.precedence()));
                    ps.setString(7, claimed(kept.classification()));
                    // An OffsetDateTime, not a java.sql.Timestamp: that one would shift dates before 1582 by days.
                    ps.setObject(8, storable(kept.createdAt()), Types.TIMESTAMP_WITH_TIMEZONE);
                    ps.setString(9, text(kept.kind(), MAX_CLAIMED_CHARS));
                    ps.setString(10, text(kept.reason(), MAX_REASON_CHARS));
                    byte[] body = kept.body();
                    ps.setBytes(11, body == null || body.length <= MAX_KEPT_BODY ? body
                            : Arrays.copyOf(body, MAX_KEPT_BODY));
                    if (body == null) {
                        ps.setNull(12, Types.INTEGER);
                    }
                    else {
                        ps.setInt(12, body.length);
                    }
                    ps.addBatch();
                }
                ps.executeBatch();
                logged(refused).write(tx);
                tx.commit();
            }
            catch (SQLException | RuntimeException ex) {
                tx.rollback();
                throw ex;
            }
        }
    }

    private CustodyLog.Entries logged(List<Kept> refused) {
        CustodyLog.Entries steps = custody.entries();
        for (Kept kept : refused) {
            String id = claimed(kept.messageId());
            if (id == null) {
                continue;
            }
            String claimed = kept.origin();
            // The step's peer and origin, for that node's delivery reports, when what is claimed is a node id.
            NodeId origin = claimed != null && NodeId.isValid(claimed) ? NodeId.of(claimed) : null;
            CustodyEvent event = InboundValidator.CLEARANCE_EXCEEDED.equals(kept.kind()) ? CustodyEvent.REFUSED
                    : CustodyEvent.QUARANTINED;
            steps.add(event, id, origin != null ? List.of(origin) : List.of(), precedence(kept.precedence()),
                    kept.kind() + ": " + kept.reason(), origin);
        }
        return steps;
    }

    private static @Nullable Precedence precedence(@Nullable String claimed) {
        try {
            return claimed == null ? null : Precedence.valueOf(claimed);
        }
        catch (IllegalArgumentException ex) {
            return null;
        }
    }

    private static @Nullable String claimed(@Nullable String value) {
        return text(value, MAX_CLAIMED_CHARS);
    }

    /** The value cut to {@code max} characters, NUL replaced: storable, and safe to log. */
    static @Nullable String text(@Nullable String value, int max) {
        if (value == null) {
            return null;
        }
        String storable = value.replace('\0', '\uFFFD');
        return storable.length() <= max ? storable : storable.substring(0, max - 1) + "…";
    }

    /** PostgreSQL holds years 4713 BC to 294276 AD; a claim outside four-digit years is left out (see the reason). */
    private static @Nullable OffsetDateTime storable(@Nullable Instant instant) {
        return instant == null || instant.isBefore(EARLIEST_STORABLE) || instant.isAfter(LATEST_STORABLE) ? null
                : instant.atOffset(ZoneOffset.UTC);
    }
}
