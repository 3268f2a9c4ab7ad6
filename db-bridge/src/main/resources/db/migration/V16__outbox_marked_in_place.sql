-- Marking an outbox row sent becomes a HOT update: the new version of the row goes beside the old one on its page and
-- no index gets an entry for it, where an update that changed an indexed column added one to each of the outbox's
-- indexes (the primary key and the message id's): 18-22 us a row against 6-8 us (docs/benchmarks.md). For that, no
-- index may refer to sent_at, so the partial index of unsent rows goes (the bridge finds them by id from where its
-- claims ended: OutboxCursor), and each page keeps room for its rows' marked versions: fillfactor 45, which applies
-- to the pages written from now on (a page holds 45% of what it could before, the marked versions fill most of the
-- rest). An application that looks for unsent rows by sent_at alone now reads the whole outbox; by id, it does not.
DROP INDEX outbox_unsent;
ALTER TABLE outbox SET (fillfactor = 45);
