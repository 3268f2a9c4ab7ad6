-- The leadership of an active/standby gateway pair (gateway.wan.pair): Spring Integration's JdbcLockRegistry keeps
-- its locks here, one row per held lock, renewed by the leader until expired_after. The columns are the registry's.
CREATE TABLE int_lock (
    lock_key      CHAR(36)     NOT NULL,
    region        VARCHAR(100) NOT NULL,
    client_id     CHAR(36),
    created_date  TIMESTAMP    NOT NULL,
    expired_after TIMESTAMP    NOT NULL,
    CONSTRAINT int_lock_pk PRIMARY KEY (lock_key, region)
);
