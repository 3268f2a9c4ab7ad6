package kr.c4i.gateway.bridge.report;

import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

import kr.c4i.gateway.kmtf.catalogue.Precedence;

/**
 * Delivery reports: which of this node's messages get them, and where the bridge asks for them.
 *
 * @param gateway the management addresses of this site's WAN gateway, e.g. {@code http://gw-s1:8091}, and of its
 *        standby if it has one (they share the store, so either answers; asked in turn while one cannot be reached);
 *        none (the default) for a node whose messages never leave its site
 * @param nodes the management addresses of the nodes of this site this node sends to, e.g. {@code http://node-b:8081},
 *        each asked as well for what it did with this node's messages (delivered into its inbox, quarantined,
 *        refused), each with a cursor of its own; a node with two bridges beside its database (a pair) as both
 *        addresses joined by {@code |}, asked in turn with one cursor, e.g.
 *        {@code http://node-b:8081|http://node-b2:8081}; none by default. With neither, no reports are asked for
 * @param user the user of the management credential of the gateway and the nodes
 * @param password its password (environment: {@code GATEWAY_REPORTS_PASSWORD}); required with
 *        {@code gateway} or {@code nodes}
 * @param precedences the precedences whose messages get reports
 * @param types KMTF types whose messages get reports whatever their precedence
 * @param interval how often each source is asked; a failure waits longer, up to ten times this
 */
@ConfigurationProperties("gateway.reports")
public record ReportProperties(@DefaultValue List<URI> gateway, @DefaultValue List<String> nodes,
        @DefaultValue("user") String user, @Nullable String password,
        @DefaultValue("FLASH") Set<Precedence> precedences, @DefaultValue Set<String> types,
        @DefaultValue("5s") Duration interval) {

    /** @throws IllegalArgumentException naming the property whose value is wrong */
    public ReportProperties {
        gateway = List.copyOf(gateway);
        nodes = List.copyOf(nodes);
        precedences = Set.copyOf(precedences);
        types = Set.copyOf(types);
        addresses("gateway", gateway);
        nodes.forEach(ReportProperties::nodeAddresses);
        if ((!gateway.isEmpty() || !nodes.isEmpty()) && (password == null || password.isBlank())) {
            throw new IllegalArgumentException("gateway.reports.password is required with "
                    + "gateway.reports.gateway or gateway.reports.nodes (environment GATEWAY_REPORTS_PASSWORD): "
                    + "their management password");
        }
        if (interval.isNegative() || interval.isZero()) {
            throw new IllegalArgumentException("gateway.reports.interval must be positive, was " + interval);
        }
    }

    private static void addresses(String property, List<URI> addresses) {
        for (URI address : addresses) {
            if (address.getScheme() == null || !address.getScheme().matches("https?") || address.getHost() == null) {
                throw new IllegalArgumentException("gateway.reports." + property + " must be http:// or https:// "
                        + "addresses with a host, was '" + address + "'");
            }
        }
    }

    /** Each node of {@link #nodes}: the addresses of its bridges, asked in turn (one, or a pair's two). */
    public List<List<URI>> nodeAddresses() {
        return nodes.stream().map(ReportProperties::nodeAddresses).toList();
    }

    private static List<URI> nodeAddresses(String node) {
        List<URI> addresses = new ArrayList<>();
        for (String address : node.split("\\|", -1)) {
            try {
                addresses.add(new URI(address.strip()));
            }
            catch (URISyntaxException ex) {
                throw new IllegalArgumentException("gateway.reports.nodes must be http:// or https:// addresses with "
                        + "a host, a pair's two joined by '|', was '" + node + "'");
            }
        }
        addresses("nodes", addresses);
        return List.copyOf(addresses);
    }

    /** Whether a message of this precedence and type gets reports. */
    public boolean wanted(@Nullable Precedence precedence, @Nullable String type) {
        return precedence != null && precedences.contains(precedence) || type != null && types.contains(type);
    }
}
