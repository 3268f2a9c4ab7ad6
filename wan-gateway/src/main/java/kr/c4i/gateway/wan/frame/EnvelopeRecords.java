package kr.c4i.gateway.wan.frame;

import java.time.DateTimeException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.TreeSet;
import java.util.UUID;

import org.jspecify.annotations.Nullable;

import kr.c4i.gateway.core.Envelope;
import kr.c4i.gateway.core.NodeId;
import kr.c4i.gateway.core.link.SiteId;
import kr.c4i.gateway.kmtf.catalogue.Precedence;
import kr.c4i.gateway.wan.relay.RelayedEnvelope;

/**
 * One relayed envelope as a record of a DATA frame's block, before compression. Fields in order: message id (a tag
 * byte, then 16 bytes for a canonical lower-case UUID, the outboxes' default, else a string), origin, KMTF type,
 * precedence (one byte, the constant's ordinal), classification, creation time (zig-zag varint seconds, varint
 * nanoseconds), body (varint length, bytes), crossed sites (varint count, strings), bound-for sites (the same). A
 * string is a varint length and UTF-8.
 */
final class EnvelopeRecords {

    private static final int TEXT_ID = 0;
    private static final int UUID_ID = 1;
    private static final Precedence[] PRECEDENCES = Precedence.values();

    /** More sites than any deployment has; bounds what a corrupt count can make the reader allocate. */
    static final int MAX_SITES = 4096;

    private EnvelopeRecords() {
    }

    /**
     * Checks what the receiver would refuse, so a sender never sends it.
     *
     * @throws IllegalArgumentException naming the message and the field
     */
    static void checkSendable(RelayedEnvelope relayed) {
        Envelope envelope = relayed.envelope();
        if (envelope.messageId().codePointCount(0, envelope.messageId().length()) > Envelope.MAX_MESSAGE_ID_LENGTH) {
            throw new IllegalArgumentException("Message id of " + envelope + " is longer than "
                    + Envelope.MAX_MESSAGE_ID_LENGTH + " characters");
        }
        if (!Envelope.carries(envelope.createdAt())) {
            throw new IllegalArgumentException("Creation time " + envelope.createdAt() + " of " + envelope
                    + " is outside what transports carry");
        }
        if (relayed.crossed().size() > MAX_SITES || relayed.boundFor().size() > MAX_SITES) {
            throw new IllegalArgumentException(envelope + " names more than " + MAX_SITES + " sites");
        }
    }

    static void write(RelayedEnvelope relayed, ByteSink out) {
        Envelope envelope = relayed.envelope();
        UUID uuid = canonicalUuid(envelope.messageId());
        if (uuid != null) {
            out.write(UUID_ID);
            out.writeLong(uuid.getMostSignificantBits());
            out.writeLong(uuid.getLeastSignificantBits());
        }
        else {
            out.write(TEXT_ID);
            out.writeString(envelope.messageId());
        }
        out.writeString(envelope.origin().value());
        out.writeString(envelope.kmtfType());
        out.write(envelope.precedence().ordinal());
        out.writeString(envelope.classification());
        out.writeZigZag(envelope.createdAt().getEpochSecond());
        out.writeVarLong(envelope.createdAt().getNano());
        out.writeVarLong(envelope.body().length);
        out.write(envelope.body());
        out.writeVarLong(relayed.crossed().size());
        for (SiteId site : relayed.crossed()) {
            out.writeString(site.value());
        }
        out.writeVarLong(relayed.boundFor().size());
        for (SiteId site : relayed.boundFor()) {
            out.writeString(site.value());
        }
    }

    static RelayedEnvelope read(ByteSource in) throws FrameFormatException {
        int idTag = in.readByte("message id tag");
        String messageId = switch (idTag) {
            case UUID_ID -> new UUID(in.readLong("message id"), in.readLong("message id")).toString();
            case TEXT_ID -> in.readString("message id");
            default -> throw new FrameFormatException("Invalid frame: unknown message id tag " + idTag);
        };
        if (messageId.isBlank()
                || messageId.codePointCount(0, messageId.length()) > Envelope.MAX_MESSAGE_ID_LENGTH) {
            throw new FrameFormatException("Invalid frame: message id '" + abbreviate(messageId)
                    + "' is blank or longer than " + Envelope.MAX_MESSAGE_ID_LENGTH + " characters");
        }
        NodeId origin;
        try {
            origin = NodeId.of(in.readString("origin"));
        }
        catch (IllegalArgumentException ex) {
            throw new FrameFormatException("Invalid frame: message " + messageId + ": " + ex.getMessage(), ex);
        }
        String kmtfType = in.readString("KMTF type");
        int precedence = in.readByte("precedence");
        if (precedence >= PRECEDENCES.length) {
            throw new FrameFormatException("Invalid frame: message " + messageId + " has precedence " + precedence
                    + ", 0 to " + (PRECEDENCES.length - 1) + " allowed");
        }
        String classification = in.readString("classification");
        Instant createdAt = createdAt(in.readZigZag("creation seconds"), in.readVarLong("creation nanoseconds"),
                messageId);
        byte[] body = in.readBytes(in.readCount("body length", in.remaining()), "body");
        List<SiteId> crossed = new ArrayList<>();
        int crossedCount = in.readCount("crossed site count", MAX_SITES);
        for (int i = 0; i < crossedCount; i++) {
            crossed.add(site(in.readString("crossed site"), messageId));
        }
        TreeSet<SiteId> boundFor = new TreeSet<>();
        int boundCount = in.readCount("bound-for site count", MAX_SITES);
        for (int i = 0; i < boundCount; i++) {
            boundFor.add(site(in.readString("bound-for site"), messageId));
        }
        if (crossed.isEmpty() || boundFor.size() != boundCount || boundFor.isEmpty()) {
            throw new FrameFormatException("Invalid frame: message " + messageId
                    + " must name at least one crossed site and at least one bound-for site, without repeats");
        }
        Envelope envelope = new Envelope(messageId, origin, kmtfType, PRECEDENCES[precedence], classification,
                createdAt, body);
        return new RelayedEnvelope(envelope, crossed, boundFor);
    }

    private static Instant createdAt(long seconds, long nanos, String messageId) throws FrameFormatException {
        try {
            if (nanos < 0 || nanos > 999_999_999) {
                throw new DateTimeException("nanoseconds " + Long.toUnsignedString(nanos) + " out of range");
            }
            Instant createdAt = Instant.ofEpochSecond(seconds, nanos);
            if (!Envelope.carries(createdAt)) {
                throw new DateTimeException(createdAt + " is outside what transports carry");
            }
            return createdAt;
        }
        catch (DateTimeException ex) {
            throw new FrameFormatException("Invalid frame: creation time of message " + messageId + ": "
                    + ex.getMessage(), ex);
        }
    }

    private static SiteId site(String value, String messageId) throws FrameFormatException {
        try {
            return SiteId.of(value);
        }
        catch (IllegalArgumentException ex) {
            throw new FrameFormatException("Invalid frame: message " + messageId + ": " + ex.getMessage(), ex);
        }
    }

    private static @Nullable UUID canonicalUuid(String messageId) {
        if (messageId.length() != 36) {
            return null;
        }
        try {
            UUID uuid = UUID.fromString(messageId);
            return uuid.toString().equals(messageId) ? uuid : null;
        }
        catch (IllegalArgumentException ex) {
            return null;
        }
    }

    private static String abbreviate(String text) {
        return text.length() <= 40 ? text : text.substring(0, 40) + "...";
    }

    static String describe(RelayedEnvelope relayed) {
        return String.format(Locale.ROOT, "%s (%s from %s, %d bytes)", relayed.messageId(),
                relayed.envelope().kmtfType(), relayed.envelope().origin(), relayed.envelope().body().length);
    }
}
