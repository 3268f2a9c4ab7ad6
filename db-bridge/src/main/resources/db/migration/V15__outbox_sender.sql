-- Each bridge publishing this outbox over a receipting transport (DDS) awaits most receipts in memory and writes a
-- delivery into outbox_delivery only once it has waited long or is shown missing (DeliveryLedger): a row per message
-- and destination written by every send and deleted by every receipt was the dearest part of the bridge's work
-- (docs/benchmarks.md). Its row here covers what it holds in memory: the lowest outbox id whose receipts it still
-- awaits (NULL: none), renewed by every send's transaction and twice a second besides. A row left unrenewed for
-- gateway.outbox.resend-max belongs to a bridge that is gone: another bridge on the database (its pair, or itself
-- started again) deletes it and puts every RELIABLE row sent from that id until renewed_at into outbox_delivery, due at
-- once; the receivers' inboxes absorb what had arrived.
CREATE TABLE outbox_sender (
    instance       text        PRIMARY KEY,
    renewed_at     timestamptz NOT NULL,
    unsettled_from bigint
);
