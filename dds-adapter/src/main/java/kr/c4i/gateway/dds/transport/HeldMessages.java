package kr.c4i.gateway.dds.transport;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import kr.c4i.gateway.core.Envelope;
import kr.c4i.gateway.core.transport.InboundRefusal;
import kr.c4i.gateway.kmtf.catalogue.Precedence;

/**
 * What the receive loop took off its readers and has not handed to the inbound handler yet, handed over most
 * urgent first. A reader gives its samples in the order they arrived, and every message of a type shares one reader
 * (the envelope is keyless); a FLASH message arriving behind a ROUTINE burst of its type would otherwise wait for
 * the whole burst to pass through the handler. Taking what the readers hold into this (bounded) hold and handing
 * over by precedence lets it pass ahead. Its receipt still keeps the order of arrival ({@link ReceiptOrder}).
 *
 * <p>Within a precedence, each batch gives every type that waits an equal share, starting at another type each
 * batch, so a busy type does not keep the others waiting past their origins' resend time. Refusals go first: they
 * are few and the handler only records them. Nothing here is receipted, so what a closing loop still holds is sent
 * again by its origins.
 *
 * <p>Used by the receive thread only.
 */
final class HeldMessages {

    private final int maxMessages;
    private final long maxBytes;
    private final Map<Precedence, Map<String, ArrayDeque<Envelope>>> byPrecedence = new EnumMap<>(Precedence.class);
    private final ArrayDeque<InboundRefusal> refusals = new ArrayDeque<>();
    private int messages;
    private long bytes;
    private int rotation;

    /**
     * @param maxMessages the most held at once (messages and refusals)
     * @param maxBytes the most message bytes held at once; one message is always let in
     */
    HeldMessages(int maxMessages, long maxBytes) {
        if (maxMessages < 1 || maxBytes < 1) {
            throw new IllegalArgumentException("A hold needs room for a message, was " + maxMessages + " messages, "
                    + maxBytes + " bytes");
        }
        this.maxMessages = maxMessages;
        this.maxBytes = maxBytes;
    }

    /** Whether more may be taken off the readers. */
    boolean hasRoom() {
        return this.messages < this.maxMessages && (this.messages == 0 || this.bytes < this.maxBytes);
    }

    /** How many more messages may be taken, bytes permitting. */
    int room() {
        return hasRoom() ? this.maxMessages - this.messages : 0;
    }

    boolean isEmpty() {
        return this.messages == 0;
    }

    int size() {
        return this.messages;
    }

    void add(Envelope envelope) {
        this.byPrecedence.computeIfAbsent(envelope.precedence(), p -> new LinkedHashMap<>())
                .computeIfAbsent(envelope.kmtfType(), t -> new ArrayDeque<>()).add(envelope);
        this.messages++;
        this.bytes += envelope.body().length;
    }

    void add(InboundRefusal refusal) {
        this.refusals.add(refusal);
        this.messages++;
    }

    /**
     * Moves up to {@code max} out of the hold: refusals first, then messages by precedence, FLASH first; within a
     * precedence an equal share of each type, then what room is left from those that had more.
     */
    void next(int max, List<Envelope> batch, List<InboundRefusal> refused) {
        while (batch.size() + refused.size() < max && !this.refusals.isEmpty()) {
            refused.add(this.refusals.poll());
            this.messages--;
        }
        for (Precedence precedence : Precedence.values()) {
            Map<String, ArrayDeque<Envelope>> types = this.byPrecedence.get(precedence);
            if (types == null) {
                continue;
            }
            List<ArrayDeque<Envelope>> queues = new ArrayList<>(types.values());
            int room = max - batch.size() - refused.size();
            if (room > 0 && !queues.isEmpty()) {
                int share = Math.max(1, room / queues.size());
                int first = Math.floorMod(this.rotation, queues.size());
                for (int pass = 0; pass < 2; pass++) {
                    for (int i = 0; i < queues.size(); i++) {
                        int left = max - batch.size() - refused.size();
                        move(queues.get((first + i) % queues.size()), pass == 0 ? Math.min(share, left) : left, batch);
                    }
                }
            }
            types.values().removeIf(ArrayDeque::isEmpty);
            if (types.isEmpty()) {
                this.byPrecedence.remove(precedence);
            }
        }
        this.rotation++;
    }

    private void move(ArrayDeque<Envelope> queue, int count, List<Envelope> batch) {
        for (int i = 0; i < count && !queue.isEmpty(); i++) {
            Envelope envelope = queue.poll();
            batch.add(envelope);
            this.messages--;
            this.bytes -= envelope.body().length;
        }
    }
}
