package kr.c4i.gateway.dds.transport;

import java.util.Map;
import java.util.TreeMap;

import kr.c4i.gateway.dds.SecurityRefusals;

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
 * @param forgedOrigins messages refused because their origin is not one their writer's partition (and so its DDS
 *        Security permissions) allows; with security off always 0
 * @param forgedReceipts receipts dropped because their receiver or origin is not one their writer's partition
 *        allows; with security off always 0
 * @param participantsRefused remote participants DDS Security kept out of the node's domain, by reason
 *        ({@link kr.c4i.gateway.dds.DomainParticipant#securityRefusals()}); with security off all 0
 * @param participantsRecreated times the transport recreated its participant because a DDS Security handshake
 *        with a remote participant still there had failed ({@link DdsTransportSettings#handshakeRecovery()})
 */
public record DdsTransportStats(long samplesWritten, long samplesReceived, long samplesLost, long samplesRejected,
        long samplesInvalid, long batchesDelivered, long deliveryFailures, long receiptsSent, long receiptsReceived,
        long receiptFailures, Map<String, Integer> matchedReaders, long droppedUnmatched, long droppedLost,
        long droppedRejected, long forgedOrigins, long forgedReceipts, SecurityRefusals participantsRefused,
        long participantsRecreated) {

    /** The reason a sender's write on a writer without the destination's reader matched. */
    public static final String DROPPED_UNMATCHED = "unmatched";
    /** The reason for samples DDS reports lost (Cyclone's sample-lost status). */
    public static final String DROPPED_LOST = "lost";
    /** The reason for samples a full reader rejected (Cyclone's sample-rejected status). */
    public static final String DROPPED_REJECTED = "rejected";
    /** The reason for a message whose origin its writer's partition does not allow. */
    public static final String REFUSED_FORGED_ORIGIN = "forged-origin";
    /** The reason for a receipt whose receiver or origin its writer's partition does not allow. */
    public static final String REFUSED_FORGED_RECEIPT = "forged-receipt";
    /** The reason for a remote participant without DDS Security. */
    public static final String REFUSED_UNAUTHENTICATED = SecurityRefusals.UNAUTHENTICATED;
    /** The reason for a remote participant whose authentication handshake did not complete. */
    public static final String REFUSED_AUTHENTICATION_FAILED = SecurityRefusals.AUTHENTICATION_FAILED;
    /** The reason for a remote participant that authenticated but whose permissions were not accepted. */
    public static final String REFUSED_NOT_PERMITTED = SecurityRefusals.NOT_PERMITTED;

    public DdsTransportStats {
        matchedReaders = Map.copyOf(matchedReaders);
    }

    /** BEST_EFFORT samples dropped, by reason: {@code unmatched} on the sending side, the others here. */
    public Map<String, Long> dropped() {
        return new TreeMap<>(Map.of(DROPPED_UNMATCHED, this.droppedUnmatched, DROPPED_LOST, this.droppedLost,
                DROPPED_REJECTED, this.droppedRejected));
    }

    /**
     * Attempts DDS Security refused, by reason: samples that claim what their writer may not ({@code forged-origin},
     * {@code forged-receipt}) and remote participants kept out ({@code unauthenticated},
     * {@code authentication-failed}, {@code not-permitted}).
     */
    public Map<String, Long> refused() {
        Map<String, Long> refused = new TreeMap<>(this.participantsRefused.byReason());
        refused.put(REFUSED_FORGED_ORIGIN, this.forgedOrigins);
        refused.put(REFUSED_FORGED_RECEIPT, this.forgedReceipts);
        return refused;
    }

    /** Matched readers summed over all topics. */
    public long totalMatchedReaders() {
        return this.matchedReaders.values().stream().mapToLong(Integer::longValue).sum();
    }
}
