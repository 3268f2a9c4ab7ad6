package kr.c4i.gateway.tools.embedded;

import java.time.Duration;
import java.util.Locale;

/**
 * Whether a soak lost or doubled anything: after the load stopped and the bridge drained, the receiver's inbox must
 * hold exactly the publisher's outbox, every row once (the inbox's key allows no row twice, so equal sets of ids
 * suffice).
 *
 * @param written rows the load generator wrote
 * @param outboxRows rows in the publisher's outbox
 * @param unsent of those, rows the bridge had not sent when the drain ended
 * @param inboxRows rows in the receiver's inbox
 * @param sameSet whether the inbox's ids are the outbox's
 * @param drain how long the drain took, or the limit it reached
 * @param drained whether the inbox caught up within the limit
 */
record SoakDelivery(long written, long outboxRows, long unsent, long inboxRows, boolean sameSet, Duration drain,
        boolean drained) {

    boolean lossless() {
        return drained && sameSet && outboxRows == written;
    }

    String line(String receiver) {
        if (lossless()) {
            return String.format(Locale.ENGLISH, "delivery: %,d messages written, every one in node %s's inbox exactly "
                    + "once (drained in %s)", written, receiver, ProgressLine.duration(drain));
        }
        return String.format(Locale.ENGLISH, "delivery: LOST OR DIFFERENT: %,d written, %,d in the outbox "
                + "(%,d unsent), %,d in node %s's inbox, %s; %s", written, outboxRows, unsent, inboxRows, receiver,
                sameSet ? "the same ids" : "NOT the outbox's ids",
                drained ? "drained in " + ProgressLine.duration(drain)
                        : "still short after " + ProgressLine.duration(drain));
    }
}
