-- The store keeps each route's backlog in memory and reads the table only at start, in id order: no query uses
-- this index, and every copy stored and deleted paid for it (a third of the table's index writes).
DROP INDEX relay_copy_route_order;
