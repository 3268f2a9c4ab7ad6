package kr.c4i.gateway.interfacedb;

import java.nio.charset.StandardCharsets;

import org.jspecify.annotations.Nullable;

/**
 * An outbox row with every column the application may set, as written, for tests of bad rows and for legacy data:
 * nothing is checked here, the database's constraints and the bridge decide.
 *
 * @param messageId {@code message_id}, any text
 * @param kmtfType {@code kmtf_type}
 * @param precedence {@code precedence}, null for the type's default
 * @param body {@code body}
 * @param createdAt {@code created_at} as a PostgreSQL timestamptz literal (so {@code infinity} and dates outside
 *        {@link java.time.Instant}'s range can be written), null for the database's clock
 */
public record RawOutboxRow(String messageId, String kmtfType, @Nullable String precedence, byte[] body,
        @Nullable String createdAt) {

    public static RawOutboxRow of(String messageId, String kmtfType, @Nullable String precedence, String body,
            @Nullable String createdAt) {
        return new RawOutboxRow(messageId, kmtfType, precedence, body.getBytes(StandardCharsets.UTF_8), createdAt);
    }
}
