package kr.c4i.gateway.dds.transport;

import java.util.Objects;
import java.util.Set;
import java.util.function.Function;

import kr.c4i.gateway.core.Envelope;
import kr.c4i.gateway.core.NodeId;

/**
 * What a transport does differently when it is a site's WAN gateway on the site's DDS domain, standing in for nodes
 * at other sites: it receipts what it takes off the domain as those nodes (custody passes to the gateway), and it
 * publishes their messages, unchanged, so it reads their receipts and never takes their messages as inbound.
 *
 * @param origins the nodes whose messages this transport publishes besides its own: a sample from one of them is
 *        never handed to the inbound handler (it is this transport's own, come back), and receipts for them (in
 *        their partitions) go to the receipt handler
 * @param receiversFor the nodes a receipt for a delivered envelope names as receiver, one receipt each; an empty set
 *        receipts nothing
 */
public record Relaying(Set<NodeId> origins, Function<Envelope, Set<NodeId>> receiversFor) {

    public Relaying {
        origins = Set.copyOf(origins);
        Objects.requireNonNull(receiversFor, "receiversFor");
    }
}
