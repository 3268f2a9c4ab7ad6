-- The custody log: an append-only record of the custody steps this gateway takes (stored for a route, custody
-- acknowledged by the next hop's gateway, delivered onto the LAN, quarantined, expired, dropped), each written in the
-- transaction of the step it records (CustodyLog, service-support). The same table is in every node's interface
-- database (db-bridge V7); both services' actuator endpoint and 'bin/gateway trace' read it.
-- One row per step, route and batch, naming every message of it: a row per message would add a write per message to
-- the store's transactions. A message is found again through the GIN index on message_ids
-- (message_ids @> ARRAY['<id>']). Pruned in the background by age and by a bound on rows (gateway.custody.*),
-- oldest first, by id.
CREATE TABLE custody_log (
    id          bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    at          timestamptz NOT NULL DEFAULT clock_timestamp(),
    -- stored, acknowledged, delivered, quarantined, expired, dropped; at a node also sent, resent, receipted,
    -- refused (CustodyEvent).
    event       text        NOT NULL,
    -- This gateway's site.
    hop         text        NOT NULL,
    -- The other side of the step: the route (a peer site, or '@lan' for this site's LAN); NULL for none.
    peer        text[],
    -- What the step went over: the WAN link (norm, dds, jms) or lan.
    link        text,
    precedence  text,
    -- Why, for quarantines and drops; where a stored copy came from.
    detail      text,
    message_ids text[]      NOT NULL
);

-- fastupdate off: each row's ids go into the index with its insert. With GIN's pending list, the transaction that
-- finds the list full merges it whole, a pause of tens of milliseconds in the middle of a custody step (p99 at
-- 1,000 msg/s 46 ms instead of 7-8; docs/benchmarks.md).
CREATE INDEX custody_log_message_ids ON custody_log USING gin (message_ids) WITH (fastupdate = off);
