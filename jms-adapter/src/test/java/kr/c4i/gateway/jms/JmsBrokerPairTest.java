package kr.c4i.gateway.jms;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import kr.c4i.gateway.core.NodeId;
import kr.c4i.gateway.core.transport.InvalidSettingsException;
import kr.c4i.gateway.core.transport.InvalidSettingsException.Problem;
import kr.c4i.gateway.core.transport.TransportHealth;
import kr.c4i.gateway.ports.LoopbackPorts;
import jakarta.jms.Connection;
import org.apache.activemq.artemis.api.core.ActiveMQException;
import org.apache.activemq.artemis.api.core.TransportConfiguration;
import org.apache.activemq.artemis.core.client.impl.Topology;
import org.apache.activemq.artemis.core.remoting.impl.netty.TransportConstants;
import org.apache.activemq.artemis.core.replication.ReplicationManager;
import org.apache.activemq.artemis.core.server.ActiveMQServer;
import org.apache.activemq.artemis.jms.client.ActiveMQConnectionFactory;
import org.apache.activemq.artemis.spi.core.protocol.RemotingConnection;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import static kr.c4i.gateway.jms.Fixtures.batch;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * Node b on two machines, each a process with its own broker beside one inbox: here two transports in one JVM, the
 * primary's broker and the backup's on their own ports and data, both consuming into one recording inbox.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class JmsBrokerPairTest {

    private static final Logger log = LoggerFactory.getLogger(JmsBrokerPairTest.class);

    private static final Duration TIMEOUT = Duration.ofSeconds(60);
    private static final int MESSAGES = 2_000;
    private static final int PER_SEND = 20;
    private static final int RECEIVE_BATCH = 50;
    private static final Duration SENDING = Duration.ofSeconds(3);
    // A crash's connections are cut one by one; a loaded machine puts tens of milliseconds between the first and last.
    private static final Duration BETWEEN_CUTS = Duration.ofMillis(50);

    @TempDir
    Path tempDir;

    private final List<JmsTransport> opened = new ArrayList<>();

    @AfterEach
    void closeTransports() {
        opened.reversed().forEach(JmsTransport::close);
    }

    @Test
    void everyMessageReachesTheInboxExactlyOnceWhenThePrimaryDiesMidStream() throws Exception {
        crashThePrimaryMidStream(MESSAGES, null, null);
    }

    @Test
    void overMutualTlsTooEveryMessageReachesTheInboxExactlyOnceWhenThePrimaryDiesMidStream() throws Exception {
        TlsFixture site = new TlsFixture("s1", this.tempDir);
        // Both processes of node b hold the node's identity, at the same path as on two machines set up alike.
        crashThePrimaryMidStream(MESSAGES / 4, site.loopback("b"), site.loopback("a"));
    }

    /**
     * Node a sends {@code messages} to node b, whose primary is crashed once a quarter of them have arrived; every one
     * must reach b's inbox, and the backup's broker must take over.
     */
    private void crashThePrimaryMidStream(int messages, @Nullable BrokerTls bTls, @Nullable BrokerTls aTls)
            throws Exception {
        int primaryPort = LoopbackPorts.freeTcp();
        int backupPort = LoopbackPorts.freeTcp();
        int aPort = LoopbackPorts.freeTcp();
        // One inbox for node b, written by both of its processes and keyed by message id, as its database is.
        RecordingHandler inbox = new RecordingHandler();
        JmsTransport primary = open(member(PairRole.PRIMARY, primaryPort, backupPort, aPort).withTls(bTls));
        primary.subscribe(inbox);
        JmsTransport backup = open(member(PairRole.BACKUP, backupPort, primaryPort, aPort).withTls(bTls));
        backup.subscribe(inbox);
        await().atMost(TIMEOUT).until(() -> synchronizedPair(primary) && synchronizedPair(backup));
        assertThat(backup.health().up()).as("a passive backup's process is up").isTrue();
        assertThat(backup.health().details()).containsEntry("brokerActive", false).containsEntry("pairRole", "backup");
        JmsTransport a = open(nodeA(aPort, "(tcp://127.0.0.1:" + primaryPort + ",tcp://127.0.0.1:" + backupPort
                + ")?ha=true&reconnectAttempts=-1").withTls(aTls));
        if (aTls != null) {
            theTopologyCarriesNoSecret(primaryPort, backupPort, aTls);
        }

        // Spread over a few seconds, so that a is still sending when the primary goes and after the backup is active.
        long pauseMillis = SENDING.toMillis() * PER_SEND / messages;
        CompletableFuture<Void> sending = CompletableFuture.runAsync(() -> {
            try {
                for (int from = 0; from < messages; from += PER_SEND) {
                    a.send(batch("a", "m", from, PER_SEND, "b"));
                    Thread.sleep(pauseMillis);
                }
            }
            catch (Exception ex) {
                throw new IllegalStateException(ex);
            }
        });
        await().atMost(TIMEOUT).until(() -> inbox.uniqueCount() >= messages / 4);

        long crashed = System.nanoTime();
        int beforeCrash = inbox.uniqueCount();
        boolean stillSending = !sending.isDone();
        crash(primary);
        // The rest of the primary's process goes with its broker, while the backup takes over.
        CompletableFuture<Void> primaryGone = CompletableFuture.runAsync(primary::close);
        await().atMost(TIMEOUT).pollInterval(Duration.ofMillis(10)).until(() -> backup.embeddedBroker().isActive());
        long tookOver = System.nanoTime();
        int atTakeover = inbox.uniqueCount();
        await().atMost(TIMEOUT).pollInterval(Duration.ofMillis(10))
                .until(() -> inbox.uniqueCount() > atTakeover || inbox.uniqueCount() == messages);
        long flowing = System.nanoTime();

        sending.get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
        primaryGone.get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
        await().atMost(TIMEOUT).untilAsserted(() -> assertThat(inbox.uniqueCount())
                .as("distinct messages in b's inbox; a: %s; b's backup: %s", a.health(), backup.health())
                .isEqualTo(messages));
        int redelivered = inbox.deliveryCount() - messages;
        log.info("{}: primary crashed after {} of {} messages had arrived (a still sending: {}); backup active {} ms "
                + "later, messages flowing again {} ms after the crash; {} deliveries were redeliveries of batches the "
                + "crash cut", (bTls != null) ? "TLS" : "TCP", beforeCrash, messages, stillSending,
                millis(crashed, tookOver), millis(crashed, flowing), redelivered);

        assertThat(inbox.received().keySet()).isEqualTo(IntStream.range(0, messages).mapToObj((i) -> "m-" + i)
                .collect(Collectors.toSet()));
        // Only a batch a consumer had in hand at the crash comes again (one per process, a bundle over at most):
        // the bridge's resends to the new active broker are dropped there by the replicated duplicate ids.
        assertThat(redelivered).as("redeliveries").isBetween(0, 2 * (RECEIVE_BATCH + PER_SEND));
        await().atMost(TIMEOUT).untilAsserted(() -> {
            assertThat(peer(a.health(), "b")).containsEntry("pending", 0L).containsEntry("bridgeConnected", true);
            assertThat(backup.health().details()).containsEntry("brokerActive", true).containsEntry("inboxDepth", 0L);
        });
        assertThat(backup.health().up()).isTrue();
    }

    @Test
    void aPrimaryRestartedAfterAFailoverTakesOverAgainOnceItHasTheBackupsJournal() throws Exception {
        int primaryPort = LoopbackPorts.freeTcp();
        int backupPort = LoopbackPorts.freeTcp();
        int aPort = LoopbackPorts.freeTcp();
        RecordingHandler inbox = new RecordingHandler();
        JmsTransport primary = open(member(PairRole.PRIMARY, primaryPort, backupPort, aPort));
        primary.subscribe(inbox);
        JmsTransport backup = open(member(PairRole.BACKUP, backupPort, primaryPort, aPort));
        backup.subscribe(inbox);
        await().atMost(TIMEOUT).until(() -> synchronizedPair(primary) && synchronizedPair(backup));
        JmsTransport a = open(nodeA(aPort, "(tcp://127.0.0.1:" + primaryPort + ",tcp://127.0.0.1:" + backupPort
                + ")"));
        a.send(batch("a", "before", 0, 100, "b"));
        inbox.awaitUnique(100, TIMEOUT);

        crash(primary);
        primary.close();
        await().atMost(TIMEOUT).until(() -> backup.embeddedBroker().isActive());
        a.send(batch("a", "alone", 0, 100, "b"));
        inbox.awaitUnique(200, TIMEOUT);

        // The restarted primary finds its backup active under its identity: it copies the backup's journal, the
        // backup hands over and starts again as the backup.
        JmsTransport restarted = open(member(PairRole.PRIMARY, primaryPort, backupPort, aPort));
        restarted.subscribe(inbox);
        await().atMost(TIMEOUT).untilAsserted(() -> {
            assertThat(restarted.embeddedBroker().isActive()).as("restarted primary active").isTrue();
            assertThat(backup.embeddedBroker().isActive()).as("backup active").isFalse();
            assertThat(synchronizedPair(restarted) && synchronizedPair(backup)).as("pair synchronized").isTrue();
        });
        a.send(batch("a", "after", 0, 100, "b"));

        inbox.awaitUnique(300, TIMEOUT);
        assertThat(inbox.received().keySet()).allMatch((id) -> id.startsWith("before-") || id.startsWith("alone-")
                || id.startsWith("after-")).hasSize(300);
        // The backup's own clients find their way back to the primary after its restart as a backup.
        await().atMost(TIMEOUT).untilAsserted(() -> {
            assertThat(peer(a.health(), "b")).containsEntry("pending", 0L);
            assertThat(restarted.health().up()).as("restarted primary up").isTrue();
            assertThat(backup.health().up()).as("backup up").isTrue();
        });
    }

    @Test
    void aPartnerWithoutAPortIsRefusedInOneLineNamingTheSetting() {
        assertThatExceptionOfType(InvalidSettingsException.class)
                .isThrownBy(() -> settings("b", JmsTransportSettings.Embedded.at("127.0.0.1", 61617,
                        this.tempDir.resolve("b-backup")).withPair(JmsTransportSettings.Pair.of(PairRole.BACKUP,
                                "node-b1"))))
                .withMessage("Invalid JMS transport settings: embedded.pair.partner 'node-b1' must be the other "
                        + "broker's host:port, such as node-b2:61616")
                .satisfies((ex) -> assertThat(ex.problems()).extracting(Problem::setting)
                        .containsExactly("embedded.pair.partner"));
    }

    /** Node b's broker in {@code role}, the other at {@code partnerPort}; it sends to node a. */
    private JmsTransportSettings member(PairRole role, int port, int partnerPort, int aPort) {
        JmsTransportSettings.Embedded embedded = JmsTransportSettings.Embedded.at("127.0.0.1", port,
                this.tempDir.resolve("b-" + role.label()))
                .withPair(JmsTransportSettings.Pair.of(role, "127.0.0.1:" + partnerPort));
        return settings("b", embedded).withPeers(Map.of(NodeId.of("a"),
                JmsTransportSettings.Peer.at("tcp://127.0.0.1:" + aPort)));
    }

    private JmsTransportSettings nodeA(int port, String bUrl) {
        return settings("a", JmsTransportSettings.Embedded.at("127.0.0.1", port, this.tempDir.resolve("a")))
                .withPeers(Map.of(NodeId.of("b"), JmsTransportSettings.Peer.at(bUrl)));
    }

    /** Plain TCP and fast retries, as {@link TestNodes} has them. */
    private static JmsTransportSettings settings(String node, JmsTransportSettings.Embedded embedded) {
        return JmsTransportSettings.of(NodeId.of(node), TestNodes.USER, TestNodes.PASSWORD, embedded,
                new JmsTransportSettings.Receive(RECEIVE_BATCH, Duration.ofMillis(200), Duration.ofMillis(100),
                        Duration.ofSeconds(1)),
                new JmsTransportSettings.Bridge(Duration.ofMillis(100), 2.0, Duration.ofSeconds(1), 1024 * 1024,
                        Duration.ofSeconds(1), Duration.ofSeconds(5)));
    }

    private JmsTransport open(JmsTransportSettings settings) throws Exception {
        JmsTransport transport = new JmsTransport(settings);
        this.opened.add(transport);
        transport.open();
        return transport;
    }

    /**
     * Ends a broker as a killed process would, as near as one JVM allows: it takes no new connection, every
     * connection of its clients (this node's processes, the peers' bridges) is closed under it without a word of
     * Artemis's protocol (no disconnect), then its replication to its backup (no "primary is stopping"), and only then
     * is what is left stopped, still without asking the backup to take over.
     *
     * <p>The replication goes last. A primary that loses its backup goes on alone: Artemis completes the writes still
     * waiting for the backup's answer and replicates none after them, so a client still connected would have sends
     * confirmed that only the dying primary holds, which a killed process never does. A bridge acknowledges such a
     * bundle at home, and it is lost with the primary. The cuts are spread apart, as a loaded machine spreads them,
     * so that their order counts in every run rather than only on a busy one.
     */
    private static void crash(JmsTransport transport) throws Exception {
        ActiveMQServer server = transport.embeddedBroker().server();
        server.getRemotingService().pauseAcceptors();
        ReplicationManager replication = server.getReplicationManager();
        RemotingConnection backup = (replication != null) ? replication.getBackupTransportConnection() : null;
        Set<RemotingConnection> cut = Collections.newSetFromMap(new IdentityHashMap<>());
        // Again until none is new: a connection accepted just before the acceptors paused may register late.
        for (List<RemotingConnection> clients = clientsLeft(server, backup, cut); !clients.isEmpty();
                clients = clientsLeft(server, backup, cut)) {
            for (RemotingConnection client : clients) {
                cutUnder(client);
                cut.add(client);
            }
        }
        if (backup != null) {
            cutUnder(backup);
            cut.add(backup);
        }
        server.fail(false);
        log.info("Crashed the primary: closed {} connections under it, its backup's last", cut.size());
    }

    private static List<RemotingConnection> clientsLeft(ActiveMQServer server, @Nullable RemotingConnection backup,
            Set<RemotingConnection> cut) {
        return server.getRemotingService().getConnections().stream()
                .filter((connection) -> connection != backup && !cut.contains(connection)).toList();
    }

    private static void cutUnder(RemotingConnection connection) throws InterruptedException {
        connection.fail(new ActiveMQException("simulated crash of the primary's process"));
        Thread.sleep(BETWEEN_CUTS.toMillis());
    }

    /**
     * What the pair tells each of its clients about its two brokers (here a client of node a's, on both brokers
     * like a's bridge): TLS by name, without a store's path or password.
     */
    private static void theTopologyCarriesNoSecret(int primaryPort, int backupPort, BrokerTls clientTls)
            throws Exception {
        try (ActiveMQConnectionFactory factory = clientTls.applyTo(new ActiveMQConnectionFactory("(tcp://127.0.0.1:"
                + primaryPort + ",tcp://127.0.0.1:" + backupPort + ")?ha=true", TestNodes.USER, TestNodes.PASSWORD));
                Connection connection = factory.createConnection()) {
            Topology topology = factory.getServerLocator().getTopology();
            await().atMost(TIMEOUT).until(() -> topology.getMembers().stream()
                    .anyMatch((member) -> member.getPrimary() != null && member.getBackup() != null));
            List<TransportConfiguration> announced = topology.getMembers().stream()
                    .flatMap((member) -> Stream.of(member.getPrimary(), member.getBackup())).toList();
            assertThat(announced).as("the brokers as announced").hasSize(2).allSatisfy((connector) -> {
                assertThat(connector.getParams()).containsEntry(TransportConstants.SSL_ENABLED_PROP_NAME, true)
                        .containsEntry(TransportConstants.SSL_CONTEXT_PROP_NAME, clientTls.contextName());
                assertThat(connector.getParams().keySet()).noneMatch((key) -> key.toLowerCase(Locale.ROOT)
                        .matches(".*(password|path|store).*"));
            });
        }
    }

    private static boolean synchronizedPair(JmsTransport transport) {
        return Boolean.TRUE.equals(transport.health().details().get("pairSynchronized"));
    }

    private static long millis(long fromNanos, long toNanos) {
        return TimeUnit.NANOSECONDS.toMillis(toNanos - fromNanos);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> peer(TransportHealth health, String peer) {
        Map<String, Object> peers = (Map<String, Object>) health.details().get("peers");
        return (Map<String, Object>) peers.get(peer);
    }
}
