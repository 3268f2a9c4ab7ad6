package kr.c4i.gateway.e2e;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import javax.sql.DataSource;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;

/**
 * Nodes a (publisher) and b, c, ... (subscribers to every type) with their own PostgreSQL, run by
 * the test JVM because the interface database belongs to the C4I server and outlives any bridge,
 * and their bridges as separate processes.
 */
final class Cluster implements AutoCloseable {

    record Node(String id, EmbeddedPostgres database, int httpPort, int brokerPort, NodeProcess[] process) {

        DataSource db() {
            return database.getPostgresDatabase();
        }
    }

    private static final AtomicInteger CLUSTERS = new AtomicInteger();

    private final Path dir;
    private final List<Node> nodes = new ArrayList<>();
    private final String transport;
    // Each cluster its own DDS domain, so clusters of successive tests never meet.
    private final int ddsDomain = 1 + (int) ((ProcessHandle.current().pid() * 7 + CLUSTERS.incrementAndGet()) % 200);
    // The management endpoints take a credential; each cluster makes its own, as the embedded default does.
    private final String managementPassword = HexFormat.of().formatHex(new SecureRandom().generateSeed(12));

    Cluster(Path dir, String transport, int size) throws IOException {
        this.dir = dir;
        this.transport = transport;
        for (int i = 0; i < size; i++) {
            String id = String.valueOf((char) ('a' + i));
            nodes.add(new Node(id, EmbeddedPostgres.builder().setDataDirectory(dir.resolve(id + "-pg"))
                    .setCleanDataDirectory(true).start(), freePort(), freePort(), new NodeProcess[1]));
        }
    }

    Node node(String id) {
        return nodes.stream().filter(n -> n.id().equals(id)).findFirst().orElseThrow();
    }

    NodeProcess start(String id) throws IOException {
        Node node = node(id);
        Map<String, Object> p = new LinkedHashMap<>();
        p.put("gateway.node.id", id);
        p.put("gateway.node.transport", transport);
        p.put("spring.datasource.url", node.database().getJdbcUrl("postgres", "postgres"));
        p.put("spring.datasource.username", "postgres");
        p.put("gateway.outbox.enabled", id.equals("a"));
        p.put("gateway.inbox.enabled", !id.equals("a"));
        for (Node other : nodes) {
            if (!other.id().equals("a")) {
                p.put("gateway.routing.subscriptions." + other.id(), "*");
            }
            if (!other.id().equals(id)) {
                p.put("gateway.jms.peers." + other.id() + ".url", "tcp://127.0.0.1:" + other.brokerPort());
            }
        }
        p.put("gateway.jms.user", "gateway");
        p.put("gateway.jms.password", "e2e-secret");
        p.put("spring.security.user.password", managementPassword);
        p.put("gateway.jms.embedded.host", "127.0.0.1");
        p.put("gateway.jms.embedded.port", node.brokerPort());
        p.put("gateway.jms.embedded.data-directory", dir.resolve("artemis").toString());
        p.put("gateway.jms.bridge-max-retry-interval", "1s");
        p.put("gateway.dds.domain-id", ddsDomain);
        p.put("gateway.dds.multicast", false);
        p.put("gateway.dds.peers", "127.0.0.1");
        p.put("gateway.outbox.resend-after", "2s");
        p.put("gateway.outbox.resend-max", "4s");
        node.process()[0] = new NodeProcess(id, p, node.httpPort(), dir.resolve(id + ".log")).start();
        return node.process()[0];
    }

    void insertOutbox(String id, String type, String body) throws SQLException {
        try (Connection c = node(id).db().getConnection();
                PreparedStatement ps = c.prepareStatement("INSERT INTO outbox (kmtf_type, body) VALUES (?, ?)")) {
            ps.setString(1, type);
            ps.setBytes(2, body.getBytes(StandardCharsets.UTF_8));
            ps.executeUpdate();
        }
    }

    long count(String id, String sql) throws SQLException {
        try (Connection c = node(id).db().getConnection(); PreparedStatement ps = c.prepareStatement(sql);
                ResultSet rs = ps.executeQuery()) {
            rs.next();
            return rs.getLong(1);
        }
    }

    List<String> strings(String id, String sql) throws SQLException {
        try (Connection c = node(id).db().getConnection(); PreparedStatement ps = c.prepareStatement(sql);
                ResultSet rs = ps.executeQuery()) {
            List<String> values = new ArrayList<>();
            while (rs.next()) {
                values.add(rs.getString(1));
            }
            return values;
        }
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
        catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
    }

    @Override
    public void close() throws Exception {
        for (Node node : nodes.reversed()) {
            if (node.process()[0] != null) {
                node.process()[0].close();
            }
        }
        for (Node node : nodes) {
            node.database().close();
        }
    }
}
