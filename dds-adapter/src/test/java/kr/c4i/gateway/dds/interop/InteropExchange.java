package kr.c4i.gateway.dds.interop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.OptionalInt;
import java.util.Set;
import java.util.stream.IntStream;

import kr.c4i.gateway.dds.DataReader;
import kr.c4i.gateway.dds.DataWriter;
import kr.c4i.gateway.dds.DomainParticipant;
import kr.c4i.gateway.dds.Qos;
import kr.c4i.gateway.dds.TestNetwork;
import kr.c4i.gateway.dds.Topic;
import kr.c4i.gateway.dds.interop.InteropSamples.PeerLine;
import kr.c4i.gateway.dds.transport.KmtfTypes;
import kr.c4i.gateway.dds.transport.KmtfTypes.KmtfMessageSample;

/**
 * The two exchanges every peer is tested with, over real RTPS/UDP on 127.0.0.1: the Java side (the project's own
 * DDS API on Cyclone through FFM) publishes and the peer subscribes, or the other way round. Both sides wait until
 * each has matched the other before the first sample, so BEST_EFFORT loss is loss on the wire, not discovery.
 */
final class InteropExchange {

    /** Samples per exchange. */
    static final int COUNT = 200;
    /** BEST_EFFORT on loopback must deliver at least this many, each at most once. */
    static final int BEST_EFFORT_MINIMUM = COUNT * 9 / 10;
    static final String JAVA_ORIGIN = "java";
    static final Duration MATCH_TIMEOUT = Duration.ofSeconds(15);
    /** The peer's own limit: it exits by itself after this, even if this JVM is gone. */
    static final Duration PEER_TIMEOUT = Duration.ofSeconds(30);

    private InteropExchange() {
    }

    /** Java writes {@link #COUNT} samples; what the peer printed is checked against the reliability's promise. */
    static void javaPublishesAndPeerReceives(InteropPeer peer, boolean reliable) throws Exception {
        String topicName = topicName(peer, reliable, "java-to-peer");
        peer.executable();
        long start = System.nanoTime();
        try (DomainParticipant participant = DomainParticipant.create(TestNetwork.loopback());
                PeerProcess sub = PeerProcess.start(peer, "sub", topicName, reliable, COUNT, PEER_TIMEOUT,
                        participant.domainId())) {
            Topic<KmtfMessageSample> topic = participant.createTopic(topicName, KmtfTypes.MESSAGE);
            DataWriter<KmtfMessageSample> writer = participant.createWriter(topic, qos(reliable));
            sub.awaitLine("MATCHED", MATCH_TIMEOUT);
            assertThat(writer.awaitMatched(1, MATCH_TIMEOUT)).as("Java writer matched the " + peer).isTrue();
            long matched = System.nanoTime();
            for (int i = 1; i <= COUNT; i++) {
                writer.write(InteropSamples.sample(JAVA_ORIGIN, i));
            }
            OptionalInt exit = reliable ? OptionalInt.of(sub.awaitExit(PEER_TIMEOUT))
                    : sub.awaitExitOrQuiet(Duration.ofSeconds(1), PEER_TIMEOUT);
            List<PeerLine> received = sub.lines("SAMPLE").stream().map(PeerLine::parse).toList();
            report(peer, reliable, "Java -> peer", received.size(), start, matched);
            if (reliable) {
                assertThat(exit).as("exit code of the %s; %s", peer, sub.report()).hasValue(0);
                assertThat(sub.lines()).as("last line of the %s", peer).last().isEqualTo("DONE\t" + COUNT);
                assertThat(received).as("samples the %s received", peer).hasSize(COUNT);
                for (int i = 1; i <= COUNT; i++) {
                    assertThat(received.get(i - 1)).as("sample %d as the %s received it", i, peer)
                            .isEqualTo(PeerLine.of(InteropSamples.sample(JAVA_ORIGIN, i)));
                }
            }
            else {
                // Stopped after a quiet second when it missed samples; otherwise it must have ended normally.
                if (exit.isPresent()) {
                    assertThat(exit.getAsInt()).as("exit code of the %s; %s", peer, sub.report()).isZero();
                }
                checkBestEffort(peer, received.stream().map(line -> {
                    int i = Math.toIntExact(line.seq());
                    assertThat(i).as("seq of %s", line).isBetween(1, COUNT);
                    assertThat(line).as("sample %d as the %s received it", i, peer)
                            .isEqualTo(PeerLine.of(InteropSamples.sample(JAVA_ORIGIN, i)));
                    return i;
                }).toList());
            }
        }
    }

    /** The peer writes {@link #COUNT} samples; the Java side takes them and checks each against its formula. */
    static void peerPublishesAndJavaReceives(InteropPeer peer, boolean reliable) throws Exception {
        String topicName = topicName(peer, reliable, "peer-to-java");
        peer.executable();
        long start = System.nanoTime();
        try (DomainParticipant participant = DomainParticipant.create(TestNetwork.loopback())) {
            Topic<KmtfMessageSample> topic = participant.createTopic(topicName, KmtfTypes.MESSAGE);
            DataReader<KmtfMessageSample> reader = participant.createReader(topic, qos(reliable));
            try (PeerProcess pub = PeerProcess.start(peer, "pub", topicName, reliable, COUNT, PEER_TIMEOUT,
                    participant.domainId())) {
                pub.awaitLine("MATCHED", MATCH_TIMEOUT);
                awaitReaderMatched(reader, peer);
                long matched = System.nanoTime();
                pub.send("GO");
                List<KmtfMessageSample> received = new ArrayList<>();
                long[] exitSeen = {Long.MAX_VALUE};
                await("the " + peer + "'s samples").atMost(PEER_TIMEOUT).pollInSameThread()
                        .pollInterval(Duration.ofMillis(2)).until(() -> {
                            int before = received.size();
                            received.addAll(reader.take(256));
                            if (received.size() >= COUNT || pub.isAlive()) {
                                return received.size() >= COUNT;
                            }
                            // Whatever was on the wire has arrived 500 ms after the writer left.
                            exitSeen[0] = Math.min(exitSeen[0], System.nanoTime());
                            return received.size() == before && System.nanoTime() - exitSeen[0] > 500_000_000L;
                        });
                int exit = pub.awaitExit(PEER_TIMEOUT);
                report(peer, reliable, "peer -> Java", received.size(), start, matched);
                assertThat(exit).as("exit code of the %s; %s", peer, pub.report()).isZero();
                assertThat(pub.lines()).as("output of the %s", peer)
                        .contains(reliable ? "ACKED" : "WRITTEN\t" + COUNT).last().isEqualTo("DONE\t" + COUNT);
                assertThat(reader.status().undecodable()).as("samples the Java reader could not decode").isZero();
                if (reliable) {
                    assertThat(received).as("samples the Java side received").hasSize(COUNT);
                    for (int i = 1; i <= COUNT; i++) {
                        assertSame(received.get(i - 1), InteropSamples.sample(peer.origin(), i), i);
                    }
                }
                else {
                    checkBestEffort(peer, received.stream().map(sample -> {
                        int i = Math.toIntExact(sample.seq());
                        assertThat(i).as("seq of %s", PeerLine.of(sample)).isBetween(1, COUNT);
                        assertSame(sample, InteropSamples.sample(peer.origin(), i), i);
                        return i;
                    }).toList());
                }
            }
        }
    }

    private static void assertSame(KmtfMessageSample actual, KmtfMessageSample expected, int i) {
        assertThat(actual).as("sample %d as the Java side received it", i).usingRecursiveComparison()
                .isEqualTo(expected);
    }

    /** At least 90 %, none twice, in the order written. */
    private static void checkBestEffort(InteropPeer peer, List<Integer> sequence) {
        Set<Integer> distinct = new HashSet<>(sequence);
        assertThat(distinct).as("duplicates among the %d samples received", sequence.size()).hasSameSizeAs(sequence);
        assertThat(sequence).as("order of the samples received").isSorted();
        List<Integer> missing = IntStream.rangeClosed(1, COUNT).filter(i -> !distinct.contains(i)).boxed().toList();
        if (!missing.isEmpty()) {
            System.out.printf("interop: BEST_EFFORT with the %s lost %d of %d: %s%n", peer, missing.size(), COUNT,
                    missing);
        }
        assertThat(sequence.size()).as("BEST_EFFORT samples received of %d (with the %s), missing %s", COUNT, peer,
                missing).isGreaterThanOrEqualTo(BEST_EFFORT_MINIMUM);
    }

    private static void awaitReaderMatched(DataReader<?> reader, InteropPeer peer) {
        await("the Java reader to match the " + peer + "'s writer").atMost(MATCH_TIMEOUT)
                .pollInterval(Duration.ofMillis(5)).until(() -> reader.status().matchedWriters() >= 1);
    }

    static Qos qos(boolean reliable) {
        // RELIABLE KEEP_ALL as the transport uses it; BEST_EFFORT keeps all COUNT so nothing is overwritten
        // before it is taken, and only the wire can lose samples.
        return reliable ? Qos.reliable() : Qos.bestEffort(COUNT);
    }

    private static String topicName(InteropPeer peer, boolean reliable, String direction) {
        // Cyclone 0.10 accepts only letters, digits, '_' and '/' in topic names (no '-').
        return ("kmtf/interop/" + peer.origin() + "/" + (reliable ? "reliable" : "best_effort") + "/" + direction)
                .replace('-', '_');
    }

    private static void report(InteropPeer peer, boolean reliable, String direction, int received, long start,
            long matched) {
        long now = System.nanoTime();
        System.out.printf("interop: %s %s %s: %d/%d samples, matched after %d ms, exchange %d ms%n", peer,
                reliable ? "RELIABLE" : "BEST_EFFORT", direction, received, COUNT, (matched - start) / 1_000_000,
                (now - matched) / 1_000_000);
    }
}
