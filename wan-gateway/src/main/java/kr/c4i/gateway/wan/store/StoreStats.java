package kr.c4i.gateway.wan.store;

import java.time.Instant;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import kr.c4i.gateway.kmtf.catalogue.Precedence;

/**
 * What the store holds, for gauges: every copy stored, waiting or in flight.
 *
 * @param bytes bytes of all stored copies, all routes together
 * @param maxBytes the store's bound
 * @param routes per route that has had copies since start, per precedence (all four, zero when empty)
 */
public record StoreStats(long bytes, long maxBytes, Map<Route, Map<Precedence, Level>> routes) {

    static final Level EMPTY = new Level(0, 0, null);

    public StoreStats {
        routes = Map.copyOf(routes);
    }

    /** The copies of one route and precedence. */
    public Level level(Route route, Precedence precedence) {
        Map<Precedence, Level> levels = routes.get(route);
        return levels == null ? EMPTY : levels.getOrDefault(precedence, EMPTY);
    }

    /**
     * The copies of one route and precedence.
     *
     * @param copies how many are stored
     * @param bytes their bytes
     * @param oldestStoredAt when the oldest of them was stored, {@code null} when there are none
     */
    public record Level(long copies, long bytes, @Nullable Instant oldestStoredAt) {
    }
}
