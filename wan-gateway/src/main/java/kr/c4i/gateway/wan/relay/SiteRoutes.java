package kr.c4i.gateway.wan.relay;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

import kr.c4i.gateway.core.link.SiteId;

/**
 * Which peer gateway a message for a site goes to next: the site itself when the link reaches it, otherwise the peer
 * the configuration names for it ({@code gateway.wan.routes.<site>=<peer>}), so a site behind another is reached
 * through it. A site already crossed is never a next hop, which keeps two gateways facing each other and rings
 * from passing a message round.
 */
public final class SiteRoutes {

    private final SiteId self;
    private final Set<SiteId> peers;
    private final Map<SiteId, SiteId> via;

    /**
     * @param self this gateway's site
     * @param peers the sites the link reaches directly
     * @param via destination site to the peer that relays towards it, for sites the link does not reach
     * @throws IllegalArgumentException naming every route through a site that is not a peer, and a route for a peer
     *         or for this site
     */
    public SiteRoutes(SiteId self, Set<SiteId> peers, Map<SiteId, SiteId> via) {
        this.self = Objects.requireNonNull(self, "self");
        this.peers = Set.copyOf(peers);
        this.via = Map.copyOf(via);
        List<String> problems = new ArrayList<>();
        if (this.peers.contains(self)) {
            problems.add("site " + self + " is this gateway's own site, not a peer");
        }
        new TreeMap<>(this.via).forEach((destination, hop) -> {
            if (destination.equals(self)) {
                problems.add("a route for " + destination + ", this gateway's own site");
            }
            else if (this.peers.contains(destination)) {
                problems.add("a route for " + destination + ", which the link reaches directly");
            }
            if (!this.peers.contains(hop)) {
                problems.add("the route for " + destination + " goes through " + hop + ", which is not a peer "
                        + this.peers);
            }
        });
        if (!problems.isEmpty()) {
            throw new IllegalArgumentException("Invalid WAN routes: " + String.join("; ", problems));
        }
    }

    public SiteId self() {
        return self;
    }

    public Set<SiteId> peers() {
        return peers;
    }

    /** The peer a message for {@code destination} goes to next, or empty when no route reaches it. */
    public Optional<SiteId> nextHop(SiteId destination) {
        if (peers.contains(destination)) {
            return Optional.of(destination);
        }
        return Optional.ofNullable(via.get(destination));
    }

    /**
     * Splits the sites a message must still reach by next hop. This site and crossed sites are left out, and so is
     * a next hop the message has crossed.
     *
     * @return next hop to the destination sites reached through it; sites without a route are in {@code unroutable}
     */
    public Map<SiteId, SortedSet<SiteId>> split(Collection<SiteId> destinations, Collection<SiteId> crossed,
            Collection<SiteId> unroutable) {
        Map<SiteId, SortedSet<SiteId>> byHop = new TreeMap<>();
        for (SiteId destination : destinations) {
            if (destination.equals(self) || crossed.contains(destination)) {
                continue;
            }
            Optional<SiteId> hop = nextHop(destination).filter(h -> !crossed.contains(h));
            if (hop.isEmpty()) {
                unroutable.add(destination);
                continue;
            }
            byHop.computeIfAbsent(hop.get(), h -> new TreeSet<>()).add(destination);
        }
        return byHop;
    }
}
