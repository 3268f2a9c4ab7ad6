package kr.c4i.gateway.bridge.config;

import java.util.List;
import java.util.Map;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Which nodes receive which KMTF types.
 *
 * @param subscriptions node id to the patterns it subscribes to: {@code *}, {@code category:<name>}
 *        or a type id, e.g. {@code gateway.routing.subscriptions.b=category:fires,SITREP}
 * @param clearances node id to the highest classification it may receive ({@code UNCLASSIFIED},
 *        {@code RESTRICTED}, {@code CONFIDENTIAL}, {@code SECRET}, {@code TOP SECRET}), e.g.
 *        {@code gateway.routing.clearances.b=CONFIDENTIAL}; a node not listed is cleared UNCLASSIFIED only. The
 *        origin sends a message to none of its destinations not cleared for it, and a node delivers to its inbox
 *        nothing above its own clearance.
 */
@ConfigurationProperties("gateway.routing")
public record RoutingProperties(Map<String, List<String>> subscriptions, @DefaultValue Map<String, String> clearances) {

    public RoutingProperties {
        subscriptions = subscriptions == null ? Map.of() : Map.copyOf(subscriptions);
        clearances = clearances == null ? Map.of() : Map.copyOf(clearances);
    }
}
