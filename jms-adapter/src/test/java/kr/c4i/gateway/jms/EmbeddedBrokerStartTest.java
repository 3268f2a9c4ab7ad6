package kr.c4i.gateway.jms;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import kr.c4i.gateway.core.NodeId;
import kr.c4i.gateway.core.transport.TransportUnavailableException;
import kr.c4i.gateway.ports.LoopbackPorts;

/** How an embedded broker that cannot start says why, on a real Artemis. */
class EmbeddedBrokerStartTest {

    @Test
    void aBrokerWhosePortIsTakenSaysSoInOneLine(@TempDir Path dir) throws Exception {
        int port = LoopbackPorts.freeTcp();
        try (ServerSocket taken = new ServerSocket()) {
            taken.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
            JmsTransportSettings settings = TestNodes.settings(NodeId.of("a"), "gateway", "pw")
                    .withEmbedded(JmsTransportSettings.Embedded.at("127.0.0.1", port, dir.resolve("a")));
            EmbeddedBroker broker = new EmbeddedBroker(settings, List.of());

            assertThatThrownBy(() -> broker.startFor("node a")).isInstanceOf(TransportUnavailableException.class)
                    .hasMessageContaining("127.0.0.1:" + port).hasMessageContaining("Address already in use")
                    .hasMessageNotContaining("\n");
        }
    }
}
