-- Receiving-side quarantine: what arrived from another node (or from anything else that can write to
-- the transport) but was refused, with the reason and the original bytes, instead of the inbox.
-- Every column but the reason is as the sender claimed it, so most may be NULL: a sample that could
-- not even be decoded has no origin, id or body. A sender that sends the same refused message again
-- (a RELIABLE resend) bumps times_received on its row instead of adding rows.
CREATE TABLE inbound_quarantine (
    id               bigserial   PRIMARY KEY,
    received_at      timestamptz NOT NULL DEFAULT clock_timestamp(),
    last_received_at timestamptz NOT NULL DEFAULT clock_timestamp(),
    times_received   integer     NOT NULL DEFAULT 1,
    transport        text        NOT NULL,
    origin_node      text,
    message_id       text,
    kmtf_type        text,
    topic            text,
    precedence       text,
    classification   text,
    created_at       timestamptz,
    reason_kind      text        NOT NULL,
    reason           text        NOT NULL,
    -- At most the first MiB of the body; body_size is the size that arrived.
    body             bytea,
    body_size        integer
);

CREATE UNIQUE INDEX inbound_quarantine_claimed_message ON inbound_quarantine (origin_node, message_id, reason_kind)
    WHERE origin_node IS NOT NULL AND message_id IS NOT NULL;

CREATE INDEX inbound_quarantine_received_at ON inbound_quarantine (received_at);
