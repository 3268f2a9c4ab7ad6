-- The custody log: an append-only record of the custody steps this node takes (sent from the outbox, receipted by a
-- destination, delivered into the inbox, quarantined, refused for want of clearance), each written in the
-- transaction of the step it records (CustodyLog, service-support). The same table is in every WAN gateway's relay
-- store (wan-store V8); both services' actuator endpoint and 'bin/gateway trace' read it.
-- One row per step and batch, naming every message of it: a row per message would add a write per message to the
-- outbox's and inbox's transactions, at thousands of messages a second. A message is found again through the GIN
-- index on message_ids (message_ids @> ARRAY['<id>']). Pruned in the background by age and by a bound on rows
-- (gateway.custody.*), oldest first, by id.
CREATE TABLE custody_log (
    id          bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    at          timestamptz NOT NULL DEFAULT clock_timestamp(),
    -- sent, resent, receipted, delivered, quarantined, refused; at a gateway also stored, acknowledged, expired,
    -- dropped (CustodyEvent).
    event       text        NOT NULL,
    -- This node's id (a gateway: its site's).
    hop         text        NOT NULL,
    -- The other side of the step: destination nodes, the origin, the next hop's site or '@lan'; NULL for none.
    peer        text[],
    -- What the step went over: jms, dds, norm, lan.
    link        text,
    precedence  text,
    -- Why, for quarantines, refusals and drops: a reason kind and a short text.
    detail      text,
    message_ids text[]      NOT NULL
);

-- fastupdate off: each row's ids go into the index with its insert. With GIN's pending list, the transaction that
-- finds the list full merges it whole, a pause of tens of milliseconds in the middle of a custody step (p99 at
-- 1,000 msg/s 46 ms instead of 7-8; docs/benchmarks.md).
CREATE INDEX custody_log_message_ids ON custody_log USING gin (message_ids) WITH (fastupdate = off);
