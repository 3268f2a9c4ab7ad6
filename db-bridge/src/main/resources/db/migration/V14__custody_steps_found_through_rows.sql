-- A node's two custody steps of every message, its send from the outbox and its delivery into the inbox, are found
-- through the rows they move instead of through the message id index: the outbox row names the log row of its send
-- (sent_in, set by the statement that marks it sent), the inbox row the log row of its delivery (delivered_in, set by
-- the statement that writes it), and the log row says so (found_through: 'outbox' or 'inbox'). Putting each id into
-- the GIN index and merging it cost both nodes more per message than the row itself (docs/benchmarks.md, "The custody
-- log's cost"); the outbox's and inbox's own unique indexes on message_id find them at no cost of their own. Rows
-- written before this migration keep found_through NULL and stay in the index.
ALTER TABLE outbox ADD COLUMN sent_in bigint;
ALTER TABLE inbox ADD COLUMN delivered_in bigint;
ALTER TABLE custody_log ADD COLUMN found_through text;

DROP INDEX custody_log_message_ids;
CREATE INDEX custody_log_message_ids ON custody_log USING gin (message_ids)
    WITH (fastupdate = on, gin_pending_list_limit = 16384) WHERE earlier IS NULL AND found_through IS NULL;
