-- The custody log's index takes new ids into GIN's pending list again (V7 built it without one), and the list is
-- merged into the index by the service's CustodyIndexMerger every second, off the custody steps' transactions: an
-- insert into the list costs a custody step a few pages where putting each id into the index cost one index entry
-- per message (docs/benchmarks.md, "The custody log's cost"). The limit is the most a list grows to before the
-- transaction that finds it full merges it itself, which happens only when the merger cannot run (or keep up).
ALTER INDEX custody_log_message_ids SET (fastupdate = on, gin_pending_list_limit = 16384);
