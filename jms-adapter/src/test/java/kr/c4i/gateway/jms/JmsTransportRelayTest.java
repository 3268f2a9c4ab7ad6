package kr.c4i.gateway.jms;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import kr.c4i.gateway.core.NodeId;

/**
 * A site's WAN gateway holds, on its own broker, the queues of nodes at other sites, which the site's nodes send to
 * through it: node {@code alpha}'s peers map {@code remote} to the gateway's broker.
 */
@Timeout(120)
class JmsTransportRelayTest {

    static final NodeId REMOTE = NodeId.of("remote");

    @TempDir
    Path data;

    @Test
    void theGatewayConsumesARelayedQueueIncludingWhatArrivedBeforeItSubscribed() throws Exception {
        try (TestNodes nodes = TestNodes.create(this.data, "alpha", "gateway")) {
            JmsTransport gateway = new JmsTransport(nodes.settings("gateway").withPeers(Map.of()), List.of(),
                    Set.of(REMOTE));
            JmsTransport alpha = new JmsTransport(nodes.settings("alpha")
                    .withPeers(Map.of(REMOTE, JmsTransportSettings.Peer.at(nodes.url("gateway")))));
            try (gateway; alpha) {
                gateway.open();
                alpha.open();
                // Forwarded by alpha's bridge while nobody consumes: the queue must hold it.
                alpha.send(Fixtures.batch("alpha", "early", 0, 3, "remote"));
                // Three messages of one precedence: one bundle.
                awaitDepth(gateway, 1);
                RecordingHandler handler = new RecordingHandler(1);
                gateway.subscribeRelayed(handler);
                alpha.send(Fixtures.batch("alpha", "late", 0, 2, "remote"));

                handler.awaitUnique(5, Duration.ofSeconds(30));
                assertThat(handler.failedBatches()).hasSize(1);
                assertThat(handler.received().keySet()).containsExactlyInAnyOrder("early-0", "early-1", "early-2",
                        "late-0", "late-1");
                awaitDepth(gateway, 0);
                assertThat(gateway.health().details()).containsKey("relayedQueues");
            }
        }
    }

    @Test
    void aRelayedNodeIsNeitherTheNodeNorAPeer() {
        JmsTransportSettings settings = TestNodes.settings(NodeId.of("gateway"), "gateway", "pw")
                .withPeers(Map.of(NodeId.of("local"), JmsTransportSettings.Peer.at("tcp://127.0.0.1:61617")));
        assertThatThrownBy(() -> new JmsTransport(settings, List.of(),
                Set.of(NodeId.of("gateway"), NodeId.of("local"), REMOTE)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("gateway is this node itself")
                .hasMessageContaining("local is a peer");
    }

    @Test
    void aTransportThatRelaysForNoNodeHasNoRelayedQueuesToConsume() throws Exception {
        try (TestNodes nodes = TestNodes.create(this.data, "gateway")) {
            try (JmsTransport gateway = new JmsTransport(nodes.settings("gateway"))) {
                gateway.open();
                assertThatThrownBy(() -> gateway.subscribeRelayed(new RecordingHandler()))
                        .isInstanceOf(IllegalStateException.class).hasMessageContaining("relays for no node");
            }
        }
    }

    @SuppressWarnings("unchecked")
    private static void awaitDepth(JmsTransport gateway, long expected) {
        await().atMost(Duration.ofSeconds(30)).until(() -> {
            Map<String, Object> queues = (Map<String, Object>) gateway.health().details().get("relayedQueues");
            Map<String, Object> queue = (Map<String, Object>) queues.get("kmtf.node.remote");
            return Long.valueOf(expected).equals(queue.get("depth"));
        });
    }
}
