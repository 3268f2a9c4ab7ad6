-- A later step of messages this log has named already (a receipt of messages sent, a removal of copies stored) names
-- the rows of their earlier step in 'earlier' instead of putting its ids into the message id index again: the trace
-- finds it through those rows (CustodyLogReader: the rows naming the message, then the later rows naming them). Each
-- id put into the GIN index cost the relay and the bridge more than the row itself (docs/benchmarks.md, "The custody
-- log's cost"). Rows whose earlier step is not known (stored before a restart, written by an older version,
-- forwarded from another site) keep earlier NULL and are indexed by their ids as before. A later row outlives the
-- rows it names by little: the pruner takes the oldest first.
ALTER TABLE custody_log ADD COLUMN earlier bigint[];

-- Few entries a row: put into the index with its insert.
CREATE INDEX custody_log_earlier ON custody_log USING gin (earlier) WITH (fastupdate = off) WHERE earlier IS NOT NULL;

DROP INDEX custody_log_message_ids;
CREATE INDEX custody_log_message_ids ON custody_log USING gin (message_ids)
    WITH (fastupdate = on, gin_pending_list_limit = 16384) WHERE earlier IS NULL;

-- Random ids barely compress: the attempt on every row cost more than the bytes it saved (docs/benchmarks.md).
ALTER TABLE custody_log ALTER COLUMN message_ids SET STORAGE EXTERNAL;

-- The custody log row that recorded a delivery's send, which the receipt's step names.
ALTER TABLE outbox_delivery ADD COLUMN sent_in bigint;
