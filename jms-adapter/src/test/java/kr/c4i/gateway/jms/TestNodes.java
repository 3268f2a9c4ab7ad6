package kr.c4i.gateway.jms;

import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.UnaryOperator;

import kr.c4i.gateway.core.NodeId;
import kr.c4i.gateway.core.transport.TransportException;
import kr.c4i.gateway.ports.LoopbackPorts;
import org.jspecify.annotations.Nullable;

/**
 * Nodes with embedded brokers on free ports, each peered with all the others, with data under a
 * test's temporary directory. A node can be stopped and started again on the same port and data, as
 * a restarted gateway would be. Closing stops every broker still running.
 */
final class TestNodes implements AutoCloseable {

    static final String USER = "gateway";
    static final String PASSWORD = "s3cret-pw";

    private final Path root;
    private final Map<String, Integer> ports = new LinkedHashMap<>();
    private final Map<String, JmsTransport> running = new LinkedHashMap<>();
    private final Map<String, RecordingHandler> handlers = new LinkedHashMap<>();
    private Function<String, @Nullable BrokerTls> tls = (id) -> null;

    private TestNodes(Path root, String... ids) {
        this.root = root;
        for (String id : ids) {
            this.ports.put(id, LoopbackPorts.freeTcp());
        }
    }

    /** Nodes that exist but are not started. */
    static TestNodes create(Path root, String... ids) {
        return new TestNodes(root, ids);
    }

    /** Nodes opened and subscribed with a {@link RecordingHandler} each. */
    static TestNodes start(Path root, String... ids) throws TransportException {
        TestNodes nodes = new TestNodes(root, ids);
        try {
            for (String id : ids) {
                nodes.start(id);
            }
        }
        catch (TransportException | RuntimeException ex) {
            nodes.close();
            throw ex;
        }
        return nodes;
    }

    /** Each node's TLS settings, for the nodes started from now on; plain TCP without. */
    TestNodes withTls(Function<String, @Nullable BrokerTls> tls) {
        this.tls = tls;
        return this;
    }

    /** Fast retries, so a returning node is found within a second. */
    JmsTransportSettings settings(String id) {
        Map<NodeId, JmsTransportSettings.Peer> peers = new LinkedHashMap<>();
        this.ports.forEach((peer, port) -> {
            if (!peer.equals(id)) {
                peers.put(NodeId.of(peer), JmsTransportSettings.Peer.at("tcp://127.0.0.1:" + port));
            }
        });
        return JmsTransportSettings.of(NodeId.of(id), USER, PASSWORD,
                JmsTransportSettings.Embedded.at("127.0.0.1", port(id), dataDirectory(id)),
                new JmsTransportSettings.Receive(500, Duration.ofMillis(200), Duration.ofMillis(100),
                        Duration.ofSeconds(1)),
                new JmsTransportSettings.Bridge(Duration.ofMillis(100), 2.0, Duration.ofSeconds(1), 1024 * 1024,
                        Duration.ofSeconds(1), Duration.ofSeconds(5)))
                .withPeers(peers).withTls(this.tls.apply(id));
    }

    /**
     * An embedded broker with no peers, at the values the bridge's {@code gateway.jms.*} properties default to (the
     * adapter has no defaults of its own for them).
     */
    static JmsTransportSettings settings(NodeId id, String user, String password) {
        return JmsTransportSettings.of(id, user, password,
                JmsTransportSettings.Embedded.at("0.0.0.0", 61616, Path.of("data", "artemis", id.value())),
                JmsTransportSettings.Receive.of(500), JmsTransportSettings.Bridge.of(Duration.ofSeconds(10)));
    }

    /** Opens the node and subscribes a new recording handler. */
    RecordingHandler start(String id) throws TransportException {
        return start(id, new RecordingHandler());
    }

    RecordingHandler start(String id, RecordingHandler handler) throws TransportException {
        return start(id, handler, List.of());
    }

    /** Opens the node with its embedded broker changed by {@code customizers}, and subscribes {@code handler}. */
    RecordingHandler start(String id, RecordingHandler handler, List<EmbeddedBrokerCustomizer> customizers)
            throws TransportException {
        JmsTransport transport = open(id, UnaryOperator.identity(), customizers);
        transport.subscribe(handler);
        this.handlers.put(id, handler);
        return handler;
    }

    /** Opens the node without subscribing: it sends, and holds its inbox. */
    JmsTransport open(String id) throws TransportException {
        return open(id, UnaryOperator.identity());
    }

    /** Opens the node, with settings changed by {@code change}, without subscribing. */
    JmsTransport open(String id, UnaryOperator<JmsTransportSettings> change) throws TransportException {
        return open(id, change, List.of());
    }

    private JmsTransport open(String id, UnaryOperator<JmsTransportSettings> change,
            List<EmbeddedBrokerCustomizer> customizers) throws TransportException {
        if (this.running.containsKey(id)) {
            throw new IllegalStateException("node " + id + " is already running");
        }
        JmsTransport transport = new JmsTransport(change.apply(settings(id)), customizers);
        this.running.put(id, transport);
        transport.open();
        return transport;
    }

    /** Closes the node's transport, which stops its broker. */
    void stop(String id) {
        JmsTransport transport = this.running.remove(id);
        if (transport != null) {
            transport.close();
        }
    }

    JmsTransport transport(String id) {
        JmsTransport transport = this.running.get(id);
        if (transport == null) {
            throw new IllegalStateException("node " + id + " is not running");
        }
        return transport;
    }

    RecordingHandler handler(String id) {
        return this.handlers.get(id);
    }

    int port(String id) {
        return this.ports.get(id);
    }

    String url(String id) {
        return "tcp://127.0.0.1:" + port(id);
    }

    Path dataDirectory(String id) {
        return this.root.resolve(id);
    }

    @Override
    public void close() {
        List.copyOf(this.running.keySet()).forEach(this::stop);
    }
}
