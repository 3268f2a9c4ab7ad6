-- The custody log's table stays the same in both services' databases (wan-store V15): a node's log writes no Bloom
-- filters (its steps at full speed are found through the outbox and inbox rows, and its receipts through its sends),
-- so its ids_bloom stays NULL, its index on message_ids stays as V14 made it, and the function answers the reader's
-- query, which is the same for both.
ALTER TABLE custody_log ADD COLUMN ids_bloom bytea;

-- Empty at a node: the reader's scan of the rows with a filter finds none through it instead of reading the log.
CREATE INDEX custody_log_bloomed ON custody_log (id) WHERE ids_bloom IS NOT NULL;

CREATE FUNCTION custody_ids_bloom_has(bloom bytea, first bigint, step bigint) RETURNS boolean
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
    SELECT get_bit(bloom, (first % (8 * octet_length(bloom)))::int) = 1
       AND get_bit(bloom, ((first + step) % (8 * octet_length(bloom)))::int) = 1
       AND get_bit(bloom, ((first + 2 * step) % (8 * octet_length(bloom)))::int) = 1
       AND get_bit(bloom, ((first + 3 * step) % (8 * octet_length(bloom)))::int) = 1
$$;
