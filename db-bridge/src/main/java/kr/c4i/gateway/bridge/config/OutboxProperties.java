package kr.c4i.gateway.bridge.config;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * How the bridge drains the outbox.
 *
 * @param enabled whether this node publishes its outbox at all (a receive-only node turns it off)
 * @param batchSize rows claimed, validated and sent per transaction
 * @param idlePoll how long the poller waits for a NOTIFY before looking anyway (a missed
 *        notification, e.g. during a database restart, costs at most this)
 * @param backoffInitial first wait after the database or the transport failed
 * @param backoffMax longest wait between retries
 * @param badRowPolicy what to do with a row that fails validation
 * @param resendAfter for transports that receipt deliveries (DDS): the first wait before a
 *        RELIABLE message is sent again once it is known to be missing (its destination receipted a
 *        later message of its type); doubles with each attempt. Also how long a delivery awaits its receipt in
 *        memory before it is written to the delivery ledger
 * @param resendMax a RELIABLE message without any receipt for this long is sent again even if its
 *        destination receipts nothing (it may be down); also the longest wait between two sends, and how long
 *        another bridge on the database may go unheard of before this one sends again what it awaited
 * @param maxRowAttempts how many times in a row one row may fail in a way that is not an outage (the
 *        transport throws for that message alone, or building its envelope fails unexpectedly) before it is
 *        treated as a bad row (quarantined as {@code repeated-failure}, or stopping publishing under
 *        {@code bad-row-policy=fail}); database and transport outages never count against a row
 */
@ConfigurationProperties("gateway.outbox")
public record OutboxProperties(@DefaultValue("true") boolean enabled, @DefaultValue("500") int batchSize,
        @DefaultValue("1s") Duration idlePoll, @DefaultValue("100ms") Duration backoffInitial,
        @DefaultValue("10s") Duration backoffMax, @DefaultValue("quarantine") BadRowPolicy badRowPolicy,
        @DefaultValue(OutboxProperties.DEFAULT_RESEND_AFTER) Duration resendAfter,
        @DefaultValue(OutboxProperties.DEFAULT_RESEND_MAX) Duration resendMax, @DefaultValue("5") int maxRowAttempts) {

    /** The default of {@code gateway.outbox.resend-after}, stated once for the binding and for tools that mimic it. */
    public static final String DEFAULT_RESEND_AFTER = "5s";
    /** The default of {@code gateway.outbox.resend-max}. */
    public static final String DEFAULT_RESEND_MAX = "30s";

    public OutboxProperties {
        if (batchSize < 1 || batchSize > 10_000) {
            throw new IllegalArgumentException(
                    "gateway.outbox.batch-size must be between 1 and 10000, was " + batchSize);
        }
        if (backoffInitial.isNegative() || backoffInitial.isZero() || backoffMax.compareTo(backoffInitial) < 0) {
            throw new IllegalArgumentException("gateway.outbox.backoff-initial must be positive and at most "
                    + "gateway.outbox.backoff-max, were " + backoffInitial + " and " + backoffMax);
        }
        if (resendAfter.isNegative() || resendAfter.isZero() || resendMax.compareTo(resendAfter) < 0) {
            throw new IllegalArgumentException("gateway.outbox.resend-after must be positive and at most "
                    + "gateway.outbox.resend-max, were " + resendAfter + " and " + resendMax);
        }
        if (maxRowAttempts < 1) {
            throw new IllegalArgumentException(
                    "gateway.outbox.max-row-attempts must be at least 1, was " + maxRowAttempts);
        }
    }

    /**
     * Handling of outbox rows that cannot be sent as they are: not valid KMTF for their declared type, no valid
     * envelope (blank id, created_at out of range, unknown precedence), refused by the transport, or failed
     * {@code max-row-attempts} times in a row.
     */
    public enum BadRowPolicy {
        /** Move the row, with the reason and its original bytes, to the quarantine table and go on. */
        QUARANTINE,
        /** Stop publishing and report DOWN until an operator fixes or removes the row. */
        FAIL
    }
}
