package kr.c4i.gateway.bridge.config;

import java.nio.file.Path;

import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Who this bridge is and how it moves messages.
 *
 * @param id this node's id; part of queue names and of every envelope it sends
 * @param transport the transport that carries messages to other nodes
 * @param catalogue an operator's KMTF catalogue file replacing the shipped one; the shipped
 *        catalogue when unset
 */
@ConfigurationProperties("gateway.node")
public record NodeProperties(@Nullable String id, @DefaultValue("jms") TransportKind transport, @Nullable Path catalogue) {

    /** The transports one jar can run; one property chooses. */
    public enum TransportKind {
        /** Point-to-point JMS over ActiveMQ Artemis, a broker per node. */
        JMS,
        /** A DDS topic per KMTF type over Cyclone DDS. */
        DDS
    }
}
