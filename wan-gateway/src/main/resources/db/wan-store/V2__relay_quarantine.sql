-- Messages the gateway took off its LAN but cannot relay as they are (reason 'unknown-type': a KMTF type its
-- catalogue does not define), kept with their bytes instead of being dropped. A row is written, durably, before the
-- LAN side acknowledges the message, so the origin's custody passes here; the gateway never reads the table again.
-- An operator reads it, fixes the cause (e.g. the gateway's catalogue) and has the origin send the message again.

CREATE TABLE relay_quarantine (
    message_id     text        PRIMARY KEY,
    origin_node    text        NOT NULL,
    kmtf_type      text        NOT NULL,
    -- 0 FLASH, 1 IMMEDIATE, 2 PRIORITY, 3 ROUTINE, as in relay_copy.
    precedence     smallint    NOT NULL CONSTRAINT relay_quarantine_precedence_valid CHECK (precedence BETWEEN 0 AND 3),
    classification text        NOT NULL,
    created_at     timestamptz NOT NULL,
    body           bytea       NOT NULL,
    reason         text        NOT NULL,
    quarantined_at timestamptz NOT NULL
);

CREATE INDEX relay_quarantine_quarantined_at ON relay_quarantine (quarantined_at);
