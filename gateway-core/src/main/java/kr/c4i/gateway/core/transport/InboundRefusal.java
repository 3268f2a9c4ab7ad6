package kr.c4i.gateway.core.transport;

import java.util.Objects;

import org.jspecify.annotations.Nullable;

/**
 * Something a transport received but could not turn into an {@link kr.c4i.gateway.core.Envelope}, handed to the
 * {@link InboundHandler} so it is kept for the operator instead of being dropped. Every field but
 * the reason is as the sender claimed it, and may be missing when the transport could not read it.
 *
 * @param origin the node the sender claimed to be, or {@code null}
 * @param messageId the message id as sent, or {@code null}
 * @param kmtfType the KMTF type as sent, or {@code null}
 * @param topic where it arrived (a DDS topic, a queue), or {@code null}
 * @param kind a stable lower-case name operators count by, such as {@code wrong-topic}
 * @param reason what is wrong, for a person
 * @param body the message text's original bytes, or {@code null} when they could not be read
 */
public record InboundRefusal(@Nullable String origin, @Nullable String messageId, @Nullable String kmtfType,
        @Nullable String topic, String kind, String reason, byte @Nullable [] body) {

    public InboundRefusal {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(reason, "reason");
    }
}
