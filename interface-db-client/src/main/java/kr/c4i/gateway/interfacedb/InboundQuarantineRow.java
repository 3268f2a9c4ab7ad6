package kr.c4i.gateway.interfacedb;

import java.time.Instant;

import org.jspecify.annotations.Nullable;

/**
 * Something that arrived but was refused instead of delivered; all but the reason is as the sender claimed it.
 *
 * @param transport the transport it came over
 * @param originNode the claimed origin, null if it could not be read
 * @param messageId the claimed message id, or null
 * @param kmtfType the claimed type, or null
 * @param reasonKind the stable kind of the refusal
 * @param reason the refusal for people
 * @param body at most the first MiB of the original bytes, or null
 * @param bodySize the size that arrived, or null
 * @param timesReceived how often the same refused message arrived
 * @param receivedAt when it first arrived
 */
public record InboundQuarantineRow(String transport, @Nullable String originNode, @Nullable String messageId,
        @Nullable String kmtfType, String reasonKind, String reason, byte @Nullable [] body,
        @Nullable Integer bodySize, int timesReceived, Instant receivedAt) {
}
