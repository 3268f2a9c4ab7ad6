package kr.c4i.gateway.wan.lan;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;

import kr.c4i.gateway.core.Envelope;
import kr.c4i.gateway.core.NodeId;
import kr.c4i.gateway.core.routing.RoutingTable;
import kr.c4i.gateway.wan.site.SiteMap;

/** The routing table split by the site map: who at this site gets a relayed message, who elsewhere a local one. */
final class LanRoutes {

    private final SiteMap sites;
    private final RoutingTable routing;

    LanRoutes(SiteMap sites, RoutingTable routing) {
        this.sites = sites;
        this.routing = routing;
    }

    SiteMap sites() {
        return this.sites;
    }

    /** The destination nodes of a message at this site. */
    List<NodeId> localDestinations(Envelope envelope) {
        return this.routing.destinations(envelope.kmtfType(), envelope.origin()).stream()
                .filter(this.sites::isLocal).toList();
    }

    /** The destination nodes of a message at other sites. */
    Set<NodeId> remoteDestinations(Envelope envelope) {
        return new TreeSet<>(this.sites.remoteOf(this.routing.destinations(envelope.kmtfType(), envelope.origin())));
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
