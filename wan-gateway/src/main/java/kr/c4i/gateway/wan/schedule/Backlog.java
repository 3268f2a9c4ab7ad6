package kr.c4i.gateway.wan.schedule;

import java.util.Collection;
import java.util.List;

import org.jspecify.annotations.Nullable;

import kr.c4i.gateway.kmtf.catalogue.Precedence;

/**
 * The copies one route (one peer site, or this site's LAN) has waiting, as the store keeps them: by precedence, then
 * by type, each type's copies in arrival order. The scheduler takes from it; the store adds to it as messages arrive.
 * Implementations are safe for one taking thread and any number of adding threads.
 */
public interface Backlog {

    /** The types that have copies waiting at this precedence, in a stable order (the scheduler rotates over it). */
    List<String> types(Precedence precedence);

    /**
     * A number that changes whenever a type starts having copies waiting at this precedence (not when one runs
     * empty), so the scheduler reads {@link #types} again only when it has something new to say.
     */
    long typesVersion(Precedence precedence);

    /** The oldest copy of this precedence and type that is waiting (not taken), or {@code null}. */
    @Nullable Waiting peek(Precedence precedence, String kmtfType);

    /** Takes a copy {@link #peek} returned: it is in flight now, no longer waiting, still stored. */
    void take(Waiting copy);

    /**
     * Puts copies that were taken back, ahead of everything that arrived after them (a frame the peer did not
     * receipt in time, a link that went down).
     */
    void putBack(Collection<Waiting> copies);

    /** Copies waiting (not taken) at this precedence. */
    long waitingCount(Precedence precedence);

    /** Bytes waiting (not taken) at this precedence. */
    long waitingBytes(Precedence precedence);
}
