-- The custody log's table stays the same in both services' databases (db-bridge V14): a relay store has no outbox or
-- inbox whose rows would name a step, so its found_through stays NULL and its index on message_ids is as V13 made it.
ALTER TABLE custody_log ADD COLUMN found_through text;
