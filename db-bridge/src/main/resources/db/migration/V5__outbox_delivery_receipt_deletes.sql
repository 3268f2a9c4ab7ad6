-- A receipt now deletes its delivery row instead of marking it receipted and leaving the clean-up to a
-- later delete: one write per receipted delivery instead of two (docs/benchmarks.md). Rows already
-- receipted go now; every row left awaits a receipt.
DELETE FROM outbox_delivery WHERE receipted_at IS NOT NULL;
DROP INDEX outbox_delivery_due;
ALTER TABLE outbox_delivery DROP COLUMN receipted_at;
CREATE INDEX outbox_delivery_due ON outbox_delivery (next_attempt_at);
