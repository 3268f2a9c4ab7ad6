package kr.c4i.gateway.scenarios.experiment;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import kr.c4i.gateway.core.NodeId;
import kr.c4i.gateway.core.routing.RoutingTable;
import kr.c4i.gateway.core.transport.TransportKind;
import kr.c4i.gateway.dds.security.DdsSecurityFiles;
import kr.c4i.gateway.dds.security.NodeGrant;
import kr.c4i.gateway.dds.transport.DdsTransportSettings;
import kr.c4i.gateway.kmtf.catalogue.KmtfCatalogue;
import kr.c4i.gateway.pki.IdentityRequest;
import kr.c4i.gateway.pki.SiteAuthority;
import kr.c4i.gateway.pki.SiteDirectory;
import kr.c4i.gateway.scenarios.net.Topology;
import kr.c4i.gateway.scenarios.net.WanTopology;
import kr.c4i.gateway.scenarios.node.NodeSettings;
import kr.c4i.gateway.scenarios.node.NodeSpec;
import kr.c4i.gateway.scenarios.node.SitePki;
import kr.c4i.gateway.scenarios.node.WanDeploymentPlan;
import kr.c4i.gateway.scenarios.node.WanLinkKind;

/**
 * Makes a run's site PKIs in its work directory, as an operator's {@code gateway pki} would: an authority per site,
 * an identity per node and gateway naming the addresses it is reached at (its namespace address, and 127.0.0.1 where
 * it reaches its own broker), and for DDS nodes the governance and one grant per node (each node its own process).
 */
final class HarnessPki {

    /** A run lasts hours, not the default 825 days; a short validity keeps a leaked run key worth little. */
    private static final Duration VALIDITY = Duration.ofDays(7);

    private HarnessPki() {
    }

    /**
     * One site of nodes on {@code hosts}; with DDS also the DDS Security documents for the domain.
     *
     * @param routing per host, the KMTF types its node receives
     */
    static SitePki lan(Path dir, Topology topology, boolean dds, int ddsDomain, List<Integer> hosts,
            Map<Integer, List<String>> routing) {
        SiteDirectory site = SiteDirectory.create(dir, "scenarios", VALIDITY);
        Map<String, SiteDirectory.HolderFiles> holders = new LinkedHashMap<>();
        for (int host : hosts) {
            String id = NodeSpec.idOf(host);
            holders.put(id, site.issue(request(id, topology.hostAddress(host)), VALIDITY));
        }
        if (dds) {
            KmtfCatalogue catalogue = KmtfCatalogue.loadDefault();
            Map<NodeId, List<String>> table = new TreeMap<>();
            routing.forEach((host, types) -> {
                if (hosts.contains(host) && !types.isEmpty()) {
                    table.put(NodeId.of(NodeSpec.idOf(host)), types);
                }
            });
            List<NodeId> nodes = hosts.stream().map(h -> NodeId.of(NodeSpec.idOf(h))).toList();
            DdsSecurityFiles.write(site, ddsDomain, DdsTransportSettings.DEFAULT_RECEIPTS_TOPIC,
                    NodeGrant.forNodes(nodes, RoutingTable.of(table, catalogue), catalogue), VALIDITY);
        }
        return new SitePki(dir, site.authorityCertificate(), holders);
    }

    /**
     * Both sites of the {@code wan} experiment: {@code <dir>/s1} and {@code s2}, each its own authority (named for
     * the site, as the sealed frames require). Each gateway's trust store also holds the peer site's authority (the
     * jms link). Every node gets an identity; on DDS LANs each site also gets its DDS Security set for its domain,
     * a grant per node and the gateway's, which names the other site's nodes it relays for.
     *
     * @param subscriptions node id to the KMTF types it receives, as every node and gateway has it
     */
    static Map<Integer, SitePki> wan(Path dir, WanTopology t, WanLinkKind link, int nodesPerSite,
            Map<String, List<String>> subscriptions, NodeSettings settings) {
        Map<Integer, SiteDirectory> sites = new TreeMap<>();
        for (int site = 1; site <= 2; site++) {
            String id = WanDeploymentPlan.siteId(site);
            sites.put(site, SiteDirectory.create(dir.resolve(id), id, VALIDITY));
        }
        Map<Integer, SitePki> pki = new TreeMap<>();
        for (int site = 1; site <= 2; site++) {
            SiteDirectory directory = sites.get(site);
            Map<String, SiteDirectory.HolderFiles> holders = new LinkedHashMap<>();
            List<NodeId> local = new ArrayList<>();
            List<NodeId> remote = new ArrayList<>();
            for (int host = 1; host <= nodesPerSite; host++) {
                String id = WanDeploymentPlan.nodeId(site, host);
                holders.put(id, directory.issue(request(id, t.site(site).hostAddress(host)), VALIDITY));
                local.add(NodeId.of(id));
                remote.add(NodeId.of(WanDeploymentPlan.nodeId(3 - site, host)));
            }
            String gateway = WanDeploymentPlan.gatewayId(site);
            holders.put(gateway, directory.issue(request(gateway, t.gatewayLanAddress(site),
                    t.gatewayWanAddress(site)), VALIDITY, List.of(sites.get(3 - site).authority().certificate())));
            if (link.lanTransport() == TransportKind.DDS) {
                KmtfCatalogue catalogue = KmtfCatalogue.loadDefault();
                Map<NodeId, List<String>> table = new TreeMap<>();
                subscriptions.forEach((node, types) -> {
                    if (!types.isEmpty()) {
                        table.put(NodeId.of(node), types);
                    }
                });
                RoutingTable routing = RoutingTable.of(table, catalogue);
                List<NodeGrant> grants = new ArrayList<>(NodeGrant.forNodes(local, routing, catalogue));
                grants.add(NodeGrant.forGateway(NodeId.of(gateway), remote, routing, catalogue));
                DdsSecurityFiles.write(directory, WanDeploymentPlan.ddsDomain(settings, site),
                        DdsTransportSettings.DEFAULT_RECEIPTS_TOPIC, grants, VALIDITY);
            }
            pki.put(site, new SitePki(directory.dir(), directory.authorityCertificate(), holders));
        }
        return pki;
    }

    private static IdentityRequest request(String id, String... addresses) {
        List<InetAddress> all = new ArrayList<>();
        try {
            for (String address : addresses) {
                all.add(InetAddress.getByName(address));
            }
        }
        catch (UnknownHostException ex) {
            throw new IllegalArgumentException("not an address: " + ex.getMessage(), ex);
        }
        all.add(InetAddress.getLoopbackAddress());
        return new IdentityRequest(id, List.of("localhost"), all);
    }
}
