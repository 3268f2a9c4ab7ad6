package kr.c4i.gateway.dds.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import kr.c4i.gateway.core.NodeId;
import kr.c4i.gateway.core.transport.TransportBusyException;
import kr.c4i.gateway.dds.TestNetwork;
import kr.c4i.gateway.kmtf.catalogue.MessageType;

/**
 * A receiver killed without leaving (SIGKILL) stays matched until the lease it announced runs out, and a RELIABLE
 * (KEEP_ALL) writer that reaches it stops once its window is full of data the dead reader never acknowledges. So
 * the node lease ({@link DdsTransportSettings#DEFAULT_NODE_LEASE}, shorter than Cyclone's 10 s) bounds how long a
 * crashed node holds back every other node's sending, and what a restarted node gets before its old readers go.
 */
@Timeout(180)
class KilledReceiverProcessIT {

    /** More than Cyclone's largest writer window (500 kB) in envelopes of about 150 bytes. */
    private static final int BURST = 20_000;
    /** Shorter than Cyclone's lease of 10 s and longer than the short one below, with room either side. */
    private static final Duration WRITE_TIMEOUT = Duration.ofSeconds(5);

    private final MessageType type = DdsTransportTest.reliableType(10);

    @Test
    void aReceiverKilledWithCyclonesLeaseHoldsTheWriterPastTheWriteTimeout() throws Exception {
        try (DdsTransport alpha = sender()) {
            killMatchedPeer(alpha, null);
            assertThatThrownBy(() -> DdsTransportTest.sendMany(alpha, this.type, "held", BURST, 500))
                    .as("the dead reader's 10 s keep the full window from draining for the whole write timeout")
                    .isInstanceOf(TransportBusyException.class).hasMessageContaining("stayed full");
        }
    }

    @Test
    void aReceiverKilledWithTheNodeLeaseLetsTheWriterGoOnWithinTheWriteTimeout() throws Exception {
        try (DdsTransport alpha = sender()) {
            killMatchedPeer(alpha, Duration.parse("PT" + DdsTransportSettings.DEFAULT_NODE_LEASE));
            DdsTransportTest.sendMany(alpha, this.type, "freed", BURST, 500);
            assertThat(alpha.stats().matchedReaders().get(this.type.topicName())).as("the dead reader is gone")
                    .isZero();
            assertThat(alpha.stats().samplesWritten()).isEqualTo(BURST);
        }
    }

    private DdsTransport sender() throws Exception {
        DdsTransport alpha = new DdsTransport(NodeId.of("alpha"), DdsTransportTest.CATALOGUE, Set.of(),
                TestNetwork.transport().writeTimeout(WRITE_TIMEOUT).build());
        alpha.open();
        return alpha;
    }

    /** Starts a receiver announcing {@code lease} (Cyclone's own when null), awaits its match and kills it. */
    private void killMatchedPeer(DdsTransport alpha, @Nullable Duration lease) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> command = new ArrayList<>(List.of(java, "--enable-native-access=ALL-UNNAMED"));
        if (lease != null) {
            command.add("-D" + PeerMain.LEASE + "=" + lease);
        }
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), PeerMain.class.getName(),
                Integer.toString(TestNetwork.domainId()), "bravo", this.type.id()));
        Process peer = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        try {
            PeerOutput output = PeerOutput.follow(peer);
            DdsTransportTest.await(() -> !output.readyLine().isEmpty(), "the peer to subscribe");
            DdsTransportTest.awaitMatched(alpha, this.type, 1);
        }
        finally {
            peer.destroyForcibly();
            assertThat(peer.waitFor(30, TimeUnit.SECONDS)).as("the peer killed").isTrue();
        }
    }
}
