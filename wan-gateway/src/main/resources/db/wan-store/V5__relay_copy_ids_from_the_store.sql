-- The store gives each copy its id (one gateway process writes the table, under an advisory lock, and reads every
-- row at start, so it continues after the highest id there) and writes a batch with COPY, which returns no ids: a
-- default would only let a second writer collide with it.
ALTER TABLE relay_copy ALTER COLUMN id DROP DEFAULT;
DROP SEQUENCE relay_copy_id_seq;
