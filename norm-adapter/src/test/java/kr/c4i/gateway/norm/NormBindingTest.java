package kr.c4i.gateway.norm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import kr.c4i.gateway.ports.LoopbackPorts;

/**
 * The binding against Debian's libnorm 1.5.9 on loopback: two instances, each with a receive session on its own
 * port and a send-only session to the other's, as the norm link uses them.
 */
@Timeout(120)
class NormBindingTest {

    private static final Duration WAIT = Duration.ofSeconds(30);

    @Test
    void objectsCrossALinkThatLosesAThirdOfItsPacketsWholeAndAreAcknowledged() throws Exception {
        try (Pair pair = new Pair(2_000_000, 4096)) {
            // Of 150 objects (some of several segments) at 30% loss, none would arrive whole without repair by
            // chance: every one arriving intact is NORM's repair at work.
            pair.sender.setTxLoss(30);
            List<byte[]> sent = objects(new Random(7), 150, 4000);
            long last = 0;
            for (byte[] object : sent) {
                last = pair.sender.enqueue(object);
            }
            assertThat(pair.sender.setWatermark(last)).isTrue();
            await().atMost(WAIT).until(() -> pair.received.size() >= sent.size());
            assertThat(hex(pair.received)).containsExactlyInAnyOrderElementsOf(hex(sent));
            await().atMost(WAIT).until(() -> pair.watermarks.contains(NormSession.AckingStatus.SUCCESS));
            assertThat(pair.senders).containsOnly(Pair.SENDER_NODE);
        }
    }

    /**
     * The multicast link takes a lost peer off the acking list so its watermark waits for the others only: a node
     * that never answers, once removed, no longer makes the watermark fail for everyone (NORM_NODE_ANY), and the
     * object's NORM info comes back as sent.
     */
    @Test
    void aRemovedAckingNodeNoLongerHoldsUpTheWatermarkAndInfoComesBackAsSent() throws Exception {
        try (Pair pair = new Pair(2_000_000, 64)) {
            int silent = 33;
            pair.sender.addAckingNode(silent);
            pair.sender.removeAckingNode(silent);
            long object = pair.sender.enqueue(new byte[] {1, 2, 3}, new byte[] {'f', 0, 0, 0, 22});
            assertThat(pair.sender.setWatermark(object)).isTrue();
            await().atMost(WAIT).until(() -> !pair.overall.isEmpty());
            assertThat(pair.overall).containsExactly(NormSession.AckingStatus.SUCCESS);
            assertThat(pair.infoBytes).containsExactly(HexFormat.of().formatHex(new byte[] {'f', 0, 0, 0, 22}));
        }
    }

    @Test
    void theSenderFreesWhatNormPurgedAndCloseFreesTheRest() throws Exception {
        try (Pair pair = new Pair(10_000_000, 16)) {
            for (byte[] object : objects(new Random(3), 64, 1400)) {
                // NORM refuses an object while every one it holds still waits to be sent.
                await().atMost(WAIT).ignoreException(NormException.QueueFull.class)
                        .until(() -> pair.sender.enqueue(object) != 0);
            }
            await().atMost(WAIT).until(() -> pair.received.size() == 64);
            // NORM keeps at most 16 objects for repair; the buffers of the rest went back when it purged them.
            await().atMost(WAIT).until(() -> pair.sender.objectsHeld() <= 16);
            assertThat(pair.sender.objectsHeld()).isPositive();
            assertThat(pair.sender.grttEstimate()).isPositive();
            pair.sender.close();
            assertThat(pair.sender.objectsHeld()).isZero();
            // Other threads read the estimate (the gateway's credit): a destroyed session is never asked.
            assertThat(pair.sender.grttEstimate()).isZero();
        }
    }

    @Test
    void aCancelledObjectIsNeverDeliveredAndItsBufferIsFreedOnce() throws Exception {
        try (Pair pair = new Pair(100_000, 64)) {
            // At 100 kbit/s ten objects of 1,400 bytes take over a second: the one behind them is cancelled long
            // before its turn, however slowly this test runs.
            for (int i = 0; i < 10; i++) {
                pair.sender.enqueue(new byte[1400]);
            }
            long waiting = pair.sender.enqueue(new byte[] {7, 7, 7});
            assertThat(pair.sender.objectsHeld()).isEqualTo(11);
            assertThat(pair.sender.cancel(waiting)).isTrue();
            assertThat(pair.sender.cancel(waiting)).as("a second cancel finds nothing to free").isFalse();
            assertThat(pair.sender.objectsHeld()).isEqualTo(10);
            pair.sender.enqueue(new byte[] {9}, new byte[] {'i'});
            // A watermark over the cancelled object's place did not always complete here (NORM 1.5.9): the objects
            // around it are what the test waits for.
            await().atMost(WAIT).until(() -> pair.received.size() >= 11);
            assertThat(pair.received).extracting(object -> object.length).containsOnly(1400, 1).hasSize(11);
            assertThat(pair.infos).containsOnly(false, true).filteredOn(info -> info).hasSize(1);
        }
    }

    @Test
    void aRequeuedObjectGoesAgainBeforeTheNextAndIsDeliveredOnce() throws Exception {
        try (Pair pair = new Pair(100_000, 64)) {
            long first = pair.sender.enqueue(new byte[] {1, 2, 3});
            await().atMost(WAIT).until(() -> pair.received.size() == 1);
            pair.sender.setAutoParity(2);
            assertThat(pair.sender.requeue(first)).as("still held for repair").isTrue();
            pair.sender.setAutoParity(0);
            // NORM serves the lower object first: once the next one is in, the copies of the first went before it.
            pair.sender.enqueue(new byte[] {4});
            await().atMost(WAIT).until(() -> pair.received.size() >= 2);
            assertThat(pair.received).extracting(object -> object.length).containsExactly(3, 1);
            long cancelled = pair.sender.enqueue(new byte[] {5});
            assertThat(pair.sender.cancel(cancelled)).isTrue();
            assertThat(pair.sender.requeue(cancelled)).as("no longer held").isFalse();
        }
    }

    @Test
    void aFullTransmitCacheRefusesTheObjectWithQueueFull() throws Exception {
        try (Pair pair = new Pair(8_000, 4)) {
            assertThatThrownBy(() -> {
                for (int i = 0; i < 64; i++) {
                    pair.sender.enqueue(new byte[1400]);
                }
            }).isInstanceOf(NormException.QueueFull.class).hasMessageContaining("full");
            assertThat(pair.sender.objectsHeld()).isBetween(1, 4);
        }
    }

    @Test
    void openingAndClosingManyTimesLeavesNoDescriptorOrThreadBehind() throws Exception {
        cycle();
        long fds = count("/proc/self/fd");
        long threads = count("/proc/self/task");
        for (int i = 0; i < 25; i++) {
            cycle();
        }
        assertThat(count("/proc/self/fd")).as("open descriptors after 25 instances").isLessThanOrEqualTo(fds + 2);
        assertThat(count("/proc/self/task")).as("threads after 25 instances").isLessThanOrEqualTo(threads + 2);
    }

    @Test
    void aLibraryThatIsNotThereIsNamedWithTheDebianPackage() {
        assertThatThrownBy(() -> NormInstance.create("libnorm-missing.so.9"))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("libnorm-missing.so.9")
                .hasMessageContaining("libnorm1");
    }

    @Test
    void settingsThatNormWouldMisreadAreRefused() throws IOException {
        try (NormInstance instance = NormInstance.create(null)) {
            assertThatThrownBy(() -> instance.createSession("127.0.0.1", 0, 5))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("port 0");
            assertThatThrownBy(() -> instance.createSession("127.0.0.1", 7000, -1))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("reserved");
            NormSession session = instance.createSession("127.0.0.1", LoopbackPorts.freeUdp(), 5);
            assertThatThrownBy(() -> session.enqueue(new byte[0])).isInstanceOf(IllegalArgumentException.class);
            // NORM takes an unsigned short and orders object ids within half their range: 40,000 would wrap.
            assertThatThrownBy(() -> session.setRxCacheLimit(40_000)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("40000");
            assertThatThrownBy(() -> session.setRxCacheLimit(0)).isInstanceOf(IllegalArgumentException.class);
            session.setRxCacheLimit(NormSession.RX_CACHE_LIMIT_MAX);
        }
    }

    private static void cycle() throws Exception {
        try (Pair pair = new Pair(10_000_000, 64)) {
            pair.sender.enqueue(new byte[500]);
            await().atMost(WAIT).until(() -> pair.received.size() == 1);
        }
    }

    private static long count(String dir) throws IOException {
        try (Stream<Path> entries = Files.list(Path.of(dir))) {
            return entries.count();
        }
    }

    static List<byte[]> objects(Random random, int count, int maxBytes) {
        List<byte[]> objects = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            byte[] object = new byte[1 + random.nextInt(maxBytes)];
            random.nextBytes(object);
            objects.add(object);
        }
        return objects;
    }

    static List<String> hex(List<byte[]> frames) {
        return frames.stream().map(HexFormat.of()::formatHex).toList();
    }

    /** A sender instance with a send-only session, a receiver instance with a receive session, each its thread. */
    static final class Pair implements AutoCloseable {

        static final int SENDER_NODE = 11;
        static final int RECEIVER_NODE = 22;

        final NormInstance sending = NormInstance.create(null);
        final NormInstance receiving = NormInstance.create(null);
        final NormSession sender;
        final NormSession receiver;
        final List<byte[]> received = new CopyOnWriteArrayList<>();
        final List<Boolean> infos = new CopyOnWriteArrayList<>();
        final List<NormSession.AckingStatus> watermarks = new CopyOnWriteArrayList<>();
        /** Each completed watermark's status over every acking node (NORM_NODE_ANY). */
        final List<NormSession.AckingStatus> overall = new CopyOnWriteArrayList<>();
        final List<String> infoBytes = new CopyOnWriteArrayList<>();
        final java.util.Set<Integer> senders = ConcurrentHashMap.newKeySet();
        private final Thread sendEvents;
        private final Thread receiveEvents;

        Pair(double rate, int cacheCount) throws IOException {
            int port = LoopbackPorts.freeUdp();
            this.receiver = this.receiving.createSession("127.0.0.1", port, RECEIVER_NODE);
            this.receiver.bindTo("127.0.0.1", null);
            this.receiver.setUnicastNacks(true);
            this.receiver.setSyncPolicy(NormSession.SyncPolicy.ALL);
            this.receiver.setBackoffFactor(0);
            this.receiver.startReceiver(1 << 20);
            this.sender = this.sending.createSession("127.0.0.1", port, SENDER_NODE);
            this.sender.setTxOnly();
            this.sender.setCongestionControl(false);
            this.sender.setTxRate(rate);
            this.sender.setGrttEstimate(0.02);
            this.sender.setBackoffFactor(0);
            this.sender.setAutoParity(0);
            this.sender.setTxCacheBounds(1 << 20, Math.min(cacheCount, 8), cacheCount);
            this.sender.addAckingNode(RECEIVER_NODE);
            this.sender.startSender(new Random().nextInt(1 << 16), 1 << 20, 1400, 64, 32);
            this.sendEvents = Thread.ofPlatform().daemon().start(() -> {
                NormEvent event;
                while ((event = this.sending.nextEvent()) != null) {
                    if (event.type() == NormEventType.TX_WATERMARK_COMPLETED) {
                        this.watermarks.add(this.sender.ackingStatus(RECEIVER_NODE));
                        this.overall.add(this.sender.ackingStatus(-1));
                    }
                }
            });
            this.receiveEvents = Thread.ofPlatform().daemon().start(() -> {
                NormEvent event;
                while ((event = this.receiving.nextEvent()) != null) {
                    if (event.type() == NormEventType.RX_OBJECT_COMPLETED) {
                        this.senders.add(event.senderNodeId());
                        this.infos.add(event.hasInfo());
                        if (event.hasInfo()) {
                            this.infoBytes.add(HexFormat.of().formatHex(event.info()));
                        }
                        this.received.add(event.data());
                    }
                }
            });
        }

        @Override
        public void close() throws InterruptedException {
            this.sending.stop();
            this.receiving.stop();
            this.sendEvents.join();
            this.receiveEvents.join();
            this.sending.close();
            this.receiving.close();
        }
    }
}
