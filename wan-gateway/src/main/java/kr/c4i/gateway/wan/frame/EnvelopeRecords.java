package kr.c4i.gateway.wan.frame;

import java.time.DateTimeException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.TreeSet;
import java.util.UUID;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import kr.c4i.gateway.core.Envelope;
import kr.c4i.gateway.core.HopTrace;
import kr.c4i.gateway.core.HopTrace.Hop;
import kr.c4i.gateway.core.NodeId;
import kr.c4i.gateway.core.TraceParent;
import kr.c4i.gateway.core.link.SiteId;
import kr.c4i.gateway.kmtf.catalogue.Precedence;
import kr.c4i.gateway.wan.relay.RelayedEnvelope;

/**
 * One relayed envelope as a record of a DATA frame's block, before compression. Fields in order: message id (a tag
 * byte, then 16 bytes for a canonical lower-case UUID, the outboxes' default, else a string), origin, KMTF type,
 * precedence (one byte, the constant's ordinal), classification, creation time (zig-zag varint seconds, varint
 * nanoseconds), body (varint length, bytes), crossed sites (varint count, strings), bound-for sites (the same),
 * trace (varint hop count; then, if there are hops, each hop as one byte of kind and action ({@link #hopCode}), the
 * node's or site's id as a string unless that byte says it is the one the record implies ({@link #IMPLIED_NAME}), and
 * its time as a zig-zag varint of milliseconds after the creation time; then the count of hops the trace left out, as
 * a varint), and from format version {@value #TRACE_PARENT_SINCE} on the trace context ({@link #writeTraceParent}). A
 * string is a varint length and UTF-8.
 */
final class EnvelopeRecords {

    private static final Logger log = LoggerFactory.getLogger(EnvelopeRecords.class);

    /** The first frame format version whose records end with the trace context; version 2's end with the trace. */
    static final int TRACE_PARENT_SINCE = 3;

    private static final int TEXT_ID = 0;
    private static final int UUID_ID = 1;
    private static final Precedence[] PRECEDENCES = Precedence.values();
    private static final HopTrace.Kind[] KINDS = HopTrace.Kind.values();
    private static final HopTrace.Action[] ACTIONS = HopTrace.Action.values();
    /** The flag on a hop's kind and action: its name is the one the record implies, and is not written. */
    static final int IMPLIED_NAME = 0x80;

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
        for (Hop hop : envelope.trace().hops()) {
            try {
                HopTrace.millisAfter(envelope.createdAt(), hop.at());
            }
            catch (ArithmeticException ex) {
                throw new IllegalArgumentException("Trace of " + envelope + ": the time of " + hop.place() + ", "
                        + hop.at() + ", is too far from the creation time for milliseconds in 64 bits", ex);
            }
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
        writeTrace(relayed, out);
        writeTraceParent(envelope.traceParent(), out);
    }

    /**
     * An empty trace is one byte (no hops): the count of hops left out follows only a trace that has hops. A hop whose
     * name is the one the record implies ({@link #impliedName}) is written without it, flagged {@link #IMPLIED_NAME}.
     */
    private static void writeTrace(RelayedEnvelope relayed, ByteSink out) {
        Envelope envelope = relayed.envelope();
        HopTrace trace = envelope.trace();
        out.writeVarLong(trace.hops().size());
        if (trace.isEmpty()) {
            return;
        }
        int sitesBefore = 0;
        for (Hop hop : trace.hops()) {
            boolean implied = hop.name().equals(impliedName(hop.kind(), envelope.origin(), relayed.crossed(),
                    sitesBefore));
            out.write(hopCode(hop) | (implied ? IMPLIED_NAME : 0));
            if (!implied) {
                out.writeString(hop.name());
            }
            out.writeZigZag(HopTrace.millisAfter(envelope.createdAt(), hop.at()));
            if (hop.kind() == HopTrace.Kind.SITE) {
                sitesBefore++;
            }
        }
        out.writeVarLong(trace.omitted());
    }

    /**
     * The trace context as a varint length and its binary form ({@link TraceParent#toBytes}): none is the one byte 0,
     * a context 26 bytes. The length is the marker: as it says where the record goes on, a reader can pass over a
     * context it cannot read and still deliver the message.
     */
    private static void writeTraceParent(@Nullable TraceParent traceParent, ByteSink out) {
        if (traceParent == null) {
            out.write(0);
            return;
        }
        byte[] bytes = traceParent.toBytes();
        out.writeVarLong(bytes.length);
        out.write(bytes);
    }

    /** A hop's kind and action in one byte: the kind's ordinal in bits 4-6, the action's in the low four. */
    static int hopCode(Hop hop) {
        return hop.kind().ordinal() << 4 | hop.action().ordinal();
    }

    /**
     * The name a hop need not carry, since the record has it already: a node hop's, the origin node; a site hop's,
     * the crossed site at the position of the trace's site hops before it (the first site hop names the origin site,
     * the next the second crossed site, and so on); {@code null} past the crossed sites.
     */
    private static @Nullable String impliedName(HopTrace.Kind kind, NodeId origin, List<SiteId> crossed,
            int sitesBefore) {
        if (kind == HopTrace.Kind.NODE) {
            return origin.value();
        }
        return sitesBefore < crossed.size() ? crossed.get(sitesBefore).value() : null;
    }

    /** A record of a frame of this format version: 2 (without the trace context) or {@value #TRACE_PARENT_SINCE}. */
    static RelayedEnvelope read(ByteSource in, int version) throws FrameFormatException {
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
        HopTrace trace = readTrace(in, createdAt, messageId, origin, crossed);
        TraceParent traceParent = version >= TRACE_PARENT_SINCE ? readTraceParent(in, messageId) : null;
        Envelope envelope = new Envelope(messageId, origin, kmtfType, PRECEDENCES[precedence], classification,
                createdAt, body, trace, traceParent);
        return new RelayedEnvelope(envelope, crossed, boundFor);
    }

    /**
     * The trace context {@link #writeTraceParent} wrote. One whose bytes do not read (another length, an id of all
     * zeros) is logged and left out: it is diagnostics only, and the message is delivered without it. A length past
     * the block's end is a truncated frame, as anywhere else in the record.
     */
    private static @Nullable TraceParent readTraceParent(ByteSource in, String messageId)
            throws FrameFormatException {
        int length = in.readCount("trace context length", Integer.MAX_VALUE);
        if (length == 0) {
            return null;
        }
        return TraceParent.carried(in.readBytes(length, "trace context"), reason -> log.warn(
                "Message {} came with a trace context that does not read ({}); delivered without it", messageId,
                reason));
    }

    /** The trace {@link #writeTrace} wrote; one that fails {@link HopTrace}'s checks is refused naming the message. */
    private static HopTrace readTrace(ByteSource in, Instant createdAt, String messageId, NodeId origin,
            List<SiteId> crossed) throws FrameFormatException {
        int count = in.readCount("trace hop count", HopTrace.MAX_HOPS);
        if (count == 0) {
            return HopTrace.EMPTY;
        }
        List<Hop> hops = new ArrayList<>(count);
        int sitesBefore = 0;
        for (int i = 0; i < count; i++) {
            int code = in.readByte("trace hop kind and action");
            int kind = (code & ~IMPLIED_NAME) >>> 4;
            int action = code & 0x0F;
            if (kind >= KINDS.length || action >= ACTIONS.length) {
                throw new FrameFormatException("Invalid frame: message " + messageId + " has trace hop " + i
                        + " of kind and action 0x" + Integer.toHexString(code) + ", which no sender writes");
            }
            String name = (code & IMPLIED_NAME) == 0 ? in.readString("trace hop name")
                    : impliedName(KINDS[kind], origin, crossed, sitesBefore);
            if (name == null) {
                throw new FrameFormatException("Invalid frame: message " + messageId + " has trace hop " + i
                        + " named as its crossed site " + (sitesBefore + 1) + ", but it names " + crossed.size());
            }
            long millis = in.readZigZag("trace hop time");
            if (KINDS[kind] == HopTrace.Kind.SITE) {
                sitesBefore++;
            }
            try {
                hops.add(new Hop(KINDS[kind], name, ACTIONS[action], createdAt.plusMillis(millis)));
            }
            catch (IllegalArgumentException | DateTimeException | ArithmeticException ex) {
                throw new FrameFormatException("Invalid frame: message " + messageId + ": trace hop " + i + ": "
                        + ex.getMessage(), ex);
            }
        }
        int omitted = in.readCount("trace omitted hop count", Integer.MAX_VALUE);
        try {
            return new HopTrace(hops, omitted);
        }
        catch (IllegalArgumentException ex) {
            throw new FrameFormatException("Invalid frame: message " + messageId + ": " + ex.getMessage(), ex);
        }
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
