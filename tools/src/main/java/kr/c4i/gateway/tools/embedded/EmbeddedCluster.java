package kr.c4i.gateway.tools.embedded;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import kr.c4i.gateway.core.transport.TransportKind;
import kr.c4i.gateway.core.NodeId;
import kr.c4i.gateway.tools.node.NodeLaunch;

/**
 * The embedded default: nodes {@code a, b, ...} on this machine, each with its own PostgreSQL and
 * bridge (and, for JMS, its own persistent Artemis broker). Node {@code a} publishes; every other
 * node subscribes to every type. Everything lives under one work directory and is closed together.
 */
final class EmbeddedCluster implements AutoCloseable {

    private final List<EmbeddedNode> nodes = new ArrayList<>();

    private EmbeddedCluster() {
    }

    static EmbeddedCluster start(TransportKind transport, int nodeCount, Path workDir, Path logFile)
            throws IOException {
        if (nodeCount < 2 || nodeCount > 26) {
            throw new IllegalArgumentException("--nodes must be between 2 and 26, was " + nodeCount);
        }
        EmbeddedCluster cluster = new EmbeddedCluster();
        try {
            List<NodeId> ids = new ArrayList<>();
            Map<NodeId, Integer> brokerPorts = new LinkedHashMap<>();
            for (int i = 0; i < nodeCount; i++) {
                NodeId id = NodeId.of(String.valueOf((char) ('a' + i)));
                ids.add(id);
                brokerPorts.put(id, freePort());
                cluster.nodes.add(EmbeddedNode.startDatabase(id, workDir, freePort()));
            }
            // One secret per run: the brokers accept no anonymous connection, and nobody else knows it.
            String password = Secrets.random();
            // A DDS domain of this run's own, so two runs on one machine never meet.
            int domain = 1 + (int) (ProcessHandle.current().pid() % 200);
            // Receivers first: the publisher's store-and-forward bridges then find them at the first attempt.
            for (EmbeddedNode node : cluster.nodes.reversed()) {
                NodeLaunch.Builder launch = NodeLaunch.builder(node.id().value(), transport)
                        .logFile(logFile).quietConsole()
                        .roles(node == cluster.nodes.getFirst(), node != cluster.nodes.getFirst());
                for (NodeId subscriber : ids.subList(1, ids.size())) {
                    launch.subscription(subscriber.value(), "*");
                }
                launch.jmsCredentials("gateway", password).embeddedBroker("127.0.0.1", brokerPorts.get(node.id()))
                        .brokerDataDirectory(workDir.resolve(node.id().value()).resolve("artemis"))
                        // Loopback has no multicast: unicast discovery to 127.0.0.1.
                        .ddsDomain(domain).ddsMulticast(false).ddsPeers(List.of("127.0.0.1"));
                for (NodeId peer : ids) {
                    if (!peer.equals(node.id())) {
                        launch.jmsPeer(peer.value(), "tcp://127.0.0.1:" + brokerPorts.get(peer));
                    }
                }
                node.startBridge(launch);
            }
            return cluster;
        }
        catch (IOException | RuntimeException ex) {
            cluster.close();
            throw ex;
        }
    }

    EmbeddedNode publisher() {
        return nodes.getFirst();
    }

    List<EmbeddedNode> receivers() {
        return nodes.subList(1, nodes.size());
    }

    List<EmbeddedNode> nodes() {
        return List.copyOf(nodes);
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
        catch (IOException ex) {
            throw new UncheckedIOException("Unable to find a free port", ex);
        }
    }

    @Override
    public void close() {
        // Stop every bridge before any database, so no bridge sees its database vanish.
        nodes.reversed().forEach(EmbeddedNode::stopBridge);
        for (EmbeddedNode node : nodes.reversed()) {
            try {
                node.close();
            }
            catch (IOException ex) {
                System.err.println("Unable to stop the database of node " + node.id() + ": " + ex.getMessage());
            }
        }
    }
}
