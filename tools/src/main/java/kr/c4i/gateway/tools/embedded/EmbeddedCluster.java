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
                Map<String, Object> properties = new LinkedHashMap<>();
                properties.put("spring.main.banner-mode", "off");
                properties.put("logging.threshold.console", "OFF");
                properties.put("logging.file.name", logFile.toString());
                properties.put("gateway.node.id", node.id().value());
                properties.put("gateway.node.transport", transport.name().toLowerCase());
                properties.put("gateway.outbox.enabled", node == cluster.nodes.getFirst());
                properties.put("gateway.inbox.enabled", node != cluster.nodes.getFirst());
                for (NodeId subscriber : ids.subList(1, ids.size())) {
                    properties.put("gateway.routing.subscriptions." + subscriber.value(), "*");
                }
                properties.put("gateway.jms.user", "gateway");
                properties.put("gateway.jms.password", password);
                properties.put("gateway.jms.embedded.host", "127.0.0.1");
                properties.put("gateway.jms.embedded.port", brokerPorts.get(node.id()));
                properties.put("gateway.jms.embedded.data-directory",
                        workDir.resolve(node.id().value()).resolve("artemis").toString());
                // Loopback has no multicast: unicast discovery to 127.0.0.1.
                properties.put("gateway.dds.domain-id", domain);
                properties.put("gateway.dds.multicast", false);
                properties.put("gateway.dds.peers", "127.0.0.1");
                for (NodeId peer : ids) {
                    if (!peer.equals(node.id())) {
                        properties.put("gateway.jms.peers." + peer.value() + ".url",
                                "tcp://127.0.0.1:" + brokerPorts.get(peer));
                    }
                }
                node.startBridge(properties);
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
