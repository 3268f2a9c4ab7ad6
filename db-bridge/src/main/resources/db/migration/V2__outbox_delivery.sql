-- Delivery ledger for transports that cannot store a message durably on their first hop (DDS):
-- one row per RELIABLE message and destination, until that destination's bridge receipts it.
-- The bridge applies receipts between its own transactions, so a receipt that overtook the send's
-- commit still finds its row. A receipt for a later message of the same type marks earlier
-- unreceipted ones as missed (outbox order is send order, and a RELIABLE topic delivers in order).
CREATE TABLE outbox_delivery (
    message_id      text        NOT NULL,
    destination     text        NOT NULL,
    attempts        integer     NOT NULL DEFAULT 1,
    last_sent_at    timestamptz NOT NULL DEFAULT clock_timestamp(),
    next_attempt_at timestamptz NOT NULL DEFAULT clock_timestamp(),
    receipted_at    timestamptz,
    PRIMARY KEY (message_id, destination)
);

CREATE INDEX outbox_delivery_due ON outbox_delivery (next_attempt_at) WHERE receipted_at IS NULL;
