-- Whether a delivery's send went in outbox order on its bridge's own writer, so that its receipt shows the earlier
-- unreceipted rows of its type missing (DeliveryLedger). Not so for an urgent row a bridge behind its outbox sent
-- ahead of rows with lower ids (UrgentRowsAhead), nor for a row taken over from a bridge that went silent, which
-- another writer sent: a receipt of either says nothing of the order of this bridge's sends.
ALTER TABLE outbox_delivery ADD COLUMN in_order boolean NOT NULL DEFAULT true;
