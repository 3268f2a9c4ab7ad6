-- Delivery and non-delivery reports (X.400's), for the C4I application to read: what became of this node's messages
-- at the sites they went to, as this site's WAN gateway learned it (its own steps, and those the sites further on
-- forwarded to it once their links allowed). The bridge asks its site's gateway for them (gateway.reports.*) and
-- writes here those of its messages whose precedence or type asks for reports (FLASH by default), once each.
CREATE TABLE delivery_report (
    -- A message of this node's outbox.
    message_id  text        NOT NULL,
    -- Who reports: the site whose gateway took the step, e.g. 'site s2'.
    reported_by text        NOT NULL,
    -- delivered (onto that site's nodes), or why not: expired, dropped, refused, quarantined.
    event       text        NOT NULL,
    delivered   boolean     NOT NULL,
    -- When, by the reporter's clock.
    at          timestamptz NOT NULL,
    -- Why not, for drops, refusals and quarantines.
    detail      text,
    received_at timestamptz NOT NULL DEFAULT clock_timestamp(),
    PRIMARY KEY (message_id, reported_by, event)
);

CREATE INDEX delivery_report_received_at ON delivery_report (received_at);

-- How far the bridge has read each source of reports (its site's gateway, by URL): the gateway's custody log id.
CREATE TABLE delivery_report_cursor (
    source text   PRIMARY KEY,
    after  bigint NOT NULL
);

-- One notification per inserting statement, as for the inbox: the application need not poll.
CREATE FUNCTION notify_delivery_report() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('kmtf_delivery_report', '');
    RETURN NULL;
END $$;

CREATE TRIGGER delivery_report_notify AFTER INSERT ON delivery_report
    FOR EACH STATEMENT EXECUTE FUNCTION notify_delivery_report();
