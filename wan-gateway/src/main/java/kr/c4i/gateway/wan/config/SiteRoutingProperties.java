package kr.c4i.gateway.wan.config;

import java.util.List;
import java.util.Map;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Which nodes receive which KMTF types, and which nodes sit at which site: the same routing table every node of the
 * network has, with the sites beside it.
 *
 * @param subscriptions node id to the patterns it subscribes to: {@code *}, {@code category:<name>} or a type id,
 *        e.g. {@code gateway.routing.subscriptions.c=category:fires,SITREP}
 * @param sites site id to the nodes at that site, e.g. {@code gateway.routing.sites.s1=a,b}
 */
@ConfigurationProperties("gateway.routing")
public record SiteRoutingProperties(Map<String, List<String>> subscriptions, Map<String, List<String>> sites) {

    public SiteRoutingProperties {
        subscriptions = subscriptions == null ? Map.of() : Map.copyOf(subscriptions);
        sites = sites == null ? Map.of() : Map.copyOf(sites);
    }
}
