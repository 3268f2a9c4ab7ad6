package kr.c4i.gateway.dds.link;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import kr.c4i.gateway.core.link.FrameHandler;
import kr.c4i.gateway.core.link.LinkState;
import kr.c4i.gateway.core.link.ReceivedFrame;
import kr.c4i.gateway.core.link.SiteId;
import kr.c4i.gateway.core.transport.InvalidSettingsException;
import kr.c4i.gateway.core.transport.TransportException;
import kr.c4i.gateway.core.transport.TransportUnavailableException;
import kr.c4i.gateway.dds.TestNetwork;

/**
 * Two links in one JVM on one WAN domain (two participants, sites alpha and bravo), over Cyclone with unicast
 * discovery on loopback. {@link DdsWanLinkProcessIT} covers two processes, where frames cross UDP.
 */
@Timeout(120)
class DdsWanLinkTest {

    static final SiteId ALPHA = SiteId.of("alpha");
    static final SiteId BRAVO = SiteId.of("bravo");
    private static final Duration PEER_TIMEOUT = Duration.ofSeconds(2);
    private static final Duration WAIT = Duration.ofSeconds(20);
    /** About a second of a fast WAN link. */
    private static final long CREDIT = 128 * 1024;

    /** A WAN domain beside the one the LAN tests of this JVM use. */
    static int wanDomainId() {
        return 1 + (TestNetwork.domainId() + 100) % 200;
    }

    static DdsLinkSettings.Builder settings(SiteId site, SiteId peer) {
        return DdsLinkSettings.builder(wanDomainId(), site).peer(peer, "127.0.0.1").networkInterface("127.0.0.1")
                .peerTimeout(PEER_TIMEOUT);
    }

    @Test
    void framesCrossBothWaysInOrderExactlyAsSentAndAreAcknowledged() throws Exception {
        Recorder atAlpha = new Recorder();
        Recorder atBravo = new Recorder();
        try (DdsWanLink alpha = new DdsWanLink(settings(ALPHA, BRAVO).build());
                DdsWanLink bravo = new DdsWanLink(settings(BRAVO, ALPHA).build())) {
            alpha.open(atAlpha);
            bravo.open(atBravo);
            awaitState(alpha, BRAVO, LinkState.UP);
            awaitState(bravo, ALPHA, LinkState.UP);
            List<byte[]> toBravo = frames(new Random(1), 200, 3000);
            List<byte[]> toAlpha = frames(new Random(2), 200, 3000);
            for (int i = 0; i < toBravo.size(); i++) {
                sendWithinCredit(alpha, BRAVO, toBravo.get(i));
                sendWithinCredit(bravo, ALPHA, toAlpha.get(i));
            }
            await().atMost(WAIT).until(() -> atBravo.frames.size() == toBravo.size()
                    && atAlpha.frames.size() == toAlpha.size());
            assertThat(hex(atBravo.frames)).containsExactlyElementsOf(hex(toBravo));
            assertThat(hex(atAlpha.frames)).containsExactlyElementsOf(hex(toAlpha));
            assertThat(atBravo.senders).containsOnly(ALPHA);
            assertThat(atAlpha.senders).containsOnly(BRAVO);
            await().atMost(WAIT).until(() -> alpha.unacknowledgedBytes(BRAVO) == 0
                    && bravo.unacknowledgedBytes(ALPHA) == 0);
            assertThat(atAlpha.states).containsExactly(BRAVO + "=up");

            @SuppressWarnings("unchecked")
            Map<String, Object> peer = (Map<String, Object>) ((Map<String, Object>) alpha.details().get("peers"))
                    .get("bravo");
            long bytes = toBravo.stream().mapToLong(f -> f.length).sum();
            assertThat(peer).containsEntry("state", "up").containsEntry("framesSent", 200L)
                    .containsEntry("bytesSent", bytes).containsEntry("framesReceived", 200L)
                    .containsEntry("unacknowledgedBytes", 0L).containsEntry("framesLost", 0L);
            assertThat(alpha.details()).containsEntry("kind", "dds").containsEntry("framesIgnored", 0L);
        }
    }

    @Test
    void framesThatArriveWhileTheHandlerIsBusyAreHandedOverTogetherInOrder() throws Exception {
        HeldRecorder atBravo = new HeldRecorder();
        try (DdsWanLink alpha = new DdsWanLink(settings(ALPHA, BRAVO).build());
                DdsWanLink bravo = new DdsWanLink(settings(BRAVO, ALPHA).build())) {
            alpha.open(new Recorder());
            bravo.open(atBravo);
            awaitState(alpha, BRAVO, LinkState.UP);
            List<byte[]> sent = frames(new Random(4), 10, 500);
            alpha.send(BRAVO, sent.getFirst());
            assertThat(atBravo.entered.await(20, TimeUnit.SECONDS)).isTrue();
            // One domain in one JVM: Cyclone delivers to the reader within write, so all nine wait when it returns.
            for (byte[] frame : sent.subList(1, sent.size())) {
                alpha.send(BRAVO, frame);
            }
            atBravo.release.countDown();
            await().atMost(WAIT).until(() -> atBravo.frames.size() == sent.size());
            assertThat(hex(atBravo.frames)).containsExactlyElementsOf(hex(sent));
            assertThat(atBravo.calls).containsExactly(1, 9);
            await().atMost(WAIT).until(() -> alpha.unacknowledgedBytes(BRAVO) == 0);
        }
    }

    @Test
    void aFrameOfSixtyFourKibArrivesWhole() throws Exception {
        Recorder atBravo = new Recorder();
        try (DdsWanLink alpha = new DdsWanLink(settings(ALPHA, BRAVO).build());
                DdsWanLink bravo = new DdsWanLink(settings(BRAVO, ALPHA).build())) {
            alpha.open(new Recorder());
            bravo.open(atBravo);
            awaitState(alpha, BRAVO, LinkState.UP);
            byte[] frame = new byte[64 * 1024];
            new Random(3).nextBytes(frame);
            assertThat(alpha.maxFrameBytes()).isEqualTo(frame.length);
            alpha.send(BRAVO, frame);
            await().atMost(WAIT).until(() -> atBravo.frames.size() == 1);
            assertThat(atBravo.frames.getFirst()).isEqualTo(frame);
            await().atMost(WAIT).until(() -> alpha.unacknowledgedBytes(BRAVO) == 0);
        }
    }

    @Test
    void refusesUnknownPeersOversizeFramesAndSendsWhileNotUp() throws Exception {
        try (DdsWanLink alpha = new DdsWanLink(settings(ALPHA, BRAVO).maxFrameBytes(1000).build())) {
            assertThatThrownBy(() -> alpha.send(BRAVO, new byte[1])).isInstanceOf(TransportUnavailableException.class)
                    .hasMessageContaining("not open");
            alpha.open(new Recorder());
            SiteId zulu = SiteId.of("zulu");
            assertThatThrownBy(() -> alpha.send(zulu, new byte[1])).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("Unknown peer site zulu");
            assertThatThrownBy(() -> alpha.unacknowledgedBytes(zulu)).isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> alpha.state(zulu)).isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> alpha.send(BRAVO, new byte[1001])).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("exceeds maxFrameBytes (1000)");
            assertThat(alpha.state(BRAVO)).isEqualTo(LinkState.CONNECTING);
            assertThatThrownBy(() -> alpha.send(BRAVO, new byte[1]))
                    .isInstanceOf(TransportUnavailableException.class).hasMessageContaining("connecting");
            assertThat(alpha.unacknowledgedBytes(BRAVO)).isZero();
        }
    }

    @Test
    void aClosedPeerIsDownWithinTheTimeoutAndUpWhenReopened() throws Exception {
        Recorder atAlpha = new Recorder();
        try (DdsWanLink alpha = new DdsWanLink(settings(ALPHA, BRAVO).build())) {
            alpha.open(atAlpha);
            Recorder atBravo = new Recorder();
            try (DdsWanLink bravo = new DdsWanLink(settings(BRAVO, ALPHA).build())) {
                bravo.open(atBravo);
                awaitState(alpha, BRAVO, LinkState.UP);
                alpha.send(BRAVO, new byte[] {1});
                await().atMost(WAIT).until(() -> atBravo.frames.size() == 1);
            }
            await().atMost(PEER_TIMEOUT.plusSeconds(1)).until(() -> alpha.state(BRAVO) == LinkState.DOWN);
            assertThat(alpha.unacknowledgedBytes(BRAVO)).isZero();
            assertThatThrownBy(() -> alpha.send(BRAVO, new byte[1]))
                    .isInstanceOf(TransportUnavailableException.class).hasMessageContaining("down");

            Recorder again = new Recorder();
            try (DdsWanLink bravo = new DdsWanLink(settings(BRAVO, ALPHA).build())) {
                bravo.open(again);
                awaitState(alpha, BRAVO, LinkState.UP);
                alpha.send(BRAVO, new byte[] {2});
                await().atMost(WAIT).until(() -> again.frames.size() == 1);
                assertThat(again.frames.getFirst()).containsExactly(2);
            }
            await().atMost(PEER_TIMEOUT.plusSeconds(1)).until(() -> alpha.state(BRAVO) == LinkState.DOWN);
            assertThat(atAlpha.states).containsExactly("bravo=up", "bravo=down", "bravo=up", "bravo=down");
        }
    }

    @Test
    void framesLeftUnacknowledgedForThePeerTimeoutPutThePeerDownAndTheirBytesAreDropped() throws Exception {
        Recorder atAlpha = new Recorder();
        // A handler may block (storing durably); meanwhile nothing is acknowledged.
        HeldRecorder atBravo = new HeldRecorder();
        try (DdsWanLink alpha = new DdsWanLink(settings(ALPHA, BRAVO).build());
                DdsWanLink bravo = new DdsWanLink(settings(BRAVO, ALPHA).build())) {
            alpha.open(atAlpha);
            bravo.open(atBravo);
            awaitState(alpha, BRAVO, LinkState.UP);
            alpha.send(BRAVO, new byte[100]);
            alpha.send(BRAVO, new byte[50]);
            assertThat(alpha.unacknowledgedBytes(BRAVO)).isEqualTo(150);
            long sent = System.nanoTime();
            await().atMost(PEER_TIMEOUT.plusSeconds(2)).until(() -> alpha.state(BRAVO) == LinkState.DOWN);
            assertThat(Duration.ofNanos(System.nanoTime() - sent)).isGreaterThanOrEqualTo(PEER_TIMEOUT);
            assertThat(alpha.unacknowledgedBytes(BRAVO)).isZero();
            assertThat(alpha.details().toString()).contains("framesLost=2");

            atBravo.release.countDown();
            await().atMost(WAIT).until(() -> alpha.state(BRAVO) == LinkState.UP);
            await().atMost(WAIT).until(() -> atBravo.frames.size() == 2);
            assertThat(atAlpha.states).containsExactly("bravo=up", "bravo=down", "bravo=up");
            assertThat(alpha.unacknowledgedBytes(BRAVO)).isZero();
        }
    }

    @Test
    void aPeerThatDoesNotKeepUpMakesSendFailRetryablyAfterTheWriteTimeout() throws Exception {
        HeldRecorder atBravo = new HeldRecorder();
        try (DdsWanLink alpha = new DdsWanLink(settings(ALPHA, BRAVO).peerTimeout(Duration.ofSeconds(60))
                .maxQueuedFrames(4).build());
                DdsWanLink bravo = new DdsWanLink(settings(BRAVO, ALPHA).maxQueuedFrames(4).build())) {
            alpha.open(new Recorder());
            bravo.open(atBravo);
            awaitState(alpha, BRAVO, LinkState.UP);
            TransportUnavailableException refused = null;
            int accepted = 0;
            for (int i = 0; i < 100 && refused == null; i++) {
                try {
                    alpha.send(BRAVO, new byte[1000]);
                    accepted++;
                }
                catch (TransportUnavailableException ex) {
                    refused = ex;
                }
            }
            assertThat(refused).isNotNull().hasMessageContaining("does not keep up");
            assertThat(refused.retryable()).isTrue();
            assertThat(alpha.unacknowledgedBytes(BRAVO)).isEqualTo(accepted * 1000L);
            atBravo.release.countDown();
            int handedOver = accepted;
            await().atMost(WAIT).until(() -> atBravo.frames.size() == handedOver);
            await().atMost(WAIT).until(() -> alpha.unacknowledgedBytes(BRAVO) == 0);
        }
    }

    @Test
    void closeTwiceIsFineAndAClosedLinkRefusesWork() throws Exception {
        DdsWanLink alpha = new DdsWanLink(settings(ALPHA, BRAVO).build());
        alpha.open(new Recorder());
        alpha.close();
        alpha.close();
        assertThatThrownBy(() -> alpha.send(BRAVO, new byte[1])).isInstanceOf(TransportUnavailableException.class)
                .hasMessageContaining("closed");
        assertThatThrownBy(() -> alpha.open(new Recorder())).isInstanceOf(IllegalStateException.class);
        new DdsWanLink(settings(ALPHA, BRAVO).build()).close();
    }

    @Test
    void settingsNameEveryBadSetting() {
        assertThatThrownBy(() -> DdsLinkSettings.builder(-1, ALPHA).maxDatagramSize(100).maxFrameBytes(0)
                .peerTimeout(Duration.ZERO).lease(Duration.ofMillis(500)).writeTimeout(Duration.ofSeconds(-1))
                .maxQueuedFrames(0).build())
                .isInstanceOfSatisfying(InvalidSettingsException.class, ex -> assertThat(ex.problems())
                        .extracting(InvalidSettingsException.Problem::setting)
                        .containsExactly("domainId", "peers", "maxDatagramSize", "maxFrameBytes", "peerTimeout",
                                "lease", "writeTimeout", "maxQueuedFrames"))
                .hasMessageStartingWith("Invalid DDS link settings: domainId must be 0..232, was -1");
        assertThatThrownBy(() -> DdsLinkSettings.builder(9, ALPHA).peer(ALPHA, "10.0.0.1").peer(BRAVO, " ")
                .build()).isInstanceOfSatisfying(InvalidSettingsException.class, ex -> assertThat(ex.problems())
                        .extracting(InvalidSettingsException.Problem::setting)
                        .containsExactly("peers", "peers.bravo"));
        DdsLinkSettings ok = DdsLinkSettings.builder(9, ALPHA).peer(BRAVO, "10.0.0.2").peer(SiteId.of("charlie"),
                "10.0.0.2").build();
        assertThat(ok.participant().network().peers()).containsExactly("10.0.0.2");
        DdsLinkSettings pair = DdsLinkSettings.builder(9, ALPHA).peer(BRAVO, "10.0.0.2, 10.0.0.3").build();
        assertThat(pair.participant().network().peers()).as("a pair's two gateways")
                .containsExactly("10.0.0.2", "10.0.0.3");
        assertThatThrownBy(() -> DdsLinkSettings.builder(9, ALPHA).peer(BRAVO, "10.0.0.2,").build())
                .hasMessageContaining("peers.bravo must be the peer gateway's address (or a pair's two, "
                        + "comma-separated), was '10.0.0.2,'");
        assertThat(ok.participant().network().multicast()).isFalse();
        assertThat(ok.participant().network().maxDatagramSize()).isEqualTo(1400);
        assertThat(ok.participant().writeBatch()).isFalse();
        assertThat(ok.participant().discovery().lease()).as("the WAN's own, shorter than Cyclone's")
                .isEqualTo(Duration.ofSeconds(5));
        assertThat(DdsLinkSettings.builder(9, ALPHA).peer(BRAVO, "10.0.0.2").lease(Duration.ofSeconds(60)).build()
                .participant().discovery().lease()).isEqualTo(Duration.ofSeconds(60));
        assertThatThrownBy(() -> DdsLinkSettings.builder(9, ALPHA).peer(BRAVO, "10.0.0.2").lease(Duration.ofSeconds(61))
                .build()).hasMessage("Invalid DDS link settings: lease must be 1..60 s, was PT1M1S");
    }

    static void awaitState(DdsWanLink link, SiteId peer, LinkState state) {
        await().atMost(WAIT).until(() -> link.state(peer) == state);
    }

    /** Sends as the gateway's scheduler does: only while what the peer has not acknowledged stays under a credit. */
    static void sendWithinCredit(DdsWanLink link, SiteId peer, byte[] frame) throws TransportException {
        await().atMost(WAIT).pollInterval(Duration.ofMillis(1)).until(() -> link.unacknowledgedBytes(peer) < CREDIT);
        link.send(peer, frame);
    }

    static List<byte[]> frames(Random random, int count, int maxSize) {
        List<byte[]> frames = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            byte[] frame = new byte[1 + random.nextInt(maxSize)];
            random.nextBytes(frame);
            frames.add(frame);
        }
        return frames;
    }

    static List<String> hex(List<byte[]> frames) {
        return frames.stream().map(HexFormat.of()::formatHex).toList();
    }

    /**
     * Keeps what the link hands over and then blocks, as a gateway storing durably does, until released: what
     * arrives meanwhile waits for the next call.
     */
    static class HeldRecorder extends Recorder {

        final CountDownLatch entered = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);
        /** How many frames each call handed over. */
        final List<Integer> calls = new CopyOnWriteArrayList<>();

        @Override
        public void received(List<ReceivedFrame> frames) {
            this.calls.add(frames.size());
            frames.forEach(f -> received(f.from(), f.bytes()));
            this.entered.countDown();
            try {
                this.release.await(30, TimeUnit.SECONDS);
            }
            catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Keeps what the link hands over. */
    static class Recorder implements FrameHandler {

        final List<byte[]> frames = new CopyOnWriteArrayList<>();
        final List<SiteId> senders = new CopyOnWriteArrayList<>();
        final List<String> states = new CopyOnWriteArrayList<>();

        @Override
        public void received(SiteId from, byte[] frame) {
            this.senders.add(from);
            this.frames.add(frame);
        }

        @Override
        public void stateChanged(SiteId peer, LinkState state) {
            this.states.add(peer + "=" + state.label());
        }
    }
}
