-- The W3C traceparent of the message's creation (TraceParent, version 00, e.g.
-- '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01'), so that a copy stored during an outage leaves with it
-- and the spans of the hops after it still link to the trace. NULL for none, as for rows stored before this
-- migration: most messages have none, and a NULL costs a bit of the row's null bitmap (and 4 bytes in the binary
-- COPY stream), not a value. Text rather than the 25-byte binary form: an operator finds a message here by the trace
-- id a tracing backend or a log shows, in the header's own text; the 30 bytes more are spent only on rows that carry
-- one. A text that does not read (written by hand) is logged and read as none: the message still goes.
ALTER TABLE relay_copy ADD COLUMN trace_parent text;

-- A quarantined message's traceparent as it came off the LAN, for the operator who reads the table.
ALTER TABLE relay_quarantine ADD COLUMN trace_parent text;
