-- The WAN gateway's relay store: every copy this gateway holds in custody, one row per route and message.
-- route: the peer site's id the copy goes to next, or '@lan' for this site's LAN (no site id starts with '@').
-- A copy leaves the table only once the next hop has stored it (or the gateway drops it on purpose).

CREATE TABLE relay_copy (
    id             bigserial   PRIMARY KEY,
    route          text        NOT NULL,
    message_id     text        NOT NULL,
    origin_node    text        NOT NULL,
    kmtf_type      text        NOT NULL,
    -- 0 FLASH, 1 IMMEDIATE, 2 PRIORITY, 3 ROUTINE: ascending order is most urgent first.
    precedence     smallint    NOT NULL CONSTRAINT relay_copy_precedence_valid CHECK (precedence BETWEEN 0 AND 3),
    classification text        NOT NULL,
    created_at     timestamptz NOT NULL,
    body           bytea       NOT NULL,
    -- The sites the message has been at, origin first; never sent to one of them again.
    crossed        text[]      NOT NULL,
    -- The sites this copy is responsible for reaching.
    bound_for      text[]      NOT NULL,
    -- The copy's size on the link before compression (body and header estimate): what counts against the bound.
    bytes          integer     NOT NULL CONSTRAINT relay_copy_bytes_positive CHECK (bytes > 0),
    -- Downsampled reports only: a newer copy with the same route and key replaces a waiting one.
    supersede_key  text,
    stored_at      timestamptz NOT NULL,
    -- A redelivered copy is absorbed, not stored twice.
    CONSTRAINT relay_copy_route_message_unique UNIQUE (route, message_id)
);

-- A route's backlog in the order the scheduler serves it: precedence, then arrival.
CREATE INDEX relay_copy_route_order ON relay_copy (route, precedence, id);
