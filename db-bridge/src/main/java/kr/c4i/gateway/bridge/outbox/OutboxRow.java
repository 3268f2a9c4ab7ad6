package kr.c4i.gateway.bridge.outbox;

import java.time.Instant;

import org.jspecify.annotations.Nullable;

/** One claimed outbox row, as the C4I application wrote it. */
record OutboxRow(long id, String messageId, String kmtfType, @Nullable String precedence, byte[] body,
        Instant createdAt) {
}
