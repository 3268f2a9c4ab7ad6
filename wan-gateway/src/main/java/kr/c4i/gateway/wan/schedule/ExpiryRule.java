package kr.c4i.gateway.wan.schedule;

import java.time.Instant;

/** Whether a waiting copy is too old to be worth the link; the relay policy decides, the scheduler asks. */
@FunctionalInterface
public interface ExpiryRule {

    /** Nothing expires. */
    ExpiryRule NEVER = (copy, now) -> false;

    boolean expired(Waiting copy, Instant now);
}
