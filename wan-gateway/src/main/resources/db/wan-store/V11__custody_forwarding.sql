-- Tracking that survives cuts: the steps this gateway takes with messages from other sites go to the origin's site's
-- gateway, as a custodied stream of their own at ROUTINE (CustodyForwarder), and the steps other sites' gateways
-- forward here are kept in this log beside this site's own, so that the origin's site knows the fate of its messages
-- once the link returns, even when the far sites cannot be asked.

-- The origin node of the row's messages: set on every step with relayed messages (this site's and other sites'), and
-- on the rows forwarded here; NULL on rows written before this migration and on the steps of forwarded steps.
ALTER TABLE custody_log ADD COLUMN origin text;

-- On a row forwarded here, the id it crossed the WAN as (its site, its row there, its part and time): a row that
-- comes again (the forwarding gateway restarted before it knew the first went) is absorbed.
ALTER TABLE custody_log ADD COLUMN forwarded_as text;

CREATE UNIQUE INDEX custody_log_forwarded_as ON custody_log (forwarded_as) WHERE forwarded_as IS NOT NULL;

-- The rows still to forward, queued in the statement that logs them; a row the pruner removed first is not
-- forwarded (the log's bound holds for what waits too).
CREATE TABLE custody_forward (
    log_id bigint PRIMARY KEY
);

-- The fates of a node's messages, as its delivery reports read them (GET /actuator/reports/<node>?after=<id>): every
-- step of this site's or forwarded here that ends a copy's way, by origin and in log order.
CREATE INDEX custody_log_fates ON custody_log (origin, id)
    WHERE origin IS NOT NULL AND event IN ('delivered', 'expired', 'dropped', 'refused', 'quarantined');
