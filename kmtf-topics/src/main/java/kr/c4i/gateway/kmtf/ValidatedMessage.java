package kr.c4i.gateway.kmtf;

import java.util.Objects;

import kr.c4i.gateway.kmtf.catalogue.MessageType;
import kr.c4i.gateway.kmtf.text.KmtfMessage;

/**
 * A message that passed every check of {@link KmtfValidator}, with the catalogue entry that decides its topic and
 * QoS.
 *
 * @param type the catalogue entry of the declared (and matching MSGID) type
 * @param message the parsed text
 */
public record ValidatedMessage(MessageType type, KmtfMessage message) {

    public ValidatedMessage {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(message, "message");
    }
}
