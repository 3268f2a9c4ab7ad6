package kr.c4i.gateway.dds.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import kr.c4i.gateway.core.NodeId;
import kr.c4i.gateway.dds.TestNetwork;
import kr.c4i.gateway.kmtf.catalogue.MessageType;

/**
 * Three nodes in three JVMs on loopback (no loss): the sender here, two {@link PeerMain} receivers of one
 * BEST_EFFORT type with the catalogue's smallest history (1). Bursts of 1,000 messages of that type, as one
 * INSERT of 1,000 outbox rows gives the bridge, reach each receiver whole, or every one missing is counted.
 */
@Timeout(240)
class BestEffortBurstProcessIT {

    private static final int BURSTS = 3;
    private static final int BURST = 1_000;

    @Test
    void burstsOfOneThousandBestEffortMessagesArriveOrAreCountedAtEachOfTwoReceivers() throws Exception {
        MessageType type = DdsTransportTest.bestEffortType(1);
        List<NodeId> receivers = List.of(NodeId.of("bravo"), NodeId.of("charlie"));
        List<Process> peers = new ArrayList<>();
        try (DdsTransport alpha = new DdsTransport(NodeId.of("alpha"), DdsTransportTest.CATALOGUE, Set.of(),
                TestNetwork.transport().build())) {
            alpha.open();
            List<PeerOutput> outputs = new ArrayList<>();
            for (NodeId receiver : receivers) {
                Process peer = startPeer(receiver.value(), type.id());
                peers.add(peer);
                outputs.add(PeerOutput.follow(peer));
            }
            for (PeerOutput output : outputs) {
                DdsTransportTest.await(() -> !output.readyLine().isEmpty(), "the peers to subscribe");
            }
            assertThat(alpha.awaitRemoteReaders(Map.of(type.id(), receivers.size()), Duration.ofSeconds(30)))
                    .as("routes unmatched after 30 s").isEmpty();
            int sent = 0;
            for (int burst = 0; burst < BURSTS; burst++) {
                sent += DdsTransportTest.sendMany(alpha, type, "burst" + burst, BURST, 500, receivers).size();
                int expected = sent;
                for (PeerOutput output : outputs) {
                    DdsTransportTest.await(() -> received(output)[0] + received(output)[2] >= expected,
                            "burst " + expected / BURST + " delivered or counted");
                }
            }
            // Each peer has accounted for every sample; a duplicate or a straggler would now show within a moment.
            int total = sent;
            await("no more deliveries than samples sent").during(Duration.ofMillis(200)).atMost(Duration.ofSeconds(5))
                    .until(() -> outputs.stream().map(BestEffortBurstProcessIT::received)
                            .allMatch(c -> c[1] == c[0] && c[0] + c[2] == total));
            for (int i = 0; i < receivers.size(); i++) {
                long[] counts = received(outputs.get(i));
                System.out.printf("BEST_EFFORT bursts over loopback, %s: %d of %d delivered, %d counted dropped%n",
                        receivers.get(i), counts[0], sent, counts[2]);
                assertThat(counts[1]).as("deliveries at %s, duplicates included", receivers.get(i))
                        .isEqualTo(counts[0]);
                assertThat(counts[0] + counts[2]).as("delivered + counted drops at %s", receivers.get(i))
                        .isEqualTo(sent);
            }
            assertThat(alpha.stats().droppedUnmatched()).isZero();
        }
        finally {
            for (Process peer : peers) {
                peer.getOutputStream().close();
                if (!peer.waitFor(30, TimeUnit.SECONDS)) {
                    peer.destroyForcibly();
                }
            }
        }
    }

    /** Distinct, total and dropped from the peer's last {@code RECEIVED} line. */
    private static long[] received(PeerOutput output) {
        String line = output.lastLine();
        if (!line.startsWith("RECEIVED ")) {
            return new long[3];
        }
        String[] parts = line.split(" ");
        return new long[] { Long.parseLong(parts[1]), Long.parseLong(parts[2]), Long.parseLong(parts[3]) };
    }

    private static Process startPeer(String node, String type) throws IOException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        return new ProcessBuilder(java, "--enable-native-access=ALL-UNNAMED", "-cp",
                System.getProperty("java.class.path"), PeerMain.class.getName(),
                Integer.toString(TestNetwork.domainId()), node, type)
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
    }
}
