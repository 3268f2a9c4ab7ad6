package kr.c4i.gateway.bridge.config;

import java.util.List;
import java.util.Map;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Which nodes receive which KMTF types.
 *
 * @param subscriptions node id to the patterns it subscribes to: {@code *}, {@code category:<name>}
 *        or a type id, e.g. {@code gateway.routing.subscriptions.b=category:fires,SITREP}
 */
@ConfigurationProperties("gateway.routing")
public record RoutingProperties(Map<String, List<String>> subscriptions) {

    public RoutingProperties {
        subscriptions = subscriptions == null ? Map.of() : Map.copyOf(subscriptions);
    }
}
