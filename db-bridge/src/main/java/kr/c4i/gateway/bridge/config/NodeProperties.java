package kr.c4i.gateway.bridge.config;

import java.nio.file.Path;

import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

import kr.c4i.gateway.core.transport.TransportKind;

/**
 * Who this bridge is and how it moves messages.
 *
 * @param id this node's id; part of queue names and of every envelope it sends
 * @param transport the transport that carries messages to other nodes: {@code jms} or {@code dds}, any case
 * @param catalogue an operator's KMTF catalogue file replacing the shipped one; the shipped
 *        catalogue when unset
 */
@ConfigurationProperties("gateway.node")
public record NodeProperties(@Nullable String id, @DefaultValue("jms") TransportKind transport, @Nullable Path catalogue) {
}
