package kr.c4i.gateway.dds.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import kr.c4i.gateway.core.NodeId;
import kr.c4i.gateway.core.transport.Outbound;
import kr.c4i.gateway.dds.DataWriter;
import kr.c4i.gateway.dds.DomainParticipant;
import kr.c4i.gateway.dds.TestNetwork;
import kr.c4i.gateway.dds.Topic;
import kr.c4i.gateway.dds.transport.KmtfTypes.KmtfMessageSample;
import kr.c4i.gateway.kmtf.catalogue.MessageType;
import kr.c4i.gateway.kmtf.catalogue.Precedence;
import kr.c4i.gateway.kmtf.catalogue.Reliability;

/**
 * Write batching across two processes ({@link PeerMain} receives and receipts, with the transport's defaults, so
 * its receipts are batched too). Cyclone never flushes a batching writer by itself: these tests show that a
 * batched sample stays in the writer until {@code flush}, and that the transport's {@code send} and receipts leave
 * nothing behind for a later write to push out.
 */
@Timeout(180)
class WriteBatchProcessIT {

    private static final Duration HELD = Duration.ofMillis(1500);

    private static Process peer;
    private static PeerOutput output;

    @BeforeAll
    static void startPeer() throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        peer = new ProcessBuilder(java, "--enable-native-access=ALL-UNNAMED", "-Xmx128m", "-cp",
                System.getProperty("java.class.path"), PeerMain.class.getName(),
                Integer.toString(TestNetwork.domainId()), "bravo")
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        output = PeerOutput.follow(peer);
        DdsTransportTest.await(() -> !output.readyLine().isEmpty(), "the peer to subscribe");
    }

    @AfterAll
    static void stopPeer() throws Exception {
        if (peer == null) {
            return;
        }
        peer.getOutputStream().close();
        if (!peer.waitFor(30, TimeUnit.SECONDS)) {
            peer.destroyForcibly();
            peer.waitFor(10, TimeUnit.SECONDS);
        }
        assertThat(peer.exitValue()).isZero();
    }

    /** Distinct message ids the peer received so far. */
    private static long peerReceived() {
        String line = output.lastLine();
        return line.startsWith("RECEIVED ") ? Long.parseLong(line.split(" ")[1]) : 0;
    }

    @Test
    void aBatchedSampleWaitsInItsWriterUntilFlushed() throws Exception {
        MessageType type = DdsTransportTest.reliableType(10);
        try (DomainParticipant participant = DomainParticipant.create(TestNetwork.loopback().toBuilder().writeBatch(true).build())) {
            Topic<KmtfMessageSample> topic = participant.createTopic(type.topicName(), KmtfTypes.MESSAGE);
            DataWriter<KmtfMessageSample> writer = participant.createWriter(topic,
                    TopicQos.writer(type, Duration.ofSeconds(10)));
            assertThat(writer.awaitMatched(1, Duration.ofSeconds(30))).isTrue();
            long before = peerReceived();
            for (int i = 0; i < 5; i++) {
                writer.write(new KmtfMessageSample("held-" + i, "alpha", type.id(), Precedence.ROUTINE,
                        "UNCLASSIFIED", EnvelopeMapper.epochNanos(Instant.now()), i + 1, System.nanoTime(),
                        ("MSGID/" + type.id() + "/" + i + "//").getBytes(StandardCharsets.UTF_8)));
            }
            // Cyclone may send the first sample after matching at once (with a heartbeat); the rest must wait, all of
            // HELD: the window is what is measured, so it is held whole, not waited out.
            await("fewer than 4 of 5 samples at the peer for " + HELD + " before flush").during(HELD)
                    .atMost(HELD.plusSeconds(5)).until(() -> peerReceived() - before < 4);
            long early = peerReceived() - before;
            long flushed = System.nanoTime();
            writer.flush();
            DdsTransportTest.await(() -> peerReceived() - before == 5, "the 5 samples after flush");
            System.out.printf("Write batching: %d of 5 samples still in the writer %d ms after the writes; after "
                    + "flush all arrived in %.1f ms%n", 5 - early, HELD.toMillis(),
                    (System.nanoTime() - flushed) / 1e6);
        }
    }

    @Test
    void sendFlushesSoTheLastMessagesOfABurstArriveAndAreReceiptedWithoutALaterWrite() throws Exception {
        List<MessageType> types = DdsTransportTest.CATALOGUE.types().stream()
                .filter(t -> t.reliability() == Reliability.RELIABLE).limit(3).toList();
        Set<String> receipted = ConcurrentHashMap.newKeySet();
        try (DdsTransport alpha = new DdsTransport(NodeId.of("alpha"), DdsTransportTest.CATALOGUE, Set.of(),
                TestNetwork.transport().build())) {
            alpha.onReceipts((receiver, ids) -> receipted.addAll(ids));
            alpha.open();
            for (MessageType type : types) {
                DdsTransportTest.awaitMatched(alpha, type, 1);
            }
            long before = peerReceived();
            // A burst over three writers, 2 000 messages (whole datagrams go out by themselves), then a lone
            // message: whatever the last datagram of each writer holds must leave before send returns.
            List<String> ids = new ArrayList<>();
            List<Outbound> burst = new ArrayList<>();
            for (int i = 0; i < 2000; i++) {
                MessageType type = types.get(i % types.size());
                String id = "burst-" + i;
                ids.add(id);
                burst.add(DdsTransportTest.outbound(type, id, "MSGID/" + type.id() + "/" + i + "//"));
                if (burst.size() == 250) {
                    alpha.send(burst);
                    burst.clear();
                }
            }
            long lastSend = System.nanoTime();
            alpha.send(List.of(DdsTransportTest.outbound(types.getFirst(), "lone", "MSGID/LONE//")));
            ids.add("lone");
            DdsTransportTest.await(() -> peerReceived() - before == ids.size(), "every message of the burst");
            double arrived = (System.nanoTime() - lastSend) / 1e6;
            DdsTransportTest.await(() -> receipted.containsAll(ids), "receipts for every message");
            System.out.printf("Write batching: %d messages in 9 sends over %d topics all at the peer %.1f ms after "
                    + "the last send, all receipted %.1f ms after it%n", ids.size(), types.size(), arrived,
                    (System.nanoTime() - lastSend) / 1e6);
            assertThat(alpha.stats().samplesWritten()).isEqualTo(ids.size());
        }
    }
}
