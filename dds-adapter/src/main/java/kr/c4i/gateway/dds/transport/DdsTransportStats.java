package kr.c4i.gateway.dds.transport;

import java.util.Map;
import java.util.TreeMap;

/**
 * Counters of a {@link DdsTransport} since it was opened, for a metrics binder (e.g. Micrometer function counters
 * and gauges over {@link DdsTransport#stats()}).
 *
 * @param samplesWritten messages published
 * @param samplesReceived messages from other nodes taken and turned into envelopes (redeliveries not counted)
 * @param samplesLost samples the middleware reports lost on this node's readers (sample-lost status)
 * @param samplesRejected samples this node's readers refused (sample-rejected status)
 * @param samplesInvalid samples received intact but dropped: not decodable, not a valid envelope, wrong type for
 *        the topic, or over the type's maximum size
 * @param batchesDelivered batches the inbound handler accepted
 * @param deliveryFailures times the inbound handler threw and a batch was handed to it again
 * @param receiptsSent receipt samples published for delivered batches
 * @param receiptsReceived receipt samples received for messages this node sent
 * @param receiptFailures receipts that could not be published (the origin resends; nothing is lost)
 * @param matchedReaders for each message topic, the readers its writer is matched with now
 * @param droppedUnmatched BEST_EFFORT messages written while a destination had no matched reader, counted once per
 *        such destination: they never reach it
 * @param droppedLost BEST_EFFORT samples the middleware reports lost on this node's readers
 * @param droppedRejected BEST_EFFORT samples this node's readers rejected because they held their backlog already
 *        ({@link DdsTransportSettings#bestEffortBacklog()})
 */
public record DdsTransportStats(long samplesWritten, long samplesReceived, long samplesLost, long samplesRejected,
        long samplesInvalid, long batchesDelivered, long deliveryFailures, long receiptsSent, long receiptsReceived,
        long receiptFailures, Map<String, Integer> matchedReaders, long droppedUnmatched, long droppedLost,
        long droppedRejected) {

    /** The reason a sender's write on a writer without the destination's reader matched. */
    public static final String DROPPED_UNMATCHED = "unmatched";
    /** The reason for samples DDS reports lost (Cyclone's sample-lost status). */
    public static final String DROPPED_LOST = "lost";
    /** The reason for samples a full reader rejected (Cyclone's sample-rejected status). */
    public static final String DROPPED_REJECTED = "rejected";

    public DdsTransportStats {
        matchedReaders = Map.copyOf(matchedReaders);
    }

    /** BEST_EFFORT samples dropped, by reason: {@code unmatched} on the sending side, the others here. */
    public Map<String, Long> dropped() {
        return new TreeMap<>(Map.of(DROPPED_UNMATCHED, this.droppedUnmatched, DROPPED_LOST, this.droppedLost,
                DROPPED_REJECTED, this.droppedRejected));
    }

    /** Matched readers summed over all topics. */
    public long totalMatchedReaders() {
        return this.matchedReaders.values().stream().mapToLong(Integer::longValue).sum();
    }
}
