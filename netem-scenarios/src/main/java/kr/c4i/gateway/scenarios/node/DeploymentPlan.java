package kr.c4i.gateway.scenarios.node;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

import kr.c4i.gateway.core.transport.TransportKind;
import kr.c4i.gateway.scenarios.net.Topology;

/**
 * Pure functions from "these hosts run nodes, these nodes subscribe to these types" to each node's properties
 * and command line. Every node gets the same routing table; a node knows only the peers of its deployment, so
 * no node keeps calling hosts that run nothing (which would put ARP and SYNs on the measured links).
 */
public final class DeploymentPlan {

    private DeploymentPlan() {
    }

    /**
     * @param hosts hosts that run a node
     * @param subscriptions per host, the KMTF types its node receives (hosts without an entry receive nothing)
     */
    public static List<NodeSpec> nodes(Topology topology, TransportKind transport, List<Integer> hosts,
            Map<Integer, List<String>> subscriptions, NodeSettings settings) {
        SortedMap<Integer, List<String>> routing = new TreeMap<>(subscriptions);
        List<NodeSpec> nodes = new ArrayList<>();
        for (int host : hosts) {
            Map<String, String> p = new LinkedHashMap<>();
            routing.forEach((subscriber, types) -> {
                if (hosts.contains(subscriber) && !types.isEmpty()) {
                    p.put("gateway.routing.subscriptions." + NodeSpec.idOf(subscriber), String.join(",", types));
                }
            });
            List<Integer> peers = hosts.stream().filter(h -> h != host).toList();
            switch (transport) {
                case JMS -> {
                    p.put("gateway.jms.user", NodeSettings.JMS_USER);
                    p.put("gateway.jms.password", NodeSettings.JMS_PASSWORD);
                    p.put("gateway.jms.embedded.host", topology.hostAddress(host));
                    p.put("gateway.jms.embedded.port", Integer.toString(NodeSettings.JMS_PORT));
                    p.put("gateway.jms.bridge-max-retry-interval", settings.jmsRetryInterval());
                    for (int peer : peers) {
                        p.put("gateway.jms.peers." + NodeSpec.idOf(peer) + ".url",
                                "tcp://" + topology.hostAddress(peer) + ":" + NodeSettings.JMS_PORT);
                    }
                }
                case DDS -> {
                    p.put("gateway.dds.domain-id", Integer.toString(settings.ddsDomain()));
                    p.put("gateway.dds.network-interface", topology.hostInterface());
                    p.put("gateway.dds.multicast-address", settings.multicastAddress());
                    if (!peers.isEmpty()) {
                        p.put("gateway.dds.peers", String.join(",", peers.stream().map(topology::hostAddress).toList()));
                    }
                }
            }
            p.putAll(settings.extraProperties());
            nodes.add(new NodeSpec(NodeSpec.idOf(host), host, topology.hostAddress(host), transport, p));
        }
        return nodes;
    }

    /**
     * The command that runs a node in its host's namespace: the tools jar's {@code node}, the service users deploy with
     * its own embedded PostgreSQL.
     *
     * @param workDir the node's work dir (database, broker journal and log live under {@code <workDir>/<id>})
     * @param socketDir where its PostgreSQL also listens on a Unix socket, reachable from the root namespace
     */
    public static List<String> command(Topology topology, NodeSpec node, NodeSettings settings, Path workDir,
            Path socketDir) {
        List<String> argv = new ArrayList<>(List.of("ip", "netns", "exec", topology.hostNamespace(node.host()),
                settings.java().toString(), "--sun-misc-unsafe-memory-access=allow",
                "--enable-native-access=ALL-UNNAMED", "-Xmx" + settings.heap(), "-jar",
                settings.jar().toString(), "node", "--id", node.id(), "--transport", node.transport().label(),
                "--work-dir", workDir.toString(), "--http-port", Integer.toString(NodeSettings.HTTP_PORT),
                "--pg-socket-dir", socketDir.toString(), "--"));
        argv.addAll(node.bridgeArguments());
        return argv;
    }
}
