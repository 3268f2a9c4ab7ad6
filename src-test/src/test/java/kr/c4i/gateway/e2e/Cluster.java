package kr.c4i.gateway.e2e;

import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import javax.sql.DataSource;

import kr.c4i.gateway.core.transport.TransportKind;
import kr.c4i.gateway.interfacedb.InterfaceDatabaseClient;
import kr.c4i.gateway.jms.PairRole;
import kr.c4i.gateway.ports.LoopbackPorts;
import kr.c4i.gateway.tools.embedded.EmbeddedDatabase;
import kr.c4i.gateway.tools.node.NodeLaunch;

/**
 * Nodes a (publisher) and b, c, ... (subscribers to every type) with their own PostgreSQL, run by
 * the test JVM because the interface database belongs to the C4I server and outlives any bridge,
 * and their bridges as separate processes. The databases are set up as the embedded default sets
 * up its own (durable, password-protected), so what holds here holds there.
 */
final class Cluster implements AutoCloseable {

    /** The bridge is a cell, as the database is: a power cut replaces them. */
    record Node(String id, DatabaseCell database, int httpPort, int brokerPort, NodeProcess[] process) {

        DataSource db() {
            return database.database().pool();
        }
    }

    private final Path dir;
    private final List<Node> nodes = new ArrayList<>();
    private final TransportKind transport;
    private final int ddsDomain = TestDomains.take(1);
    // The management endpoints take a credential; each cluster makes its own, as the embedded default does.
    private final String managementPassword = HexFormat.of().formatHex(new SecureRandom().generateSeed(12));
    private final Map<String, String> clearances = new TreeMap<>();
    private final List<NodeProcess> partners = new ArrayList<>();
    // Node id to the broker port of its second process, for each node made a pair.
    private final Map<String, Integer> pairs = new TreeMap<>();

    Cluster(Path dir, TransportKind transport, int size) throws IOException {
        this.dir = dir;
        this.transport = transport;
        for (int i = 0; i < size; i++) {
            String id = String.valueOf((char) ('a' + i));
            Path data = dir.resolve(id + "-pg");
            nodes.add(new Node(id, DatabaseCell.start(data, data.resolveSibling(id + "-pg.password"),
                    LoopbackPorts.freeTcp()), LoopbackPorts.freeTcp(), LoopbackPorts.freeTcp(), new NodeProcess[1]));
        }
    }

    /**
     * A power cut at node {@code id}: every process of its PostgreSQL and its bridge are killed with SIGKILL at
     * once, then the database is started again on the same data directory (crash recovery) and port. The bridge
     * is left for the test to start.
     */
    void powerCut(String id) throws Exception {
        Node node = node(id);
        node.database().powerCut(node.process()[0]::kill);
    }

    /**
     * Gives node {@code id}'s database a streaming standby in synchronous replication, as a primary and standby
     * pair on two machines would be, and has the node's bridge connect to the pair through PgJDBC's multi-host URL
     * ({@code targetServerType=primary}). Before the node's bridge starts.
     */
    void standby(String id) throws Exception {
        node(id).database().addStandby();
    }

    /**
     * The primary of node {@code id}'s pair dies (SIGKILL, every process of its PostgreSQL) and the standby is
     * promoted, as an operator or a failover manager does; the node's bridge is left running. From then on the node's
     * database is the promoted standby.
     *
     * @param survivors a count the standby answers before its promotion: what of it survived the primary
     */
    DatabaseCell.Failover failover(String id, String survivors) throws Exception {
        return node(id).database().failover(survivors);
    }

    Node node(String id) {
        return nodes.stream().filter(n -> n.id().equals(id)).findFirst().orElseThrow();
    }

    /** Every node started from now on is configured with node {@code id}'s clearance. */
    void clearance(String id, String level) {
        clearances.put(id, level);
    }

    /**
     * Starts the nodes at once and waits until each is up: their order does not matter, since an outbox keeps what
     * it could not send yet and sends it once its peer is there.
     */
    List<NodeProcess> startTogether(String... ids) throws IOException {
        List<NodeProcess> started = new ArrayList<>();
        for (String id : ids) {
            started.add(start(id));
        }
        started.forEach(process -> process.awaitUp(EndToEndContract.STARTUP));
        return started;
    }

    NodeProcess start(String id) throws IOException {
        Node node = node(id);
        node.process()[0] = new NodeProcess(launch(node, node.httpPort(), false), node.httpPort(),
                dir.resolve(id + ".log")).start();
        return node.process()[0];
    }

    /**
     * Runs node {@code id} on two machines: a second bridge process ({@link #startPartner}) beside the first, sharing
     * its interface database. Over JMS each process embeds a broker and the two are a primary/backup pair: the first
     * process's broker is the primary, the second's the backup, with a port and data directory of its own, and every
     * other node's bridge is given both. So before any node starts.
     */
    void pair(String id) {
        if (nodes.stream().anyMatch(node -> node.process()[0] != null)) {
            throw new IllegalStateException("pair(" + id + ") before any node starts: the nodes' peer URLs list both "
                    + "brokers of a pair");
        }
        pairs.put(node(id).id(), LoopbackPorts.freeTcp());
    }

    /**
     * The second bridge process of node {@code id}, made a pair with {@link #pair}, as on the node's second machine:
     * the same node id and interface database, its own management port (over JMS, its own broker, the backup).
     */
    NodeProcess startPartner(String id) throws IOException {
        if (!pairs.containsKey(id)) {
            throw new IllegalStateException("node " + id + " has no second process: call pair(" + id + ") first");
        }
        int httpPort = LoopbackPorts.freeTcp();
        NodeProcess partner = new NodeProcess(launch(node(id), httpPort, true), httpPort,
                dir.resolve(id + "-partner.log")).start();
        partners.add(partner);
        return partner;
    }

    /**
     * The {@code application_name} of a bridge process's sessions in its interface database, so a test tells the
     * two processes of a pair apart in {@code pg_stat_activity}.
     */
    static String sessionName(String id, boolean partner) {
        return partner ? id + "-partner" : id;
    }

    /** @param partner the second process of a pair, not the first */
    private NodeLaunch launch(Node node, int httpPort, boolean partner) {
        String id = node.id();
        String url = NodeDatabase.withParameter(node.database().jdbcUrl(), "ApplicationName", sessionName(id, partner));
        NodeLaunch.Builder launch = NodeLaunch.builder(id, transport)
                .datasource(url, EmbeddedDatabase.USER, node.database().database().password())
                .roles(id.equals("a"), !id.equals("a"));
        for (Node other : nodes) {
            if (!other.id().equals("a")) {
                launch.subscription(other.id(), "*");
            }
            if (!other.id().equals(id)) {
                launch.jmsPeer(other.id(), brokerUrl(other));
            }
        }
        clearances.forEach(launch::clearance);
        Integer partnerPort = pairs.get(id);
        int brokerPort = partner ? partnerPort : node.brokerPort();
        launch.embeddedBroker("127.0.0.1", brokerPort)
                .brokerDataDirectory(dir.resolve(partner ? "artemis-partner" : "artemis"));
        if (partnerPort != null) {
            // The first process's broker is the pair's primary (unused over DDS, as every broker setting).
            launch.brokerPair(partner ? PairRole.BACKUP : PairRole.PRIMARY,
                    "127.0.0.1:" + (partner ? node.brokerPort() : partnerPort), null);
        }
        launch.jmsCredentials("gateway", "e2e-secret").managementPassword(managementPassword)
                .bridgeMaxRetryInterval("1s")
                .jmsPlainTcp().ddsPlain()
                .ddsDomain(ddsDomain).ddsMulticast(false).ddsPeers(List.of("127.0.0.1"))
                .resend("2s", "4s").managementPort(httpPort);
        return launch.build();
    }

    /** Node {@code node}'s broker as its peers are given it: both brokers of a pair, the bridge following the active one. */
    private String brokerUrl(Node node) {
        Integer partnerPort = pairs.get(node.id());
        return (partnerPort == null) ? "tcp://127.0.0.1:" + node.brokerPort()
                : "(tcp://127.0.0.1:" + node.brokerPort() + ",tcp://127.0.0.1:" + partnerPort + ")?ha=true";
    }

    void insertOutbox(String id, String type, String body) throws SQLException {
        client(id).insert(type, body);
    }

    long count(String id, String sql) throws SQLException {
        return client(id).count(sql);
    }

    List<String> strings(String id, String sql) throws SQLException {
        return client(id).strings(sql);
    }

    /** Node {@code id}'s interface database as its C4I application sees it (its pool changes at a power cut). */
    InterfaceDatabaseClient client(String id) {
        return new InterfaceDatabaseClient(node(id).db());
    }

    @Override
    public void close() throws Exception {
        for (NodeProcess partner : partners) {
            partner.close();
        }
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
