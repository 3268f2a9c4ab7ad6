-- The hops each message has passed (HopTrace's text, e.g. 'node a sent +3ms; site s1 relayed +17ms': each node or
-- site, what it did, and when, as milliseconds after the message's creation by that hop's clock), as the gateway
-- stamped it when it first took custody: this site's own hop last. A copy offered again (a redelivery, a resend after
-- a restart) is absorbed and keeps the trace stored first. Rows stored before this migration have none: ''.
ALTER TABLE relay_copy ADD COLUMN trace text NOT NULL DEFAULT '';

-- A quarantined message's trace as it came off the LAN (the gateway relays it nowhere, so it adds no hop of its own).
ALTER TABLE relay_quarantine ADD COLUMN trace text NOT NULL DEFAULT '';
