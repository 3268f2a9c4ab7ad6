package kr.c4i.gateway.wan.store;

import java.util.List;
import java.util.Objects;

import org.jspecify.annotations.Nullable;

import kr.c4i.gateway.core.Envelope;
import kr.c4i.gateway.core.HopTrace;
import kr.c4i.gateway.core.TraceParent;
import kr.c4i.gateway.core.link.SiteId;
import kr.c4i.gateway.wan.relay.RelayedEnvelope;

/**
 * One copy of a relayed message for one route, as the store takes it.
 *
 * @param route where the copy goes next; never a peer site the message has crossed
 * @param relayed the message and its relay header
 * @param supersedeKey for downsampled reports (BEST_EFFORT position-like types): what the report is about, e.g.
 *        type and track number; a newer copy with the same key replaces a waiting one of the same route. {@code null}
 *        for every other message.
 * @param bytes the copy's size on the link before compression (envelope, trace, trace context and relay header),
 *        what it counts against the store's bound; {@link #estimateBytes} gives it
 */
public record Copy(Route route, RelayedEnvelope relayed, @Nullable String supersedeKey, int bytes) {

    // Length prefixes, precedence, creation time and framing: a little more than any frame codec spends per envelope.
    private static final int FIXED_HEADER_BYTES = 24;

    public Copy {
        Objects.requireNonNull(route, "route");
        Objects.requireNonNull(relayed, "relayed");
        if (route instanceof Route.Peer(SiteId site) && relayed.hasCrossed(site)) {
            throw new IllegalArgumentException("Message " + relayed.messageId() + " has crossed site " + site
                    + " already; it must not go there again");
        }
        if (supersedeKey != null && supersedeKey.isBlank()) {
            throw new IllegalArgumentException("A supersede key must not be blank; use null for none");
        }
        if (bytes <= 0) {
            throw new IllegalArgumentException("A copy's size must be positive, not " + bytes);
        }
    }

    /** A copy of this message for this route, sized by {@link #estimateBytes}. */
    public static Copy of(Route route, RelayedEnvelope relayed) {
        return new Copy(route, relayed, null, estimateBytes(relayed));
    }

    /** A downsampled report: it replaces a waiting copy for the same route with the same key. */
    public static Copy superseding(Route route, RelayedEnvelope relayed, String supersedeKey) {
        return new Copy(route, relayed, supersedeKey, estimateBytes(relayed));
    }

    /**
     * The message's size on the link before compression: its body, its header fields, its trace, its trace context
     * and the relay header.
     */
    public static int estimateBytes(RelayedEnvelope relayed) {
        Envelope e = relayed.envelope();
        long bytes = FIXED_HEADER_BYTES + (long) e.body().length + utf8(e.messageId()) + utf8(e.origin().value())
                + utf8(e.kmtfType()) + utf8(e.classification());
        for (SiteId site : relayed.crossed()) {
            bytes += site.value().length() + 1;
        }
        for (SiteId site : relayed.boundFor()) {
            bytes += site.value().length() + 1;
        }
        List<HopTrace.Hop> hops = e.trace().hops();
        for (HopTrace.Hop hop : hops) {
            // Kind and action, the name's length, about two bytes of time; ids are ASCII.
            bytes += hop.name().length() + 4;
        }
        if (!hops.isEmpty()) {
            bytes++;
        }
        if (e.traceParent() != null) {
            // Its length and binary form; none is the one byte the fixed header counts.
            bytes += 1 + TraceParent.BINARY_LENGTH;
        }
        return Math.toIntExact(bytes);
    }

    public String messageId() {
        return relayed.messageId();
    }

    /** UTF-8 length, counted rather than encoded: this runs for every copy stored. */
    private static int utf8(String text) {
        int bytes = text.length();
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c >= 0x80) {
                // A surrogate pair is two chars and four bytes; others take two or three.
                bytes += c < 0x800 || Character.isSurrogate(c) ? 1 : 2;
            }
        }
        return bytes;
    }
}
