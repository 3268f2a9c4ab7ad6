package kr.c4i.gateway.interfacedb;

import java.nio.charset.StandardCharsets;
import java.time.Instant;

/**
 * A message the bridge delivered into the inbox.
 *
 * @param messageId its id, as its origin's outbox gave it
 * @param originNode the node that sent it
 * @param kmtfType its KMTF type
 * @param precedence its precedence name
 * @param classification its classification
 * @param body the message text as bytes
 * @param createdAt when it was written to its origin's outbox
 * @param receivedAt when it arrived here
 * @param transport the transport it came over
 */
public record InboxRow(String messageId, String originNode, String kmtfType, String precedence,
        String classification, byte[] body, Instant createdAt, Instant receivedAt, String transport) {

    public String text() {
        return new String(body, StandardCharsets.UTF_8);
    }
}
