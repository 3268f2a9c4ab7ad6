package kr.c4i.gateway.interfacedb;

import java.time.Instant;

/**
 * An outbox row the bridge refused, with the reason and the original bytes.
 *
 * @param outboxId the refused row's {@code outbox.id}
 * @param messageId its message id
 * @param kmtfType its declared type
 * @param reasonKind the stable kind of the refusal (e.g. {@code UNKNOWN_TYPE})
 * @param reason the refusal for people
 * @param body the original bytes
 * @param quarantinedAt when the bridge refused it
 * @param quarantinedBy the node whose bridge refused it
 */
public record QuarantineRow(long outboxId, String messageId, String kmtfType, String reasonKind, String reason,
        byte[] body, Instant quarantinedAt, String quarantinedBy) {
}
