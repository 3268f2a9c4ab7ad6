package kr.c4i.gateway.wan.config;

import java.util.List;
import java.util.Map;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Which nodes receive which KMTF types, and which nodes sit at which site: the same routing table every node of the
 * network has, with the sites beside it.
 *
 * @param subscriptions node id to the patterns it subscribes to: {@code *}, {@code category:<name>} or a type id,
 *        e.g. {@code gateway.routing.subscriptions.c=category:fires,SITREP}
 * @param sites site id to the nodes at that site, e.g. {@code gateway.routing.sites.s1=a,b}
 * @param clearances node id to the highest classification it may receive, e.g.
 *        {@code gateway.routing.clearances.b=CONFIDENTIAL}; a node of this site not listed is cleared UNCLASSIFIED
 *        only, and the gateway delivers it nothing classified higher
 * @param siteClearances site id to the highest classification that may cross the WAN to it (and through it), e.g.
 *        {@code gateway.routing.site-clearances.s2=CONFIDENTIAL}; a site not listed is cleared UNCLASSIFIED only
 */
@ConfigurationProperties("gateway.routing")
public record SiteRoutingProperties(Map<String, List<String>> subscriptions, Map<String, List<String>> sites,
        @DefaultValue Map<String, String> clearances, @DefaultValue Map<String, String> siteClearances) {

    public SiteRoutingProperties {
        subscriptions = subscriptions == null ? Map.of() : Map.copyOf(subscriptions);
        sites = sites == null ? Map.of() : Map.copyOf(sites);
        clearances = clearances == null ? Map.of() : Map.copyOf(clearances);
        siteClearances = siteClearances == null ? Map.of() : Map.copyOf(siteClearances);
    }
}
