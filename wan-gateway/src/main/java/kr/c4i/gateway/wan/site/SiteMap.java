package kr.c4i.gateway.wan.site;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;

import org.jspecify.annotations.Nullable;

import kr.c4i.gateway.core.NodeId;
import kr.c4i.gateway.core.link.SiteId;
import kr.c4i.gateway.core.routing.Clearances;
import kr.c4i.gateway.core.routing.RoutingTable;

/**
 * Which node is at which site, as this site's gateway sees it: configuration next to the routing table. A node is at
 * exactly one site; a site may have no nodes (one that only relays). Each node and each site has a clearance
 * ({@link #withClearances}); a map without any clears everything. Immutable.
 */
public final class SiteMap {

    private final SiteId thisSite;
    private final SortedMap<SiteId, SortedSet<NodeId>> nodesBySite;
    private final Map<NodeId, SiteId> siteByNode;
    private final Clearances nodeClearances;
    private final Clearances siteClearances;

    private SiteMap(SiteId thisSite, SortedMap<SiteId, SortedSet<NodeId>> nodesBySite,
            Map<NodeId, SiteId> siteByNode, Clearances nodeClearances, Clearances siteClearances) {
        this.thisSite = thisSite;
        this.nodesBySite = nodesBySite;
        this.siteByNode = siteByNode;
        this.nodeClearances = nodeClearances;
        this.siteClearances = siteClearances;
    }

    /**
     * This map with clearances: a message goes over the WAN only to sites (and through next hops) cleared for it, and
     * is delivered only to nodes of this site cleared for it.
     */
    public SiteMap withClearances(Clearances nodes, Clearances sites) {
        return new SiteMap(this.thisSite, this.nodesBySite, this.siteByNode, nodes, sites);
    }

    /** The clearance of each node, by node id. */
    public Clearances nodeClearances() {
        return this.nodeClearances;
    }

    /** The clearance of each site, by site id. */
    public Clearances siteClearances() {
        return this.siteClearances;
    }

    /**
     * @param thisSite the site of this gateway; one of {@code nodesBySite}'s keys
     * @param nodesBySite every site with its nodes
     * @throws IllegalArgumentException naming each problem: this site missing, a node at two sites
     */
    public static SiteMap of(SiteId thisSite, Map<SiteId, ? extends Collection<NodeId>> nodesBySite) {
        return build(thisSite, nodesBySite, null);
    }

    /**
     * A site map that also places every node of the routing table.
     *
     * @throws IllegalArgumentException naming each problem: this site missing, a node at two sites, a node of the
     *         routing table at no site
     */
    public static SiteMap of(SiteId thisSite, Map<SiteId, ? extends Collection<NodeId>> nodesBySite,
            RoutingTable routing) {
        return build(thisSite, nodesBySite, routing);
    }

    private static SiteMap build(SiteId thisSite, Map<SiteId, ? extends Collection<NodeId>> nodesBySite,
            @Nullable RoutingTable routing) {
        List<String> problems = new ArrayList<>();
        SortedMap<SiteId, SortedSet<NodeId>> sites = new TreeMap<>();
        Map<NodeId, SortedSet<SiteId>> placed = new TreeMap<>();
        nodesBySite.forEach((site, nodes) -> {
            if (site == null) {
                problems.add("a site without a name");
                return;
            }
            SortedSet<NodeId> members = new TreeSet<>();
            if (nodes != null) {
                for (NodeId node : nodes) {
                    if (node == null) {
                        problems.add("site " + site + " lists a node without a name");
                        continue;
                    }
                    members.add(node);
                    placed.computeIfAbsent(node, n -> new TreeSet<>()).add(site);
                }
            }
            sites.put(site, Collections.unmodifiableSortedSet(members));
        });
        if (thisSite == null) {
            problems.add("this site is not named");
        }
        else if (!sites.containsKey(thisSite)) {
            problems.add("this site " + thisSite + " is not one of the sites " + sites.keySet());
        }
        placed.forEach((node, at) -> {
            if (at.size() > 1) {
                problems.add("node " + node + " is at more than one site: " + at);
            }
        });
        if (routing != null) {
            for (NodeId node : routing.nodes()) {
                if (!placed.containsKey(node)) {
                    problems.add("node " + node + " of the routing table is at no site");
                }
            }
        }
        if (!problems.isEmpty()) {
            throw new IllegalArgumentException("Invalid site map: " + String.join("; ", problems));
        }
        Map<NodeId, SiteId> siteByNode = new TreeMap<>();
        placed.forEach((node, at) -> siteByNode.put(node, at.first()));
        return new SiteMap(thisSite, Collections.unmodifiableSortedMap(sites),
                Collections.unmodifiableMap(siteByNode), Clearances.unrestricted(), Clearances.unrestricted());
    }

    public SiteId thisSite() {
        return this.thisSite;
    }

    /** Every site, this one included. */
    public SortedSet<SiteId> sites() {
        return Collections.unmodifiableSortedSet(new TreeSet<>(this.nodesBySite.keySet()));
    }

    /** Every site but this one. */
    public SortedSet<SiteId> peerSites() {
        SortedSet<SiteId> peers = new TreeSet<>(this.nodesBySite.keySet());
        peers.remove(this.thisSite);
        return Collections.unmodifiableSortedSet(peers);
    }

    /** The nodes at a site; empty for a site this map does not know. */
    public SortedSet<NodeId> nodesAt(SiteId site) {
        return this.nodesBySite.getOrDefault(site, Collections.emptySortedSet());
    }

    /** The site of a node, or empty if the map does not place it. */
    public Optional<SiteId> siteOf(NodeId node) {
        return Optional.ofNullable(this.siteByNode.get(node));
    }

    /** Whether the node is at this site. */
    public boolean isLocal(NodeId node) {
        return this.thisSite.equals(this.siteByNode.get(node));
    }

    /** Whether the node is at another site (a node the map does not place is neither local nor remote). */
    public boolean isRemote(NodeId node) {
        SiteId site = this.siteByNode.get(node);
        return site != null && !site.equals(this.thisSite);
    }

    /** The nodes at this site. */
    public SortedSet<NodeId> localNodes() {
        return nodesAt(this.thisSite);
    }

    /** The nodes at every other site. */
    public SortedSet<NodeId> remoteNodes() {
        SortedSet<NodeId> remote = new TreeSet<>();
        this.nodesBySite.forEach((site, nodes) -> {
            if (!site.equals(this.thisSite)) {
                remote.addAll(nodes);
            }
        });
        return Collections.unmodifiableSortedSet(remote);
    }

    /** The sites of the given nodes that the map places (for a message's destinations: the sites it is bound for). */
    public SortedSet<SiteId> sitesOf(Collection<NodeId> nodes) {
        SortedSet<SiteId> sites = new TreeSet<>();
        for (NodeId node : nodes) {
            SiteId site = this.siteByNode.get(node);
            if (site != null) {
                sites.add(site);
            }
        }
        return Collections.unmodifiableSortedSet(sites);
    }

    /** The given nodes that are at this site. */
    public Set<NodeId> localOf(Collection<NodeId> nodes) {
        return nodes.stream().filter(this::isLocal).collect(Collectors.toCollection(TreeSet::new));
    }

    /** The given nodes that are at other sites. */
    public Set<NodeId> remoteOf(Collection<NodeId> nodes) {
        return nodes.stream().filter(this::isRemote).collect(Collectors.toCollection(TreeSet::new));
    }

    @Override
    public String toString() {
        return "SiteMap[this site " + this.thisSite + ", " + this.nodesBySite + "]";
    }
}
