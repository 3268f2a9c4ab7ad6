-- The interface database a C4I application shares with its bridge.
-- outbox: what the application writes; inbox: what arrives from other nodes;
-- quarantine: outbox rows the bridge refused, with the reason and the original bytes.

CREATE TABLE outbox (
    id           bigserial   PRIMARY KEY,
    message_id   text        NOT NULL DEFAULT gen_random_uuid()::text,
    kmtf_type    text        NOT NULL,
    -- NULL means the catalogue's default precedence for the type.
    precedence   text,
    body         bytea       NOT NULL,
    created_at   timestamptz NOT NULL DEFAULT clock_timestamp(),
    sent_at      timestamptz,
    sent_by      text,
    CONSTRAINT outbox_message_id_unique UNIQUE (message_id)
);

-- The poller only ever looks at unsent rows; keep that scan small however long the table grows.
CREATE INDEX outbox_unsent ON outbox (id) WHERE sent_at IS NULL;

CREATE TABLE inbox (
    message_id     text        PRIMARY KEY,
    origin_node    text        NOT NULL,
    kmtf_type      text        NOT NULL,
    precedence     text        NOT NULL,
    classification text        NOT NULL,
    body           bytea       NOT NULL,
    created_at     timestamptz NOT NULL,
    received_at    timestamptz NOT NULL DEFAULT clock_timestamp(),
    transport      text        NOT NULL
);

CREATE INDEX inbox_received_at ON inbox (received_at);

CREATE TABLE quarantine (
    id             bigserial   PRIMARY KEY,
    outbox_id      bigint      NOT NULL,
    message_id     text        NOT NULL,
    kmtf_type      text        NOT NULL,
    reason_kind    text        NOT NULL,
    reason         text        NOT NULL,
    body           bytea       NOT NULL,
    created_at     timestamptz NOT NULL,
    quarantined_at timestamptz NOT NULL DEFAULT clock_timestamp(),
    quarantined_by text        NOT NULL
);

-- One notification per inserting statement wakes the bridge's poller (and, for inbox, the
-- application) instead of both polling on a fixed interval. Identical payloads in one
-- transaction are folded by PostgreSQL, so bulk inserts cost one notification.
CREATE FUNCTION notify_outbox() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('kmtf_outbox', '');
    RETURN NULL;
END $$;

CREATE TRIGGER outbox_notify AFTER INSERT ON outbox
    FOR EACH STATEMENT EXECUTE FUNCTION notify_outbox();

CREATE FUNCTION notify_inbox() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('kmtf_inbox', '');
    RETURN NULL;
END $$;

CREATE TRIGGER inbox_notify AFTER INSERT ON inbox
    FOR EACH STATEMENT EXECUTE FUNCTION notify_inbox();
