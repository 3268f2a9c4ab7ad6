-- A gateway's custody steps that no earlier row finds (a copy's stored step, one per message at each gateway it
-- crosses) name their messages through a Bloom filter of the row's ids instead of the message id index: 10 bits an id,
-- in the row (CustodyLog.bloomed, MessageIdBloom). Each id put into the index and merged cost the relay more than the
-- row itself (docs/benchmarks.md, "The custody log's cost"); a trace scans the rows' filters instead, a scan of the
-- log that grows with it, and checks message_ids only where a filter answers maybe (about one row in a hundred of
-- those that do not hold the message). Rows written before keep ids_bloom NULL and stay in the index.
ALTER TABLE custody_log ADD COLUMN ids_bloom bytea;

DROP INDEX custody_log_message_ids;
CREATE INDEX custody_log_message_ids ON custody_log USING gin (message_ids)
    WITH (fastupdate = on, gin_pending_list_limit = 16384) WHERE earlier IS NULL AND ids_bloom IS NULL;

-- Whether the filter may hold the id whose two probes (MessageIdBloom.probe) are given: the four bits they point at
-- are set. get_bit counts a byte's bits from the least significant, as the writer sets them.
CREATE FUNCTION custody_ids_bloom_has(bloom bytea, first bigint, step bigint) RETURNS boolean
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
    SELECT get_bit(bloom, (first % (8 * octet_length(bloom)))::int) = 1
       AND get_bit(bloom, ((first + step) % (8 * octet_length(bloom)))::int) = 1
       AND get_bit(bloom, ((first + 2 * step) % (8 * octet_length(bloom)))::int) = 1
       AND get_bit(bloom, ((first + 3 * step) % (8 * octet_length(bloom)))::int) = 1
$$;
