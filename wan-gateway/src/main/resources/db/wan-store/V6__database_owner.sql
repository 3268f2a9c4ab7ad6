-- The site this relay store belongs to, recorded by the first gateway that starts on it: a gateway of another site
-- pointed at it is refused at start (DatabaseOwner, service-support), whoever holds the store's lock.
CREATE TABLE database_owner (
    one   boolean     PRIMARY KEY DEFAULT true CHECK (one),
    kind  text        NOT NULL,
    owner text        NOT NULL,
    since timestamptz NOT NULL DEFAULT clock_timestamp()
);
