package kr.c4i.gateway.wan.lan;

import static kr.c4i.gateway.wan.lan.Envelopes.CATALOGUE;
import static kr.c4i.gateway.wan.lan.Envelopes.SITREP;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import kr.c4i.gateway.core.Envelope;
import kr.c4i.gateway.core.NodeId;
import kr.c4i.gateway.core.link.SiteId;
import kr.c4i.gateway.core.routing.RoutingTable;
import kr.c4i.gateway.core.transport.Outbound;
import kr.c4i.gateway.core.transport.TransportHealth;
import kr.c4i.gateway.jms.JmsTransport;
import kr.c4i.gateway.jms.JmsTransportSettings;
import kr.c4i.gateway.jms.PairRole;
import kr.c4i.gateway.kmtf.catalogue.Precedence;
import kr.c4i.gateway.ports.LoopbackPorts;
import kr.c4i.gateway.wan.site.SiteMap;

/**
 * Real nodes and the gateway's JMS LAN side, each with its own embedded Artemis broker on loopback, in one JVM: node
 * {@code a} at site 1 sends to node {@code c} at site 3 through the site-1 gateway; the site-2 gateway delivers to
 * node {@code x} there.
 */
@Timeout(120)
class JmsLanSideTest {

    static final SiteId SITE1 = SiteId.of("site1");
    static final SiteId SITE2 = SiteId.of("site2");
    static final SiteId SITE3 = SiteId.of("site3");
    static final NodeId A = NodeId.of("a");
    static final NodeId C = NodeId.of("c");
    static final NodeId X = NodeId.of("x");
    static final Map<SiteId, List<NodeId>> SITES = Map.of(SITE1, List.of(A), SITE2, List.of(X), SITE3,
            List.of(C));
    static final RoutingTable ROUTING = RoutingTable.of(Map.of(A, List.of(), C, List.of("SITREP"), X,
            List.of("SITREP")), CATALOGUE);
    static final Duration WAIT = Duration.ofSeconds(30);

    @TempDir
    Path data;

    private final List<AutoCloseable> opened = new ArrayList<>();

    @AfterEach
    void close() throws Exception {
        for (AutoCloseable closeable : this.opened.reversed()) {
            closeable.close();
        }
    }

    @Test
    void takesWhatANodeSendsToARemoteNodeAndCommitsOnlyOnceTheEngineStoredIt() throws Exception {
        int gatewayPort = LoopbackPorts.freeTcp();
        JmsLanSide gateway = gateway(SITE1, "gw1", gatewayPort, Map.of());
        RecordingIngest ingest = new RecordingIngest().holding();
        gateway.open(ingest);
        JmsTransport a = node(A, Map.of(C, gatewayPort));
        Envelope sent = Envelopes.sitrep("a-1", A);

        a.send(List.of(new Outbound(sent, SITREP, List.of(C))));

        assertThat(ingest.awaitEntered(WAIT.toSeconds())).as("ingest called").isTrue();
        // Held in ingest, so not committed: the broker still counts it on the queue.
        assertThat(relayedDepth(gateway, C)).isEqualTo(1);
        ingest.release();
        await().atMost(WAIT).until(() -> relayedDepth(gateway, C) == 0L);
        assertThat(ingest.stored).containsExactly(Map.entry("a-1", sent));
        assertThat(ingest.callsWith("a-1")).isEqualTo(1);
        assertThat(gateway.health().details()).containsEntry("ingested", 1L);
    }

    @Test
    void aBatchTheEngineFailedOnComesAgain() throws Exception {
        int gatewayPort = LoopbackPorts.freeTcp();
        JmsLanSide gateway = gateway(SITE1, "gw1", gatewayPort, Map.of());
        RecordingIngest ingest = new RecordingIngest().failing(1);
        gateway.open(ingest);
        JmsTransport a = node(A, Map.of(C, gatewayPort));

        a.send(List.of(new Outbound(Envelopes.sitrep("a-2", A), SITREP, List.of(C))));

        await().atMost(WAIT).until(() -> ingest.stored.containsKey("a-2") && relayedDepth(gateway, C) == 0L);
        assertThat(ingest.events).containsExactly("ingest-failed [a-2]", "ingest-stored [a-2]");
    }

    @Test
    void aBatchTheStoreRefusedComesAgain() throws Exception {
        int gatewayPort = LoopbackPorts.freeTcp();
        JmsLanSide gateway = gateway(SITE1, "gw1", gatewayPort, Map.of());
        RecordingIngest ingest = new RecordingIngest().refusing(1);
        gateway.open(ingest);
        JmsTransport a = node(A, Map.of(C, gatewayPort));

        a.send(List.of(new Outbound(Envelopes.sitrep("a-3", A), SITREP, List.of(C))));

        await().atMost(WAIT).until(() -> ingest.stored.containsKey("a-3") && relayedDepth(gateway, C) == 0L);
        assertThat(ingest.events).containsExactly("ingest-refused [a-3]", "ingest-stored [a-3]");
        assertThat(gateway.health().details()).containsEntry("refused", 1L).containsEntry("ingested", 1L);
    }

    @Test
    void deliversARelayedMessageToTheNodesOfThisSite() throws Exception {
        int xPort = LoopbackPorts.freeTcp();
        Map<String, Envelope> inbox = new ConcurrentHashMap<>();
        JmsTransport x = node(X, Map.of(), xPort);
        x.subscribe(batch -> batch.forEach(e -> inbox.put(e.messageId(), e)));
        JmsLanSide gateway = gateway(SITE2, "gw2", LoopbackPorts.freeTcp(), Map.of(X, xPort));
        gateway.open(new RecordingIngest());
        Envelope fromA = Envelopes.sitrep("a-4", A);
        // No node at site 2 subscribes to OPORD; no catalogue has NOSUCH.
        Envelope unsubscribed = new Envelope("a-5", A, "OPORD", Precedence.IMMEDIATE, "SECRET", Instant.now(),
                new byte[] {'o'});
        Envelope unknown = new Envelope("a-6", A, "NOSUCH", Precedence.FLASH, "SECRET", Instant.now(),
                new byte[] {'n'});

        LanDelivery delivery = gateway.deliver(List.of(Envelopes.relayed(fromA, SITE1, SITE2),
                Envelopes.relayed(unsubscribed, SITE1, SITE2), Envelopes.relayed(unknown, SITE1, SITE2)));

        assertThat(delivery.passed()).containsExactlyInAnyOrder("a-4", "a-5");
        assertThat(delivery.pending()).isEmpty();
        assertThat(delivery.rejected()).containsOnlyKeys("a-6");
        await().atMost(WAIT).until(() -> inbox.containsKey("a-4"));
        assertThat(inbox).containsExactly(Map.entry("a-4", fromA));
    }

    @Test
    void refusesAPeerSetThatDoesNotMatchTheSiteMap() {
        SiteMap sites = SiteMap.of(SITE2, SITES, ROUTING);
        JmsTransportSettings settings = settings(NodeId.of("gw2"), 61616, Map.of(A, 61617));
        assertThatThrownBy(() -> new JmsLanSide(settings, sites, ROUTING, CATALOGUE))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("node x of this site subscribes to messages but is not a peer of the gateway")
                .hasMessageContaining("node a is at site site1");
    }

    /**
     * The LAN brokers of a gateway pair, both running from the start: what a node handed to the leader's broker and
     * the leader never took is taken by the standby once the leader is gone, and the node's bridge follows it.
     */
    @Test
    void aPairsStandbyTakesWhatANodeHandedToTheLeadersBroker() throws Exception {
        int primaryPort = LoopbackPorts.freeTcp();
        int backupPort = LoopbackPorts.freeTcp();
        JmsLanSide leader = pairedGateway(PairRole.PRIMARY, primaryPort, backupPort);
        JmsLanSide standby = pairedGateway(PairRole.BACKUP, backupPort, primaryPort);
        assertThat(standby.standbyHealth().up()).as("a standby whose backup broker has not started").isFalse();
        leader.standBy();
        standby.standBy();
        // The standby's health says when its broker holds the leader's journal, as the standby's health shows it.
        await().atMost(WAIT).until(() -> standby.standbyHealth().up());
        assertThat(standby.standbyHealth().details()).containsEntry("pairSynchronized", true)
                .containsEntry("brokerRunning", true).containsEntry("brokerActive", false)
                .containsEntry("pairRole", "backup");
        assertThat(standby.health().details()).containsEntry("pairSynchronized", true);
        assertThat(leader.health().details()).containsEntry("brokerActive", true);
        assertThat(standby.health().details()).containsEntry("brokerActive", false);
        JmsTransport a = new JmsTransport(settings(A, LoopbackPorts.freeTcp(), Map.of()).withPeers(Map.of(C,
                JmsTransportSettings.Peer.at("(tcp://127.0.0.1:" + primaryPort + ",tcp://127.0.0.1:" + backupPort
                        + ")?ha=true"))));
        this.opened.add(a);
        a.open();
        List<Outbound> before = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            before.add(new Outbound(Envelopes.sitrep("a-before-" + i, A), SITREP, List.of(C)));
        }
        a.send(before);
        // All of it on the leader's broker (bundled: one JMS message or a few), none left at a.
        await().atMost(WAIT).until(() -> pendingAt(a, C) == 0L && relayedDepth(leader, C) > 0L);

        // The leader stops having taken nothing: its broker hands over to the standby's.
        leader.close();
        RecordingIngest ingest = new RecordingIngest();
        standby.open(ingest);
        a.send(List.of(new Outbound(Envelopes.sitrep("a-after", A), SITREP, List.of(C))));

        await().atMost(WAIT).until(() -> ingest.stored.size() == before.size() + 1);
        assertThat(ingest.stored.keySet()).containsAll(before.stream().map(o -> o.envelope().messageId()).toList())
                .contains("a-after");
        assertThat(standby.health().details()).containsEntry("brokerActive", true);
    }

    /** A lone LAN broker stays stopped on a standby: the nodes would forward to it messages no one takes. */
    @Test
    void aLoneLanBrokerWaitsForOpenOnAStandby() throws Exception {
        JmsLanSide gateway = gateway(SITE1, "gw1", LoopbackPorts.freeTcp(), Map.of());

        gateway.standBy();

        assertThat(gateway.health().details()).containsEntry("brokerActive", false);
        assertThat(gateway.standbyHealth()).as("nothing to wait for on a standby").isEqualTo(
                TransportHealth.up(Map.of()));
        gateway.open(new RecordingIngest());
        assertThat(gateway.health().details()).containsEntry("brokerActive", true);
    }

    private JmsLanSide pairedGateway(PairRole role, int port, int partnerPort) {
        JmsTransportSettings settings = settings(NodeId.of("gw1"), port, Map.of());
        settings = settings.withEmbedded(JmsTransportSettings.Embedded.at("127.0.0.1", port,
                this.data.resolve("gw1-" + role.label())).withPair(JmsTransportSettings.Pair.of(role,
                        "127.0.0.1:" + partnerPort)));
        JmsLanSide gateway = new JmsLanSide(settings, SiteMap.of(SITE1, SITES, ROUTING), ROUTING, CATALOGUE);
        this.opened.add(gateway);
        return gateway;
    }

    private JmsLanSide gateway(SiteId site, String id, int port, Map<NodeId, Integer> peers) {
        JmsLanSide gateway = new JmsLanSide(settings(NodeId.of(id), port, peers), SiteMap.of(site, SITES, ROUTING),
                ROUTING, CATALOGUE);
        this.opened.add(gateway);
        return gateway;
    }

    private JmsTransport node(NodeId id, Map<NodeId, Integer> peers) throws Exception {
        return node(id, peers, LoopbackPorts.freeTcp());
    }

    private JmsTransport node(NodeId id, Map<NodeId, Integer> peers, int port) throws Exception {
        JmsTransport transport = new JmsTransport(settings(id, port, peers));
        this.opened.add(transport);
        transport.open();
        return transport;
    }

    /** Fast retries, so a returning broker is found within a second. */
    private JmsTransportSettings settings(NodeId id, int port, Map<NodeId, Integer> peers) {
        Map<NodeId, JmsTransportSettings.Peer> peerUrls = new java.util.TreeMap<>();
        peers.forEach((peer, peerPort) -> peerUrls.put(peer, JmsTransportSettings.Peer.at("tcp://127.0.0.1:"
                + peerPort)));
        return JmsTransportSettings.of(id, "gateway", "s3cret-pw",
                JmsTransportSettings.Embedded.at("127.0.0.1", port, this.data.resolve(id.value())),
                new JmsTransportSettings.Receive(100, Duration.ofMillis(200), Duration.ofMillis(100),
                        Duration.ofSeconds(1)),
                new JmsTransportSettings.Bridge(Duration.ofMillis(100), 2.0, Duration.ofSeconds(1), 1024 * 1024,
                        Duration.ofSeconds(1), Duration.ofSeconds(5)))
                .withPeers(peerUrls);
    }

    @SuppressWarnings("unchecked")
    private static long pendingAt(JmsTransport node, NodeId peer) {
        Map<String, Object> peers = (Map<String, Object>) node.health().details().get("peers");
        Map<String, Object> queue = (Map<String, Object>) peers.get(peer.value());
        return (Long) queue.getOrDefault("pending", -1L);
    }

    @SuppressWarnings("unchecked")
    private static long relayedDepth(JmsLanSide gateway, NodeId node) {
        Map<String, Object> queues = (Map<String, Object>) gateway.health().details().get("relayedQueues");
        Map<String, Object> queue = (Map<String, Object>) queues.get("kmtf.node." + node.value());
        return (Long) queue.get("depth");
    }
}
