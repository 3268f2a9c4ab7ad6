package kr.c4i.gateway.wan.lan;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;

import kr.c4i.gateway.core.Envelope;
import kr.c4i.gateway.core.NodeId;
import kr.c4i.gateway.core.routing.RoutingTable;
import kr.c4i.gateway.wan.site.SiteMap;

/** The routing table split by the site map: who at this site gets a relayed message, who elsewhere a local one. */
final class LanRoutes {

    private final SiteMap sites;
    private final RoutingTable routing;
    // The split depends on the type and the origin only, and was computed (filtered, sorted) for every message: twice
    // as it is taken off a DDS LAN (whether to take it, whom to receipt as) and once as it is delivered. Kept only for
    // origins the site map places and types someone subscribes to, so a stray publisher cannot make it grow.
    private final Map<TypeAndOrigin, Split> splits = new ConcurrentHashMap<>();

    private record TypeAndOrigin(String type, NodeId origin) {
    }

    private record Split(List<NodeId> local, Set<NodeId> remote) {
    }

    LanRoutes(SiteMap sites, RoutingTable routing) {
        this.sites = sites;
        this.routing = routing;
    }

    SiteMap sites() {
        return this.sites;
    }

    /** The destination nodes of a message at this site, those cleared for its classification only. */
    List<NodeId> localDestinations(Envelope envelope) {
        List<NodeId> local = split(envelope).local();
        Predicate<NodeId> cleared = n -> this.sites.nodeClearances().clearsLabel(n.value(), envelope.classification());
        // The kept split itself when every node is cleared, as for most messages: no list per message.
        return local.stream().allMatch(cleared) ? local : local.stream().filter(cleared).toList();
    }

    /** The destination nodes of a message at other sites, sorted; unmodifiable. */
    Set<NodeId> remoteDestinations(Envelope envelope) {
        return split(envelope).remote();
    }

    /** How many (type, origin) splits are kept. */
    int splitsKept() {
        return this.splits.size();
    }

    private Split split(Envelope envelope) {
        TypeAndOrigin key = new TypeAndOrigin(envelope.kmtfType(), envelope.origin());
        Split kept = this.splits.get(key);
        if (kept != null) {
            return kept;
        }
        List<NodeId> destinations = this.routing.destinations(key.type(), key.origin());
        Split split = new Split(destinations.stream().filter(this.sites::isLocal).toList(),
                Collections.unmodifiableSortedSet(new TreeSet<>(this.sites.remoteOf(destinations))));
        if (!destinations.isEmpty() && this.sites.siteOf(key.origin()).isPresent()) {
            this.splits.putIfAbsent(key, split);
        }
        return split;
    }

    /** The types some node at another site subscribes to: what the gateway takes off a DDS domain. */
    SortedSet<String> typesSubscribedRemotely() {
        SortedSet<String> types = new TreeSet<>();
        this.sites.remoteNodes().forEach(node -> types.addAll(this.routing.subscriptions(node)));
        return types;
    }

    /** The nodes at this site that subscribe to something: those the gateway delivers to. */
    SortedSet<NodeId> localSubscribers() {
        SortedSet<NodeId> nodes = new TreeSet<>();
        for (NodeId node : this.sites.localNodes()) {
            if (!this.routing.subscriptions(node).isEmpty()) {
                nodes.add(node);
            }
        }
        return nodes;
    }

    /** Problems of the gateway's own node id: it must be neither a node of the routing table nor of the site map. */
    List<String> checkGatewayNode(NodeId gateway) {
        List<String> problems = new ArrayList<>();
        if (this.routing.nodes().contains(gateway)) {
            problems.add("the gateway's node id " + gateway + " is a node of the routing table");
        }
        if (this.sites.siteOf(gateway).isPresent()) {
            problems.add("the gateway's node id " + gateway + " is a node of site " + this.sites.siteOf(gateway)
                    .orElseThrow());
        }
        return problems;
    }
}
