package kr.c4i.gateway.core;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Arrays;
import java.util.Objects;

import kr.c4i.gateway.kmtf.catalogue.Precedence;

/**
 * One KMTF message in transit, with what every transport must carry beside the text.
 *
 * @param messageId globally unique id given by the origin's outbox; receivers deduplicate on it
 * @param origin the node whose outbox the message came from
 * @param kmtfType the message text format identifier (the catalogue id, e.g. {@code SITREP})
 * @param precedence delivery precedence
 * @param classification security classification line of the message, {@code UNCLASSIFIED} when absent
 * @param createdAt when the C4I application wrote the message into the outbox; end-to-end latency starts here
 * @param body the message text as the application wrote it (UTF-8)
 */
public record Envelope(String messageId, NodeId origin, String kmtfType, Precedence precedence,
        String classification, Instant createdAt, byte[] body) {

    public Envelope {
        Objects.requireNonNull(messageId, "messageId");
        Objects.requireNonNull(origin, "origin");
        Objects.requireNonNull(kmtfType, "kmtfType");
        Objects.requireNonNull(precedence, "precedence");
        Objects.requireNonNull(classification, "classification");
        Objects.requireNonNull(createdAt, "createdAt");
        Objects.requireNonNull(body, "body");
        if (messageId.isBlank()) {
            throw new IllegalArgumentException("messageId must not be blank");
        }
    }

    public String text() {
        return new String(body, StandardCharsets.UTF_8);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Envelope e && messageId.equals(e.messageId) && origin.equals(e.origin)
                && kmtfType.equals(e.kmtfType) && precedence == e.precedence
                && classification.equals(e.classification) && createdAt.equals(e.createdAt)
                && Arrays.equals(body, e.body);
    }

    @Override
    public int hashCode() {
        return Objects.hash(messageId, origin, kmtfType, precedence, classification, createdAt) * 31
                + Arrays.hashCode(body);
    }

    @Override
    public String toString() {
        return "Envelope[" + messageId + " " + kmtfType + " from " + origin + ", " + precedence + ", "
                + body.length + " bytes]";
    }
}
