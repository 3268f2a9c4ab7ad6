package kr.c4i.gateway.bridge.outbox;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;

import org.jspecify.annotations.Nullable;

/**
 * One claimed outbox row, as the C4I application wrote it.
 *
 * @param createdAt exact, whatever the year; PostgreSQL's {@code infinity} and {@code -infinity} are
 *        {@link Instant#MAX} and {@link Instant#MIN}, which no envelope accepts
 * @param traceParent the W3C traceparent the application wrote, as it wrote it; {@code null} for none
 */
record OutboxRow(long id, String messageId, String kmtfType, @Nullable String precedence, byte[] body,
        Instant createdAt, @Nullable String traceParent) {

    /**
     * Reads a {@code timestamptz} column. {@code getTimestamp} would go through {@code java.util}'s hybrid
     * Julian/Gregorian calendar and move dates before 1582 by days; {@code java.time} is proleptic Gregorian, like
     * PostgreSQL. The driver reads {@code infinity} as {@link OffsetDateTime#MAX}, a real instant in year
     * 1000000000, so it is mapped explicitly.
     */
    static Instant createdAt(ResultSet rs, int column) throws SQLException {
        OffsetDateTime value = rs.getObject(column, OffsetDateTime.class);
        if (value == null) {
            throw new SQLException("column " + column + " (created_at) is NULL");
        }
        if (value.equals(OffsetDateTime.MAX)) {
            return Instant.MAX;
        }
        if (value.equals(OffsetDateTime.MIN)) {
            return Instant.MIN;
        }
        return value.toInstant();
    }
}
