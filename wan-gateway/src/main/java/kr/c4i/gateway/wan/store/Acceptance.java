package kr.c4i.gateway.wan.store;

import org.jspecify.annotations.Nullable;

import kr.c4i.gateway.wan.schedule.Waiting;

/**
 * What {@link RelayStore#accept} did with one copy.
 *
 * @param outcome stored, duplicate, refused or superseded
 * @param stored the stored copy as the route's backlog holds it, when {@code outcome} is {@link Outcome#STORED}
 * @param superseded the waiting copy this one replaced (deleted in the same transaction), which the caller counts as
 *        dropped, reason superseded; {@code null} if it replaced none
 */
public record Acceptance(Outcome outcome, @Nullable Waiting stored, @Nullable Waiting superseded) {

    static final Acceptance DUPLICATE = new Acceptance(Outcome.DUPLICATE, null, null);
    static final Acceptance REFUSED = new Acceptance(Outcome.REFUSED, null, null);
    static final Acceptance SUPERSEDED = new Acceptance(Outcome.SUPERSEDED, null, null);
}
