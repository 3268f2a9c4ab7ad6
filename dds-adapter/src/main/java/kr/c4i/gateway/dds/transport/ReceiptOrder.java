package kr.c4i.gateway.dds.transport;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import kr.c4i.gateway.core.Envelope;

/**
 * Keeps receipts in the order their messages arrived, per origin and type, while the messages themselves are handed
 * over most urgent first ({@link HeldMessages}). An origin's bridge takes a receipt of a later message of a type as
 * proof that the earlier ones it has no receipt for never arrived, and sends them again (a RELIABLE topic delivers in
 * order): a FLASH message receipted ahead of the ROUTINE ones that arrived before it would have them all sent twice.
 * So a message handed over early is receipted once every earlier message of its origin and type has been handed over
 * too.
 *
 * <p>Used by the receive thread only.
 */
final class ReceiptOrder {

    private record Key(String origin, String type) {
    }

    /** A message taken: {@code handedOver} once the handler took it, {@code receipt} if it delivered it. */
    private static final class Arrival {

        final Envelope envelope;
        boolean handedOver;
        boolean receipt;

        Arrival(Envelope envelope) {
            this.envelope = envelope;
        }
    }

    /** Per origin and type, the messages taken and not yet released, in arrival order. */
    private final Map<Key, ArrayDeque<Arrival>> byKey = new HashMap<>();
    private final Map<Envelope, Arrival> arrivals = new IdentityHashMap<>();

    /** A message taken off a reader, in the order taken. */
    void arrived(Envelope envelope) {
        Arrival arrival = new Arrival(envelope);
        this.arrivals.put(envelope, arrival);
        this.byKey.computeIfAbsent(key(envelope), k -> new ArrayDeque<>()).add(arrival);
    }

    /**
     * The handler took {@code batch} and delivered {@code delivered} of it; the rest it refused, and those are never
     * receipted.
     *
     * @return the messages to receipt now, per origin and type in arrival order: those of the batch that no earlier
     *         message still held waits before, and those that waited on the batch
     */
    List<Envelope> handedOver(List<Envelope> batch, List<Envelope> delivered) {
        Set<String> receipted = new HashSet<>();
        delivered.forEach(e -> receipted.add(e.messageId()));
        Set<Key> touched = new LinkedHashSet<>();
        for (Envelope envelope : batch) {
            Arrival arrival = this.arrivals.get(envelope);
            if (arrival != null) {
                arrival.handedOver = true;
                arrival.receipt = receipted.contains(envelope.messageId());
                touched.add(key(envelope));
            }
        }
        List<Envelope> release = new ArrayList<>();
        for (Key key : touched) {
            ArrayDeque<Arrival> queue = this.byKey.get(key);
            while (!queue.isEmpty() && queue.peekFirst().handedOver) {
                Arrival first = queue.pollFirst();
                this.arrivals.remove(first.envelope);
                if (first.receipt) {
                    release.add(first.envelope);
                }
            }
            if (queue.isEmpty()) {
                this.byKey.remove(key);
            }
        }
        return release;
    }

    /** Messages taken and not yet released. */
    int size() {
        return this.arrivals.size();
    }

    private static Key key(Envelope envelope) {
        return new Key(envelope.origin().value(), envelope.kmtfType());
    }
}
