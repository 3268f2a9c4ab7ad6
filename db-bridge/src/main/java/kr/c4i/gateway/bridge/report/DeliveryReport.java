package kr.c4i.gateway.bridge.report;

import java.time.Instant;
import java.util.List;

import org.jspecify.annotations.Nullable;

import kr.c4i.gateway.kmtf.catalogue.Precedence;

/**
 * What a site's gateway reports of some of this node's messages: one step that ended their way there.
 *
 * @param site the site whose gateway took the step
 * @param event {@code delivered} (onto that site's nodes), or why not: expired, dropped, refused, quarantined
 * @param at when, by that site's clock
 * @param precedence the messages' precedence, if the step named it
 * @param detail why not, for drops, refusals and quarantines
 * @param messageIds the messages
 */
record DeliveryReport(String site, String event, Instant at, @Nullable Precedence precedence,
        @Nullable String detail, List<String> messageIds) {

    static final String DELIVERED = "delivered";

    DeliveryReport {
        messageIds = List.copyOf(messageIds);
    }

    boolean delivered() {
        return DELIVERED.equals(event);
    }

    /** Who reports, as {@code delivery_report.reported_by} names it. */
    String reportedBy() {
        return "site " + site;
    }
}
