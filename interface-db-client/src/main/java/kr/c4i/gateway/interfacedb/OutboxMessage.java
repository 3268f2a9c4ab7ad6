package kr.c4i.gateway.interfacedb;

import java.nio.charset.StandardCharsets;

/**
 * A message as a C4I application writes it: the outbox gives it its id, default precedence and creation time.
 *
 * @param kmtfType the declared KMTF type ({@code outbox.kmtf_type})
 * @param body the message text as bytes, unchecked: the bridge quarantines what it refuses
 */
public record OutboxMessage(String kmtfType, byte[] body) {

    public static OutboxMessage of(String kmtfType, String body) {
        return new OutboxMessage(kmtfType, body.getBytes(StandardCharsets.UTF_8));
    }
}
