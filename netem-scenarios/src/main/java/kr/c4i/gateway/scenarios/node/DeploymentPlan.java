package kr.c4i.gateway.scenarios.node;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

import org.jspecify.annotations.Nullable;

import kr.c4i.gateway.core.transport.TransportKind;
import kr.c4i.gateway.pki.SiteDirectory;
import kr.c4i.gateway.pki.TlsStores;
import kr.c4i.gateway.scenarios.net.Topology;
import kr.c4i.gateway.tools.node.Launch;
import kr.c4i.gateway.tools.node.NodeLaunch;

/**
 * Pure functions from "these hosts run nodes, these nodes subscribe to these types" to each node's properties
 * and command line. Every node gets the same routing table; a JMS node knows only the peers of its deployment, so
 * no node keeps calling hosts that run nothing (which would put ARP and SYNs on the measured links). A DDS node
 * discovers the others as shipped, by multicast on the emulated LAN: unicast peers would add a copy of every
 * announcement per peer and participant index (2,170 B/s per peer on a secured node, 13.6% of a 128 kbit/s link)
 * and make a restarted node's first announcements wait for ARP (docs/results.md, issue 30).
 */
public final class DeploymentPlan {

    private DeploymentPlan() {
    }

    /**
     * @param hosts hosts that run a node
     * @param subscriptions per host, the KMTF types its node receives (hosts without an entry receive nothing)
     * @param pki the site's PKI with an identity per node: brokers in mutual TLS, DDS under DDS Security; null runs
     *        every node plain (brokers in plain TCP, DDS without security)
     */
    public static List<NodeSpec> nodes(Topology topology, TransportKind transport, List<Integer> hosts,
            Map<Integer, List<String>> subscriptions, NodeSettings settings, @Nullable SitePki pki) {
        SortedMap<Integer, List<String>> routing = new TreeMap<>(subscriptions);
        List<NodeSpec> nodes = new ArrayList<>();
        for (int host : hosts) {
            NodeLaunch.Builder launch = NodeLaunch.builder(NodeSpec.idOf(host), transport);
            routing.forEach((subscriber, types) -> {
                if (hosts.contains(subscriber) && !types.isEmpty()) {
                    launch.subscription(NodeSpec.idOf(subscriber), String.join(",", types));
                }
            });
            switch (transport) {
                case JMS -> {
                    launch.jmsCredentials(NodeSettings.JMS_USER, NodeSettings.JMS_PASSWORD)
                            .embeddedBroker(topology.hostAddress(host), NodeSettings.JMS_PORT)
                            .bridgeMaxRetryInterval(settings.jmsRetryInterval());
                    jmsSecurity(launch, pki, NodeSpec.idOf(host));
                    for (int peer : hosts) {
                        if (peer != host) {
                            launch.jmsPeer(NodeSpec.idOf(peer),
                                    "tcp://" + topology.hostAddress(peer) + ":" + NodeSettings.JMS_PORT);
                        }
                    }
                }
                case DDS -> launch.ddsDomain(settings.ddsDomain()).ddsNetworkInterface(topology.hostInterface())
                        .ddsMulticastAddress(settings.multicastAddress());
            }
            if (transport == TransportKind.DDS && pki == null) {
                launch.ddsPlain();
            }
            else if (transport == TransportKind.DDS) {
                // One node per process: each participant under its own identity and grant.
                SiteDirectory.HolderFiles own = pki.holder(NodeSpec.idOf(host));
                launch.ddsSecurity(pki.directory(), own.certificate(), own.privateKey());
            }
            launch.properties(settings.extraProperties());
            nodes.add(new NodeSpec(NodeSpec.idOf(host), host, topology.hostAddress(host), transport, launch.build()));
        }
        return nodes;
    }

    /** A JMS node's broker connections: mutual TLS with its own identity, or plain TCP without a PKI. */
    static void jmsSecurity(NodeLaunch.Builder launch, @Nullable SitePki pki, String id) {
        if (pki == null) {
            launch.jmsPlainTcp();
            return;
        }
        TlsStores tls = pki.holder(id).tls();
        launch.jmsTls(tls.keyStore(), tls.passwordFile(), tls.trustStore());
    }

    /**
     * Where the {@code node} command keeps the password it made for a node's management endpoints (a new one each
     * start): {@code <workDir>/<id>/management-password}. They listen at {@code 127.0.0.1:}{@value
     * NodeSettings#HTTP_PORT} in the node's host.
     */
    public static Path managementPasswordFile(Path workDir, String id) {
        return workDir.resolve(id).resolve(Launch.MANAGEMENT_PASSWORD_FILE);
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
