package kr.c4i.gateway.bridge.outbox;

/** A row cannot be sent and the bad-row policy is {@code fail}: publishing stops until it is fixed. */
final class BadRowException extends Exception {

    private final long outboxId;

    BadRowException(long outboxId, String kind, String reason) {
        super("Outbox row " + outboxId + " refused (" + kind + "): " + reason
                + "; publishing is stopped by gateway.outbox.bad-row-policy=fail until the row is fixed or removed");
        this.outboxId = outboxId;
    }

    long outboxId() {
        return outboxId;
    }
}
