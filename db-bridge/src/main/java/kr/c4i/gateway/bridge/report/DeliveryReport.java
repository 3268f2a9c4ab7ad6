package kr.c4i.gateway.bridge.report;

import java.time.Instant;
import java.util.List;

import org.jspecify.annotations.Nullable;

import kr.c4i.gateway.kmtf.catalogue.Precedence;

/**
 * What a site's gateway or a node of this site reports of some of this node's messages: one step that ended their way
 * there.
 *
 * @param reportedBy who took the step, as {@code delivery_report.reported_by} names it: a gateway's site
 *        ({@code site s2}), a node ({@code node b})
 * @param event {@code delivered} (onto that site's nodes, into that node's inbox), or why not: expired, dropped,
 *        refused, quarantined
 * @param at when, by the reporter's clock
 * @param precedence the messages' precedence, if the step named it
 * @param detail why not, for drops, refusals and quarantines
 * @param messageIds the messages
 */
record DeliveryReport(String reportedBy, String event, Instant at, @Nullable Precedence precedence,
        @Nullable String detail, List<String> messageIds) {

    static final String DELIVERED = "delivered";

    DeliveryReport {
        messageIds = List.copyOf(messageIds);
    }

    boolean delivered() {
        return DELIVERED.equals(event);
    }
}
