-- The hops each message passed before this node, as it carried them (X.400's trace information): the origin node's
-- send and each site's gateway that relayed it, e.g. 'node a sent +3ms; site s1 relayed +17ms; site s2 relayed
-- +340ms' (milliseconds after created_at, each by its own clock; at most 16 hops, the ones left out after the first
-- counted as '(3 hops omitted)'). This node's own delivery is received_at. Empty for messages written before the
-- column existed.
ALTER TABLE inbox ADD COLUMN trace text NOT NULL DEFAULT '';
