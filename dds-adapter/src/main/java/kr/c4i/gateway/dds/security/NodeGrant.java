package kr.c4i.gateway.dds.security;

import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

import kr.c4i.gateway.core.NodeId;
import kr.c4i.gateway.core.routing.RoutingTable;
import kr.c4i.gateway.kmtf.catalogue.KmtfCatalogue;
import kr.c4i.gateway.kmtf.catalogue.MessageType;

/**
 * What one node's permissions allow.
 *
 * @param node the node, whose certificate's common name it is
 * @param origins the origins it publishes and receipts as: itself, and on a WAN gateway the nodes it relays for
 * @param publishTopics the message topics it may write (in its origins' partitions)
 * @param subscribeTopics the message topics it may read (from every origin)
 */
public record NodeGrant(NodeId node, Set<NodeId> origins, Set<String> publishTopics, Set<String> subscribeTopics) {

    public NodeGrant {
        Objects.requireNonNull(node, "node");
        origins = Set.copyOf(new TreeSet<>(origins));
        if (!origins.contains(node)) {
            throw new IllegalArgumentException("A node's grant must include itself among its origins: " + node);
        }
        publishTopics = Set.copyOf(publishTopics);
        subscribeTopics = Set.copyOf(subscribeTopics);
    }

    /**
     * One grant per node of the routing table: each may publish every catalogue topic (the DDS transport has a
     * writer for each type; the routing table decides who receives, not who sends) and read the topics of the
     * types it subscribes to.
     */
    public static List<NodeGrant> forRoutingTable(RoutingTable routing, KmtfCatalogue catalogue) {
        return forNodes(routing.nodes(), routing, catalogue);
    }

    /** Like {@link #forRoutingTable}, for the given nodes (e.g. with senders the table does not list). */
    public static List<NodeGrant> forNodes(Collection<NodeId> nodes, RoutingTable routing, KmtfCatalogue catalogue) {
        Set<String> all = new TreeSet<>(catalogue.types().stream().map(MessageType::topicName).toList());
        return new TreeSet<>(nodes).stream().map(node -> new NodeGrant(node, Set.of(node), all,
                new TreeSet<>(routing.subscriptions(node).stream().map(id -> catalogue.require(id).topicName())
                        .toList()))).toList();
    }

    /**
     * The grant of a site's WAN gateway, which stands in on the site's domain for the nodes at other sites: it
     * publishes and receipts as itself and as each of {@code remoteNodes}, may write every catalogue topic (it
     * delivers whatever comes over the WAN, as a node may send any type), and reads only the topics of the types the
     * remote nodes subscribe to, which are all it takes off the LAN: a type only this site's nodes receive stays
     * unreadable to it.
     *
     * @param routing the routing table, with the remote nodes' subscriptions
     * @throws IllegalArgumentException if the gateway is among the remote nodes, or there are none
     */
    public static NodeGrant forGateway(NodeId gateway, Collection<NodeId> remoteNodes, RoutingTable routing,
            KmtfCatalogue catalogue) {
        if (remoteNodes.isEmpty()) {
            throw new IllegalArgumentException("A gateway's grant needs the remote nodes it relays for: " + gateway);
        }
        if (remoteNodes.contains(gateway)) {
            throw new IllegalArgumentException("Gateway " + gateway + " cannot be one of the remote nodes it relays "
                    + "for");
        }
        Set<NodeId> origins = new TreeSet<>(remoteNodes);
        origins.add(gateway);
        Set<String> read = new TreeSet<>();
        remoteNodes.forEach(node -> routing.subscriptions(node).forEach(id -> read.add(catalogue.require(id)
                .topicName())));
        return new NodeGrant(gateway, origins, new TreeSet<>(catalogue.types().stream().map(MessageType::topicName)
                .toList()), read);
    }
}
