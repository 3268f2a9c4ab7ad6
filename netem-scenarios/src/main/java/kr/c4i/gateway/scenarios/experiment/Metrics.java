package kr.c4i.gateway.scenarios.experiment;

/** Names of measured values, one constant each; the column names of the CSV. */
public final class Metrics {

    /** Recovery: from t0 to the last message in the recovered node's inbox. */
    public static final String RESPONSE_MS = "response_ms";
    /** Recovery: from t0 to the transport finding the node again (JMS: TCP connection; DDS: first frame). */
    public static final String RECONNECT_MS = "reconnect_ms";
    /** Recovery: from t0 to the first frame that reached the recovered host. */
    public static final String FIRST_FRAME_MS = "first_frame_ms";
    /** Recovery: from t0 to the first message in the recovered node's inbox. */
    public static final String FIRST_MESSAGE_MS = "first_message_ms";
    /** Recovery: from t0 to the last message in the inbox (the same as the response time). */
    public static final String LAST_MESSAGE_MS = "last_message_ms";
    /** Recovery: from launching the stopped node's JVM to its READY line. */
    public static final String BOOT_MS = "boot_ms";
    /** Recovery: messages the publisher had sent (into its broker / onto DDS) before the recovery. */
    public static final String SENT_BEFORE = "sent_before_recovery";

    /**
     * 1:N and loss: how long the cell waited, before it began, for the deployment to settle: every node's routes up
     * and every host's link quiet or steady (a node restarted just before is still discovering its peers).
     */
    public static final String SETTLE_MS = "settle_ms";
    /** Bytes the publisher's host put on the wire (its switch port's rx), Ethernet headers included. */
    public static final String WIRE_BYTES = "wire_bytes";
    /** Frames the publisher's host put on the wire. */
    public static final String WIRE_PACKETS = "wire_packets";
    /** Wire bytes x 8 over the sending interval. */
    public static final String BIT_RATE = "bit_rate_bps";
    /** From the first outbox insert to the last message in the last subscriber's inbox. */
    public static final String INTERVAL_MS = "interval_ms";
    /** Wire bytes per message. */
    public static final String BYTES_PER_MESSAGE = "bytes_per_message";

    /** 1:N and loss: from the first outbox insert to the first message in a subscriber's inbox. */
    public static final String FIRST_DELIVERY_MS = "first_delivery_ms";
    /** 1:N and loss: from the first outbox insert until the publisher's bridge had sent the last of them. */
    public static final String SENT_MS = "sent_ms";

    /** Loss: messages delivered per second. */
    public static final String MSG_PER_S = "msg_per_s";
    /** Loss: from the insert to the last delivery (or the deadline). */
    public static final String DURATION_MS = "duration_ms";
    /** Loss: link rate x (1 - loss) / wire bytes per message (lossless, from the calibration). */
    public static final String CAPACITY = "capacity_msg_per_s";
    /** Loss: msg/s over capacity. */
    public static final String EFFICIENCY = "efficiency";
    /** Loss: share of the publisher's frames the loss rule dropped. */
    public static final String MEASURED_LOSS = "measured_loss";
    /** Loss: share of the subscriber's frames (acknowledgements) the loss rule dropped. */
    public static final String MEASURED_LOSS_BACK = "measured_loss_back";

    /** WAN: FLASH messages delivered of those sent while the ROUTINE load crossed the WAN. */
    public static final String FLASH_DELIVERED = "flash_delivered";
    /** WAN: median FLASH latency (outbox at site 1 to inbox at site 2) under the ROUTINE load. */
    public static final String FLASH_P50_MS = "flash_p50_ms";
    /** WAN: 99th percentile (nearest rank) of the FLASH latency under the ROUTINE load. */
    public static final String FLASH_P99_MS = "flash_p99_ms";
    /** WAN: the gateways' budget, the link rate less the header allowance. */
    public static final String BUDGET_BPS = "budget_bps";
    /** WAN outage: from lifting the cut to the last message stored during it arriving. */
    public static final String DRAIN_MS = "drain_ms";
    /**
     * WAN outage: of the pairs of messages of different precedence stored during the cut, the share delivered
     * higher precedence first (1: strictly in precedence order).
     */
    public static final String DRAIN_IN_ORDER = "drain_in_order";

    /**
     * WAN: what the link's compression made of the cell's messages, bytes after over bytes before, as the sending
     * gateways counted them during the cell: bytes of the DATA frames they sent ({@code gateway.wan.bytes}, kind
     * {@code data}) over the bytes of the messages those carried before compression
     * ({@code gateway.wan.payload.bytes}); just above 1 with compression off (the frames' headers). Absent when
     * the gateways' counters could not be read.
     */
    public static final String COMPRESSION_RATIO = "wan_compression_ratio";

    /** WAN: the one-way delay added on the WAN link (absent: none). */
    public static final String DELAY_MS = "wan_delay_ms";
    /** WAN: frames the delay's queue dropped (full, or the helper's socket buffer full) during the cell. */
    public static final String DELAY_DROPPED = "wan_delay_dropped";

    /** Every metric in the order result files list them. */
    public static final java.util.List<String> ORDER = java.util.List.of(RESPONSE_MS, RECONNECT_MS, FIRST_FRAME_MS,
            FIRST_MESSAGE_MS, LAST_MESSAGE_MS, BOOT_MS, SENT_BEFORE, SETTLE_MS, WIRE_BYTES, WIRE_PACKETS,
            BYTES_PER_MESSAGE, INTERVAL_MS, BIT_RATE, FIRST_DELIVERY_MS, SENT_MS, MSG_PER_S, DURATION_MS, CAPACITY,
            EFFICIENCY, MEASURED_LOSS, MEASURED_LOSS_BACK,
            FLASH_DELIVERED, FLASH_P50_MS, FLASH_P99_MS, BUDGET_BPS, DRAIN_MS, DRAIN_IN_ORDER, COMPRESSION_RATIO,
            DELAY_MS, DELAY_DROPPED);

    private Metrics() {
    }
}
