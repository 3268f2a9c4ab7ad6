package kr.c4i.gateway.core.transport;

import java.util.List;
import java.util.Objects;

import kr.c4i.gateway.core.Envelope;
import kr.c4i.gateway.core.NodeId;
import kr.c4i.gateway.kmtf.catalogue.MessageType;

/**
 * A message to send and the nodes the routing table says should receive it. Point-to-point
 * transports send one copy per destination; topic-based ones publish once on the type's topic.
 */
public record Outbound(Envelope envelope, MessageType type, List<NodeId> destinations) {

    public Outbound {
        Objects.requireNonNull(envelope, "envelope");
        Objects.requireNonNull(type, "type");
        destinations = List.copyOf(destinations);
        if (!type.id().equals(envelope.kmtfType())) {
            throw new IllegalArgumentException("Envelope type " + envelope.kmtfType() + " does not match " + type.id());
        }
    }
}
