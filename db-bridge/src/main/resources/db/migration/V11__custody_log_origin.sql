-- Delivery reports within one site: a node's bridge asks the nodes of its site it sends to, as it asks its site's
-- gateway, for the fates of its messages (GET /actuator/reports/<node>?after=<id>), which this node's custody log
-- answers as a gateway's does (wan-store V11).

-- The origin node of the row's messages: set on the steps this node takes with another node's messages (delivered
-- into the inbox, quarantined inbound, refused for want of clearance); NULL on this node's own messages' steps and on
-- rows written before this migration.
ALTER TABLE custody_log ADD COLUMN origin text;

-- The fates of a node's messages, as its delivery reports read them: the same index as a gateway's, by origin and in
-- log order.
CREATE INDEX custody_log_fates ON custody_log (origin, id)
    WHERE origin IS NOT NULL AND event IN ('delivered', 'expired', 'dropped', 'refused', 'quarantined');
