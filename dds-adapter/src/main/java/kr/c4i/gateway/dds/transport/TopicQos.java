package kr.c4i.gateway.dds.transport;

import java.time.Duration;
import java.util.Collection;
import java.util.List;

import kr.c4i.gateway.core.NodeId;
import kr.c4i.gateway.dds.Qos;
import kr.c4i.gateway.kmtf.catalogue.MessageType;
import kr.c4i.gateway.kmtf.catalogue.Precedence;
import kr.c4i.gateway.kmtf.catalogue.Reliability;

/**
 * The QoS each KMTF topic gets from its catalogue entry.
 *
 * <p>RELIABLE types: KEEP_ALL on both sides, so nothing is overwritten before every matched reader acknowledged
 * it (a full writer history blocks {@code send} instead), and TRANSIENT_LOCAL with the catalogue's history depth,
 * so a node that joins or recovers receives the last {@code historyDepth} messages of the type from each writer.
 * The catalogue's TRANSIENT and PERSISTENT are served as TRANSIENT_LOCAL: Cyclone 0.10 has no durability service,
 * and the receipt protocol covers what outlives a writer.
 *
 * <p>BEST_EFFORT types: VOLATILE; the writer keeps the catalogue's KEEP_LAST depth (a best-effort volatile writer
 * sends at once and never repairs, so its history drops nothing). The reader is KEEP_ALL, bounded by
 * {@code max_samples} = the larger of the backlog setting and the history depth: the envelope is keyless, so all
 * messages of a type are one instance, and a KEEP_LAST reader would overwrite distinct messages of a burst while
 * the receive thread is busy, silently. A reader that is full rejects instead, which its sample-rejected status
 * counts.
 */
final class TopicQos {

    /** Receipts kept per origin for its receipt reader if it (re)matches after they were written. */
    static final int RECEIPT_HISTORY = 64;

    private TopicQos() {
    }

    static Qos writer(MessageType type, Duration writeTimeout) {
        return base(type).withMaxBlockingTime(writeTimeout)
                .withTransportPriority(transportPriority(type.defaultPrecedence()));
    }

    /** TRANSPORT_PRIORITY, a hint to the network (e.g. DSCP): the ranks the JMS transport gives the same precedence. */
    static int transportPriority(Precedence precedence) {
        return switch (precedence) {
            case FLASH -> 9;
            case IMMEDIATE -> 7;
            case PRIORITY -> 5;
            case ROUTINE -> 4;
        };
    }

    static Qos reader(MessageType type, int bestEffortBacklog) {
        if (type.reliability() == Reliability.RELIABLE) {
            return base(type);
        }
        return base(type).withHistory(Qos.History.keepAll())
                .withMaxSamples(Math.max(bestEffortBacklog, type.historyDepth()));
    }

    /** Receipts for {@code origin}'s messages: only the origin's receipt reader is in its partition. */
    static Qos receipts(NodeId origin, Duration writeTimeout) {
        return receipts(List.of(origin), writeTimeout);
    }

    /** Receipts for the messages of any of {@code origins}: a WAN gateway's reader, which publishes for them. */
    static Qos receipts(Collection<NodeId> origins, Duration writeTimeout) {
        return Qos.reliable().withMaxBlockingTime(writeTimeout)
                .withDurability(Qos.Durability.TRANSIENT_LOCAL, Qos.History.keepLast(RECEIPT_HISTORY))
                .withPartitions(origins.stream().map(NodeId::value).sorted().distinct().toList());
    }

    private static Qos base(MessageType type) {
        if (type.reliability() == Reliability.RELIABLE) {
            return Qos.reliable().withDurability(Qos.Durability.TRANSIENT_LOCAL,
                    Qos.History.keepLast(type.historyDepth()));
        }
        return Qos.bestEffort(type.historyDepth());
    }
}
