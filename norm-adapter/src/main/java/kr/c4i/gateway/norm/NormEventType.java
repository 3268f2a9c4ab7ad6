package kr.c4i.gateway.norm;

/** The events {@code NormGetNextEvent} reports, numbered as {@code NormEventType} in {@code normApi.h}. */
public enum NormEventType {
    INVALID,
    TX_QUEUE_VACANCY,
    TX_QUEUE_EMPTY,
    TX_FLUSH_COMPLETED,
    TX_WATERMARK_COMPLETED,
    TX_CMD_SENT,
    TX_OBJECT_SENT,
    TX_OBJECT_PURGED,
    TX_RATE_CHANGED,
    LOCAL_SENDER_CLOSED,
    REMOTE_SENDER_NEW,
    REMOTE_SENDER_RESET,
    REMOTE_SENDER_ADDRESS,
    REMOTE_SENDER_ACTIVE,
    REMOTE_SENDER_INACTIVE,
    REMOTE_SENDER_PURGED,
    RX_CMD_NEW,
    RX_OBJECT_NEW,
    RX_OBJECT_INFO,
    RX_OBJECT_UPDATED,
    RX_OBJECT_COMPLETED,
    RX_OBJECT_ABORTED,
    RX_ACK_REQUEST,
    GRTT_UPDATED,
    CC_ACTIVE,
    CC_INACTIVE,
    ACKING_NODE_NEW,
    SEND_ERROR,
    USER_TIMEOUT;

    private static final NormEventType[] BY_NUMBER = values();

    /** The type for a number NORM reported; {@link #INVALID} for one a newer library may add. */
    static NormEventType of(int number) {
        return number >= 0 && number < BY_NUMBER.length ? BY_NUMBER[number] : INVALID;
    }
}
