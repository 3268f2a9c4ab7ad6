package kr.c4i.gateway.bridge.support;

import java.util.List;
import java.util.Map;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;

import kr.c4i.gateway.bridge.config.DdsProperties;
import kr.c4i.gateway.bridge.config.JmsProperties;
import kr.c4i.gateway.bridge.config.NodeProperties;
import kr.c4i.gateway.core.NodeId;
import kr.c4i.gateway.core.routing.RoutingTable;
import kr.c4i.gateway.kmtf.catalogue.KmtfCatalogue;

/**
 * What the transport configurations need of a node: node a, the shipped catalogue, b subscribing to every type.
 * Imported by the tests that need it; not a {@code @Configuration}, which the application's component scan would
 * pick up in every other test of this package tree.
 */
@EnableConfigurationProperties({ NodeProperties.class, JmsProperties.class, DdsProperties.class })
public class NodeContext {

    @Bean
    NodeId nodeId() {
        return NodeId.of("a");
    }

    @Bean
    KmtfCatalogue catalogue() {
        return KmtfCatalogue.loadDefault();
    }

    @Bean
    RoutingTable routingTable(KmtfCatalogue catalogue) {
        return RoutingTable.of(Map.of(NodeId.of("b"), List.of("*")), catalogue);
    }

    @Bean
    MeterRegistry meterRegistry() {
        return new SimpleMeterRegistry();
    }
}
