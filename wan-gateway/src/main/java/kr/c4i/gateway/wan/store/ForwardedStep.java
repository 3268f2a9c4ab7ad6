package kr.c4i.gateway.wan.store;

import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

import org.jspecify.annotations.Nullable;

import kr.c4i.gateway.core.NodeId;
import kr.c4i.gateway.core.link.SiteId;
import kr.c4i.gateway.custody.CustodyEvent;

/**
 * A custody step one site's gateway took with messages from another site, on its way to the origin's site: one row
 * of that gateway's custody log, or part of one (a row names many messages; a step forwarded names at most
 * {@link #MAX_MESSAGES}, and no more than one frame of the link carries: {@link #parts}).
 *
 * @param hop the site whose gateway took the step
 * @param logId the row's id in that gateway's custody log
 * @param part which part of the row's messages this is, from 0
 * @param at when it took the step, by its database's clock
 * @param event what it did, as {@code CustodyEvent#label()} spells it
 * @param peers the other side of the step: a next hop's site, or {@code @lan}
 * @param link what the step went over
 * @param precedence the messages' precedence
 * @param detail why, for drops and quarantines
 * @param origin the node the messages came from: the site of this node is where the step goes
 * @param messageIds the messages
 */
public record ForwardedStep(SiteId hop, long logId, int part, Instant at, String event, List<String> peers,
        @Nullable String link, @Nullable String precedence, @Nullable String detail, NodeId origin,
        List<String> messageIds) {

    /**
     * The type a forwarded step crosses the WAN as: no catalogue's (a KMTF type id has no {@code @}), so a node that
     * sends one is refused as sending an unknown type, and a gateway's own steps with it are never forwarded.
     */
    public static final String TYPE = "@custody";

    /**
     * The steps a gateway forwards: all it takes with a message but {@code stored}, which the previous hop's
     * {@code acknowledged} says already (that step is logged where the message came from), and which would double
     * what goes back (docs/benchmarks.md, "Custody steps back to the origin's site").
     */
    public static final Set<CustodyEvent> EVENTS = Set.copyOf(EnumSet.of(CustodyEvent.ACKNOWLEDGED,
            CustodyEvent.DELIVERED, CustodyEvent.EXPIRED, CustodyEvent.DROPPED, CustodyEvent.QUARANTINED,
            CustodyEvent.REFUSED));

    /** The most messages one forwarded step names: a row of a large batch goes as several, each a small record. */
    public static final int MAX_MESSAGES = 64;

    /**
     * What a step's frame holds besides its message ids: the frame's and the seal's headers, the envelope's fields and
     * trace, and the step's own (hop, row, event, link, precedence, a short detail, its peers).
     */
    static final int FRAME_ROOM = 512;

    /** The least room for ids a step is given, whatever the link: one id of any length still goes alone. */
    static final int MIN_ID_BYTES = 256;

    /**
     * How many bytes of message ids one step may name to cross in one frame of at most {@code maxFrameBytes}, with
     * compression off: 64 ids of 17 characters made a frame of 1,373 bytes where the norm link takes 1,357, and the
     * step was dropped as too large.
     */
    public static int maxIdBytes(int maxFrameBytes) {
        return Math.max(MIN_ID_BYTES, maxFrameBytes - FRAME_ROOM);
    }

    /**
     * A row's message ids in the parts its steps name, in order: each part at most {@link #MAX_MESSAGES} ids and at
     * most {@code maxIdBytes} of them as the step's body writes them, but never empty, so that an id longer than that
     * goes in a part of its own. The same ids and bound give the same parts, so a row forwarded again after a restart
     * is the same steps.
     */
    public static List<List<String>> parts(List<String> messageIds, int maxIdBytes) {
        List<List<String>> parts = new ArrayList<>();
        int from = 0;
        int bytes = 0;
        for (int i = 0; i < messageIds.size(); i++) {
            int idBytes = encodedBytes(messageIds.get(i));
            if (i > from && (i - from == MAX_MESSAGES || bytes + idBytes > maxIdBytes)) {
                parts.add(messageIds.subList(from, i));
                from = i;
                bytes = 0;
            }
            bytes += idBytes;
        }
        if (from < messageIds.size()) {
            parts.add(messageIds.subList(from, messageIds.size()));
        }
        return parts;
    }

    /** An id as {@code DataOutput.writeUTF} writes it: a two-byte length and modified UTF-8. */
    private static int encodedBytes(String id) {
        int bytes = 2;
        for (int i = 0; i < id.length(); i++) {
            char c = id.charAt(i);
            bytes += (c >= 0x0001 && c <= 0x007F) ? 1 : (c <= 0x07FF ? 2 : 3);
        }
        return bytes;
    }

    public ForwardedStep {
        Objects.requireNonNull(hop, "hop");
        Objects.requireNonNull(at, "at");
        Objects.requireNonNull(event, "event");
        Objects.requireNonNull(origin, "origin");
        peers = List.copyOf(peers);
        messageIds = List.copyOf(messageIds);
        if (messageIds.isEmpty() || messageIds.size() > MAX_MESSAGES) {
            throw new IllegalArgumentException("A forwarded custody step names 1 to " + MAX_MESSAGES
                    + " messages, not " + messageIds.size());
        }
    }

    /**
     * The id it crosses the WAN as, the same each time it is forwarded: where, which row and part, and when (a store
     * rebuilt from nothing numbers its rows again).
     */
    public String forwardedAs() {
        long micros = Math.addExact(Math.multiplyExact(at.getEpochSecond(), 1_000_000L), at.getNano() / 1_000);
        return "@custody/" + hop + "/" + logId + "/" + part + "/" + micros;
    }
}
