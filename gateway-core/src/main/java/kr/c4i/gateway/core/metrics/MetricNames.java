package kr.c4i.gateway.core.metrics;

/**
 * The one list of metric names, so dashboards and code cannot drift apart. Micrometer naming:
 * dot-separated, lower case; Prometheus renders them with underscores and unit suffixes.
 */
public final class MetricNames {

    /** Outbox rows claimed by the poller. */
    public static final String OUTBOX_POLLED = "gateway.outbox.polled";
    /** Outbox rows handed to the transport and marked sent; tag {@code transport}. */
    public static final String OUTBOX_PUBLISHED = "gateway.outbox.published";
    /** Outbox rows moved to quarantine; tag {@code reason}. */
    public static final String OUTBOX_QUARANTINED = "gateway.outbox.quarantined";
    /** Rows waiting in the outbox. */
    public static final String OUTBOX_BACKLOG = "gateway.outbox.backlog";
    /** RELIABLE messages not yet receipted by every destination (receipting transports only). */
    public static final String OUTBOX_UNRECEIPTED = "gateway.outbox.unreceipted";
    /** Messages sent again because a destination had not receipted them in time; tag {@code transport}. */
    public static final String OUTBOX_RESENT = "gateway.outbox.resent";
    /** Transport sends that failed and will be retried; tag {@code transport}. */
    public static final String TRANSPORT_SEND_FAILURES = "gateway.transport.send.failures";
    /** Messages the transport delivered to this node (duplicates included). */
    public static final String INBOX_DELIVERED = "gateway.inbox.delivered";
    /** Messages newly written into the inbox. */
    public static final String INBOX_INSERTED = "gateway.inbox.inserted";
    /** Delivered messages already in the inbox (redeliveries absorbed). */
    public static final String INBOX_DUPLICATES = "gateway.inbox.duplicates";
    /**
     * Received messages (or samples that were not messages) refused and kept in the inbound quarantine instead of
     * the inbox; tags {@code reason} and {@code transport}.
     */
    public static final String INBOUND_REJECTED = "gateway.inbound.rejected";
    /** Time from outbox insert at the origin to inbox insert here. */
    public static final String DELIVERY_LATENCY = "gateway.delivery.latency";
    /**
     * DDS BEST_EFFORT samples dropped; tag {@code reason}: {@code unmatched} (written while a destination's reader
     * was not matched, counted per destination, on the sender), {@code lost} and {@code rejected} (Cyclone's
     * sample-lost and sample-rejected statuses of this node's readers).
     */
    public static final String DDS_SAMPLES_DROPPED = "gateway.dds.samples.dropped";

    public static final String TAG_TRANSPORT = "transport";
    public static final String TAG_REASON = "reason";
    public static final String TAG_TYPE = "type";
    public static final String TAG_NODE = "node";

    private MetricNames() {
    }
}
