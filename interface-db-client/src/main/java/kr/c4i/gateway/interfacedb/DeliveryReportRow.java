package kr.c4i.gateway.interfacedb;

import java.time.Instant;

import org.jspecify.annotations.Nullable;

/**
 * A delivery or non-delivery report of one of this node's messages, as the bridge wrote it.
 *
 * @param messageId the message, from this node's outbox
 * @param reportedBy who reports, e.g. {@code site s2}
 * @param event {@code delivered}, or why not: expired, dropped, refused, quarantined
 * @param delivered whether it is a delivery report
 * @param at when, by the reporter's clock
 * @param detail why not, for drops, refusals and quarantines
 * @param receivedAt when the bridge wrote it
 */
public record DeliveryReportRow(String messageId, String reportedBy, String event, boolean delivered, Instant at,
        @Nullable String detail, Instant receivedAt) {
}
