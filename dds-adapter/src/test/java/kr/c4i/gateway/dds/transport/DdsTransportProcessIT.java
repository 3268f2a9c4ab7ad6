package kr.c4i.gateway.dds.transport;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import kr.c4i.gateway.core.NodeId;
import kr.c4i.gateway.dds.TestNetwork;
import kr.c4i.gateway.kmtf.catalogue.MessageType;

/**
 * Two gateway nodes in two JVMs on loopback: the sender here, {@link PeerMain} as the receiver. Covers discovery,
 * matching of every topic, RELIABLE delivery and receipts over real RTPS/UDP.
 */
@Timeout(180)
class DdsTransportProcessIT {

    @Test
    void tenThousandReliableMessagesCrossProcessesLosslesslyAndAreReceipted() throws Exception {
        MessageType type = DdsTransportTest.reliableType(10);
        Set<String> receipted = ConcurrentHashMap.newKeySet();
        Set<NodeId> receivers = ConcurrentHashMap.newKeySet();
        try (DdsTransport alpha = new DdsTransport(NodeId.of("alpha"), DdsTransportTest.CATALOGUE, Set.of(),
                TestNetwork.transport().build())) {
            alpha.onReceipts((receiver, ids) -> {
                receivers.add(receiver);
                receipted.addAll(ids);
            });
            alpha.open();
            long peerStart = System.nanoTime();
            Process peer = startPeer("bravo");
            PeerOutput output = PeerOutput.follow(peer);
            try {
                DdsTransportTest.await(() -> !output.readyLine().isEmpty(), "the peer to subscribe");
                long subscribed = System.nanoTime();
                DdsTransportTest.await(() -> alpha.stats().matchedReaders().values().stream().allMatch(n -> n >= 1),
                        "every writer to match the peer's readers");
                Duration matched = Duration.ofNanos(System.nanoTime() - subscribed);
                Duration sincePeerStart = Duration.ofNanos(System.nanoTime() - peerStart);
                long sendStart = System.nanoTime();
                List<String> ids = DdsTransportTest.sendMany(alpha, type, "p", 10_000, 200);
                Duration sent = Duration.ofNanos(System.nanoTime() - sendStart);
                DdsTransportTest.await(() -> receipted.size() == ids.size(), "receipts for every message");
                Duration roundTrip = Duration.ofNanos(System.nanoTime() - sendStart);
                DdsTransportTest.await(() -> output.lastLine().startsWith("RECEIVED 10000 "), "the peer's count");
                System.out.printf("DDS two processes: peer JVM started, opened 270 topics+writers in %s ms, "
                        + "subscribed; all %d writers here matched %d ms after that (%d ms after the peer JVM "
                        + "started); 10000 messages sent in %d ms, all receipted after %d ms; peer: %s%n",
                        output.readyLine().substring("READY ".length()), alpha.stats().matchedReaders().size(),
                        matched.toMillis(), sincePeerStart.toMillis(), sent.toMillis(), roundTrip.toMillis(),
                        output.lastLine());
                assertThat(output.lastLine()).isEqualTo("RECEIVED 10000 10000");
                assertThat(receipted).containsAll(ids);
                assertThat(receivers).containsExactly(NodeId.of("bravo"));
                assertThat(alpha.stats().samplesWritten()).isEqualTo(10_000);
            }
            finally {
                peer.getOutputStream().close();
                if (!peer.waitFor(30, TimeUnit.SECONDS)) {
                    peer.destroyForcibly();
                }
            }
            assertThat(peer.exitValue()).isZero();
        }
    }

    private static Process startPeer(String node) throws java.io.IOException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        return new ProcessBuilder(java, "--enable-native-access=ALL-UNNAMED", "-cp",
                System.getProperty("java.class.path"), PeerMain.class.getName(),
                Integer.toString(TestNetwork.domainId()), node)
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
    }
}
