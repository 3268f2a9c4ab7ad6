-- The node this interface database belongs to, recorded by the first bridge that starts on it: a node's pair of
-- bridges share the database, a bridge of another node is refused at start (DatabaseOwner, service-support).
CREATE TABLE database_owner (
    one   boolean     PRIMARY KEY DEFAULT true CHECK (one),
    kind  text        NOT NULL,
    owner text        NOT NULL,
    since timestamptz NOT NULL DEFAULT clock_timestamp()
);
