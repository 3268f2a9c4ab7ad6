-- W3C Trace Context (traceparent, version 00: '00-<32 hex trace id>-<16 hex parent id>-<2 hex flags>') of each message.
-- outbox.traceparent: the C4I application MAY write the context its message was created in, so that the spans of
-- every hop link to its trace; left NULL, and with tracing on (gateway.tracing.enabled), the origin bridge's send
-- starts the message's trace instead. A value that is not a version-00 traceparent does not hold the message up: it
-- goes without one (logged once, counted as gateway.outbox.traceparent.invalid).
ALTER TABLE outbox ADD COLUMN traceparent text NULL;
-- inbox.traceparent: the context the message carried, for the application to continue its trace; NULL when it carried
-- none (nor for messages written before the column existed).
ALTER TABLE inbox ADD COLUMN traceparent text NULL;
