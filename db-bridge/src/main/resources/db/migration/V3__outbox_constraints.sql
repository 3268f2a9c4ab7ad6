-- The outbox refuses at INSERT what the bridge could never send, so the C4I application hears of it
-- at once instead of finding the row in quarantine later. The bridge checks the same rules (and more:
-- the KMTF body itself) and quarantines what still gets through, row by row.
--
-- NOT VALID: rows already in an operator's outbox are not checked, so this migration cannot fail on
-- a live database; such legacy rows still go through the bridge's checks and, if bad, to quarantine.
-- New and updated rows are checked. An operator may run VALIDATE CONSTRAINT once the outbox is clean.

-- Blank ids would collide with each other's meaning at every receiver; 255 characters fit any inbox key.
ALTER TABLE outbox ADD CONSTRAINT outbox_message_id_valid
    CHECK (message_id ~ '[^[:space:]]' AND char_length(message_id) <= 255) NOT VALID;

-- Finite and inside what every transport carries (DDS: 64-bit nanoseconds since 1970, 1677 to 2262).
-- infinity and -infinity fall outside.
ALTER TABLE outbox ADD CONSTRAINT outbox_created_at_valid
    CHECK (created_at >= '1678-01-01 00:00:00+00' AND created_at < '2262-01-01 00:00:00+00') NOT VALID;

-- NULL (the type's default) or a precedence as the bridge reads it: the name in any case, or its
-- prosign letter, surrounding blanks ignored.
ALTER TABLE outbox ADD CONSTRAINT outbox_precedence_valid
    CHECK (precedence IS NULL
           OR upper(regexp_replace(precedence, '^[[:space:]]+|[[:space:]]+$', '', 'g'))
              IN ('FLASH', 'IMMEDIATE', 'PRIORITY', 'ROUTINE', 'Z', 'O', 'P', 'R')) NOT VALID;
