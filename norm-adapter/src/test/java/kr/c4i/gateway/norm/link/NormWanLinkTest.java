package kr.c4i.gateway.norm.link;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import kr.c4i.gateway.core.link.FrameHandler;
import kr.c4i.gateway.core.link.LinkState;
import kr.c4i.gateway.core.link.SiteId;
import kr.c4i.gateway.core.transport.TransportUnavailableException;
import kr.c4i.gateway.kmtf.catalogue.Precedence;
import kr.c4i.gateway.norm.NormEvent;
import kr.c4i.gateway.norm.NormInstance;
import kr.c4i.gateway.norm.NormSession;
import kr.c4i.gateway.ports.LoopbackPorts;

/**
 * Two (or three) norm links in one JVM on loopback, each gateway on its own UDP port: frames cross real UDP through
 * Debian's libnorm.
 */
@Timeout(240)
class NormWanLinkTest {

    static final SiteId ALPHA = SiteId.of("alpha");
    static final SiteId BRAVO = SiteId.of("bravo");
    private static final Duration WAIT = Duration.ofSeconds(30);
    /**
     * How long the frames of the both-ways test may take: a second or two, also on a loaded machine. They never all
     * arrived in loaded CI builds while the receiver kept NORM's default of 256 pending objects per sender (see
     * {@link NormWanLink#RX_CACHE_COUNT}).
     */
    private static final Duration BOTH_WAYS_WAIT = Duration.ofSeconds(60);
    /** More frames each way than NORM's default receive cache holds pending (256). */
    private static final int BOTH_WAYS_FRAMES = 1000;
    private static final long RATE = 10_000_000;
    /** About a second of the link. */
    private static final long CREDIT = RATE / 8;

    private final int alphaPort = LoopbackPorts.freeUdp();
    private final int bravoPort = LoopbackPorts.freeUdp();

    NormLinkSettings alpha() {
        return NormLinkSettings.of(ALPHA, Map.of(BRAVO, "127.0.0.1:" + this.bravoPort), RATE)
                .withEndpoint("127.0.0.1", this.alphaPort).withPeerTimeout(Duration.ofSeconds(1));
    }

    NormLinkSettings bravo() {
        return NormLinkSettings.of(BRAVO, Map.of(ALPHA, "localhost:" + this.alphaPort), RATE)
                .withEndpoint(null, this.bravoPort).withPeerTimeout(Duration.ofSeconds(1));
    }

    @Test
    void framesCrossBothWaysWholeOnceEachUnderTwentyPercentLossAndAreAcknowledged() throws Exception {
        Recorder atAlpha = new Recorder();
        Recorder atBravo = new Recorder();
        // A peer taken for lost gives its frames up (the gateway would send their messages again): on a loaded machine
        // the tests' 1 s timeout could do that here, where every frame must arrive through the link alone. With the
        // receiver's pending objects at NORM's default of 256, frames under repair while the sender ran further ahead
        // were aborted and never arrived: two runs of three under CPU load.
        try (NormWanLink alpha = new NormWanLink(alpha().withTxLoss(20).withPeerTimeout(BOTH_WAYS_WAIT));
                NormWanLink bravo = new NormWanLink(bravo().withTxLoss(20).withPeerTimeout(BOTH_WAYS_WAIT))) {
            alpha.open(atAlpha);
            bravo.open(atBravo);
            awaitState(alpha, BRAVO, LinkState.UP);
            awaitState(bravo, ALPHA, LinkState.UP);
            List<byte[]> toBravo = frames(new Random(1), BOTH_WAYS_FRAMES, alpha.maxFrameBytes());
            List<byte[]> toAlpha = frames(new Random(2), BOTH_WAYS_FRAMES, bravo.maxFrameBytes());
            for (int i = 0; i < toBravo.size(); i++) {
                sendWithinCredit(alpha, BRAVO, toBravo.get(i));
                sendWithinCredit(bravo, ALPHA, toAlpha.get(i));
            }
            await().atMost(BOTH_WAYS_WAIT).until(() -> atBravo.frames.size() >= toBravo.size()
                    && atAlpha.frames.size() >= toAlpha.size());
            assertThat(hex(atBravo.frames)).containsExactlyInAnyOrderElementsOf(hex(toBravo));
            assertThat(hex(atAlpha.frames)).containsExactlyInAnyOrderElementsOf(hex(toAlpha));
            assertThat(atBravo.senders).containsOnly(ALPHA);
            await().atMost(BOTH_WAYS_WAIT).until(() -> alpha.unacknowledgedBytes(BRAVO) == 0
                    && bravo.unacknowledgedBytes(ALPHA) == 0);
            assertThat(atAlpha.states).containsExactly(BRAVO + "=up");

            Map<String, Object> peer = peerDetails(alpha, BRAVO);
            // What the gateway's credit grows by: NORM's estimate, which the health details show too.
            double grtt = alpha.roundTrip(BRAVO).toNanos() / 1e9;
            assertThat(grtt).isPositive().isCloseTo((Double) peer.get("grttSeconds"), within(1e-6));
            assertThat(peer).containsEntry("state", "up").containsEntry("framesSent", (long) BOTH_WAYS_FRAMES)
                    .containsEntry("framesReceived", (long) BOTH_WAYS_FRAMES).containsEntry("unacknowledgedBytes", 0L);
            assertThat(alpha.details()).containsEntry("kind", "norm").containsEntry("port", this.alphaPort);
            // The wire's budget less the share NORM does not pace and IP and UDP headers: what NORM is told to send.
            assertThat(((Number) alpha.details().get("txRateBitsPerSecond")).longValue())
                    .isEqualTo(Math.round(RATE * 0.95 * 1440.0 / 1482));
        }
    }

    /**
     * With nothing lost, every loss report shows none: urgent frames start with the parity the first few samples
     * allow and come down to one segment as clean samples come in (the most loss the samples allow, under 5% from 52
     * on), the other frames go with none, and the parity never rises again (it rises only on a reported loss, and the
     * last report's window still holds every sample since the start).
     */
    @Test
    void onALinkThatLosesNothingOnlyUrgentFramesGoWithParityAndOneSegmentOfIt() throws Exception {
        Recorder atBravo = new Recorder();
        try (NormWanLink alpha = new NormWanLink(alpha()); NormWanLink bravo = new NormWanLink(bravo())) {
            alpha.open(new Recorder());
            bravo.open(atBravo);
            awaitState(alpha, BRAVO, LinkState.UP);
            List<byte[]> frames = frames(new Random(4), 100, alpha.maxFrameBytes());
            for (byte[] frame : frames) {
                sendWithinCredit(alpha, BRAVO, frame);
            }
            await().atMost(WAIT).untilAsserted(() -> {
                assertThat(lossSamples(alpha, BRAVO)).isGreaterThanOrEqualTo(LossWindow.RECENT);
                assertThat(lossSamples(bravo, ALPHA)).isGreaterThanOrEqualTo(LossWindow.RECENT);
                assertThat(alpha.autoParity(BRAVO)).isEqualTo(1);
                assertThat(bravo.autoParity(ALPHA)).isEqualTo(1);
            });
            assertThat(lossSamples(alpha, BRAVO)).as("every sample in the window").isLessThan(LossWindow.SIZE);
            assertThat(alpha.loss(BRAVO)).isZero();
            assertThat(alpha.details()).containsEntry("autoParity", "adaptive")
                    .containsEntry("parityTargetPercent", NormLinkSettings.DEFAULT_PARITY_TARGET_PERCENT);
            await().atMost(WAIT).until(() -> atBravo.frames.size() == frames.size());
            assertThat(peerDetails(alpha, BRAVO)).containsEntry("autoParity", 1).containsEntry("loss", 0.0)
                    .containsEntry("parityNow", 0);
        }
    }

    /**
     * At 30% loss each way the loss each end measures of its packets comes back in the peer's reports, the parity
     * rises to what the policy gives for it (3 segments for 30% at the 1% target, 2 from 10%), and every frame still
     * arrives whole, once.
     */
    @Test
    void atThirtyPercentLossTheParityRisesToWhatThePolicyGivesAndEveryFrameArrives() throws Exception {
        Recorder atAlpha = new Recorder();
        Recorder atBravo = new Recorder();
        try (NormWanLink alpha = new NormWanLink(alpha().withTxLoss(30).withPeerTimeout(BOTH_WAYS_WAIT));
                NormWanLink bravo = new NormWanLink(bravo().withTxLoss(30).withPeerTimeout(BOTH_WAYS_WAIT))) {
            alpha.open(atAlpha);
            bravo.open(atBravo);
            awaitState(alpha, BRAVO, LinkState.UP);
            awaitState(bravo, ALPHA, LinkState.UP);
            // 100 samples: the measure is then between 10% and 45% (three standard deviations and more).
            await().atMost(BOTH_WAYS_WAIT).until(() -> lossSamples(alpha, BRAVO) >= 100);
            ParityPolicy policy = new ParityPolicy(alpha.settings().paritySegments(),
                    alpha.settings().parityTargetPercent() / 100);
            // The parity follows each report: read it and the loss it followed until they are from the same one.
            // Urgent frames' parity follows at least the measure, and the recent loss's upper bound once some was lost.
            await().atMost(WAIT).untilAsserted(() -> {
                double loss = alpha.loss(BRAVO);
                double followed = alpha.parityLoss(BRAVO);
                int parity = alpha.autoParity(BRAVO);
                assertThat(loss).isBetween(0.1, 0.45);
                assertThat(followed).isGreaterThanOrEqualTo(loss).isLessThan(0.7)
                        .isEqualTo(peerDetails(alpha, BRAVO).get("parityLoss"));
                assertThat(parity).isGreaterThanOrEqualTo(2)
                        .isBetween(policy.parityFor(followed, policy.target()),
                                policy.parityFor(followed, policy.target() / ParityPolicy.LOWER_MARGIN))
                        .isEqualTo(peerDetails(alpha, BRAVO).get("autoParity"));
            });
            List<byte[]> toBravo = frames(new Random(5), 300, alpha.maxFrameBytes());
            List<byte[]> toAlpha = frames(new Random(6), 300, bravo.maxFrameBytes());
            for (int i = 0; i < toBravo.size(); i++) {
                sendWithinCredit(alpha, BRAVO, toBravo.get(i));
                sendWithinCredit(bravo, ALPHA, toAlpha.get(i));
            }
            await().atMost(BOTH_WAYS_WAIT).until(() -> atBravo.frames.size() >= toBravo.size()
                    && atAlpha.frames.size() >= toAlpha.size());
            assertThat(hex(atBravo.frames)).containsExactlyInAnyOrderElementsOf(hex(toBravo));
            assertThat(hex(atAlpha.frames)).containsExactlyInAnyOrderElementsOf(hex(toAlpha));
            assertThat(bravo.autoParity(ALPHA)).isGreaterThanOrEqualTo(2);
        }
    }

    @Test
    void aFixedAutoParityStaysWhateverTheLossWhileTheLossIsStillMeasured() throws Exception {
        try (NormWanLink alpha = new NormWanLink(alpha().withAutoParity(1).withTxLoss(30).withPeerTimeout(WAIT));
                NormWanLink bravo = new NormWanLink(bravo().withPeerTimeout(WAIT))) {
            alpha.open(new Recorder());
            bravo.open(new Recorder());
            awaitState(alpha, BRAVO, LinkState.UP);
            await().atMost(WAIT).until(() -> lossSamples(alpha, BRAVO) >= 50);
            assertThat(alpha.loss(BRAVO)).isPositive();
            assertThat(alpha.autoParity(BRAVO)).isEqualTo(1);
            assertThat(alpha.details()).containsEntry("autoParity", 1);
            // Bravo loses nothing: its urgent frames come down to the one segment a clean window calls for.
            await().atMost(WAIT).untilAsserted(() -> {
                assertThat(lossSamples(bravo, ALPHA)).isGreaterThanOrEqualTo(LossWindow.RECENT);
                assertThat(bravo.autoParity(ALPHA)).isEqualTo(1);
            });
            assertThat(bravo.loss(ALPHA)).isZero();
        }
    }

    @Test
    void framesNormHasNotSentYetCountAsQueuedUntilItSendsThemAndTheHandlerIsToldAsTheQueueDrains() throws Exception {
        Recorder atAlpha = new Recorder();
        Recorder atBravo = new Recorder();
        // 100 kbit/s: NORM takes about 0.1 s per 1,400-byte frame, so ten frames handed over at once wait in its
        // queue.
        long rate = 100_000;
        NormLinkSettings alphaSettings = NormLinkSettings.of(ALPHA, Map.of(BRAVO, "127.0.0.1:" + this.bravoPort), rate)
                .withEndpoint("127.0.0.1", this.alphaPort).withPeerTimeout(WAIT);
        NormLinkSettings bravoSettings = NormLinkSettings.of(BRAVO, Map.of(ALPHA, "127.0.0.1:" + this.alphaPort), rate)
                .withEndpoint("127.0.0.1", this.bravoPort).withPeerTimeout(WAIT);
        try (NormWanLink alpha = new NormWanLink(alphaSettings); NormWanLink bravo = new NormWanLink(bravoSettings)) {
            alpha.open(atAlpha);
            bravo.open(atBravo);
            awaitState(alpha, BRAVO, LinkState.UP);
            List<byte[]> frames = frames(new Random(3), 10, alpha.maxFrameBytes());
            for (byte[] frame : frames) {
                alpha.send(BRAVO, frame);
            }
            long total = frames.stream().mapToLong(f -> f.length).sum();
            assertThat(alpha.queuedBytes(BRAVO)).as("most of the frames are still queued").isGreaterThan(total / 2)
                    .isLessThanOrEqualTo(total);
            assertThat(peerDetails(alpha, BRAVO)).containsKey("queuedBytes");
            await().atMost(WAIT).until(() -> alpha.queuedBytes(BRAVO) == 0);
            assertThat(atAlpha.drained).as("told as each frame left the queue")
                    .hasSizeGreaterThanOrEqualTo(frames.size()).containsOnly(BRAVO);
            await().atMost(WAIT).until(() -> atBravo.frames.size() == frames.size());
            assertThat(bravo.queuedBytes(ALPHA)).isZero();
        }
    }

    /**
     * Parity goes with urgent frames only, in a pass of their own: with a fixed parity of 2 the session itself never
     * sends parity (so no repair NORM starts takes it), each FLASH or IMMEDIATE frame goes a second time once NORM has
     * sent it, ROUTINE and PRIORITY frames once; every frame arrives once.
     */
    @Test
    void urgentFramesGoAgainWithTheirParityAndTheSessionSendsNoneOfItsOwn() throws Exception {
        Recorder atBravo = new Recorder();
        // 100 kbit/s: NORM takes about 0.1 s per 1,400-byte frame, so frames handed over at once wait in its queue.
        long rate = 100_000;
        NormLinkSettings alphaSettings = NormLinkSettings.of(ALPHA, Map.of(BRAVO, "127.0.0.1:" + this.bravoPort), rate)
                .withEndpoint("127.0.0.1", this.alphaPort).withPeerTimeout(WAIT).withAutoParity(2);
        NormLinkSettings bravoSettings = NormLinkSettings.of(BRAVO, Map.of(ALPHA, "127.0.0.1:" + this.alphaPort), rate)
                .withEndpoint("127.0.0.1", this.bravoPort).withPeerTimeout(WAIT);
        try (NormWanLink alpha = new NormWanLink(alphaSettings); NormWanLink bravo = new NormWanLink(bravoSettings)) {
            alpha.open(new Recorder());
            bravo.open(atBravo);
            awaitState(alpha, BRAVO, LinkState.UP);
            assertThat(alphaSettings.parityPrecedence()).isEqualTo(Precedence.IMMEDIATE);
            assertThat(alpha.urgentFrom()).as("the gateway keeps urgent messages in frames of their own")
                    .isEqualTo(Precedence.IMMEDIATE);
            List<byte[]> frames = frames(new Random(7), 8, alpha.maxFrameBytes());
            for (byte[] frame : frames.subList(0, 5)) {
                alpha.send(BRAVO, frame, Precedence.PRIORITY);
            }
            alpha.send(BRAVO, frames.get(5), Precedence.FLASH);
            alpha.send(BRAVO, frames.get(6), Precedence.ROUTINE);
            assertThat(alpha.parityNow(BRAVO)).as("the FLASH frame's first pass goes bare").isZero();
            await().atMost(WAIT).until(() -> secondPasses(alpha) == 1);
            await().atMost(WAIT).until(() -> alpha.queuedBytes(BRAVO) == 0);
            alpha.send(BRAVO, frames.get(7), Precedence.IMMEDIATE);
            assertThat(alpha.parityNow(BRAVO)).isZero();
            await().atMost(WAIT).until(() -> secondPasses(alpha) == 2);
            assertThat(alpha.parityNow(BRAVO)).as("taken back as soon as the frame was requeued").isZero();
            assertThat(alpha.autoParity(BRAVO)).as("what an urgent frame goes with").isEqualTo(2);
            assertThat(peerDetails(alpha, BRAVO)).containsEntry("autoParity", 2).containsEntry("parityNow", 0);
            assertThat(alpha.details()).containsEntry("parityPrecedence", "IMMEDIATE");
            await().atMost(WAIT).until(() -> atBravo.frames.size() >= frames.size());
            // The second passes are acknowledged with the rest: nothing of them is delivered again after that.
            await().atMost(WAIT).until(() -> alpha.unacknowledgedBytes(BRAVO) == 0);
            assertThat(hex(atBravo.frames)).containsExactlyInAnyOrderElementsOf(hex(frames));
            assertThat(secondPasses(alpha)).as("ROUTINE and PRIORITY frames went once").isEqualTo(2);
        }
    }

    private static long secondPasses(NormWanLink link) {
        return ((Number) peerDetails(link, BRAVO).get("urgentSecondPasses")).longValue();
    }

    /** With {@code ROUTINE} as the parity's precedence every frame goes with it, as before there was a choice. */
    @Test
    void parityForRoutineFramesGoesWithEveryFrame() throws Exception {
        Recorder atBravo = new Recorder();
        try (NormWanLink alpha = new NormWanLink(alpha().withAutoParity(1).withParityPrecedence(Precedence.ROUTINE));
                NormWanLink bravo = new NormWanLink(bravo())) {
            alpha.open(new Recorder());
            bravo.open(atBravo);
            awaitState(alpha, BRAVO, LinkState.UP);
            assertThat(alpha.parityNow(BRAVO)).isEqualTo(1);
            assertThat(alpha.urgentFrom()).isEqualTo(Precedence.ROUTINE);
            try (NormWanLink noParity = new NormWanLink(alpha().withAutoParity(0))) {
                assertThat(noParity.urgentFrom()).as("no frame costs more than another").isNull();
            }
            List<byte[]> frames = frames(new Random(8), 3, alpha.maxFrameBytes());
            alpha.send(BRAVO, frames.get(0), Precedence.FLASH);
            alpha.send(BRAVO, frames.get(1));
            alpha.send(BRAVO, frames.get(2), Precedence.ROUTINE);
            await().atMost(WAIT).until(() -> atBravo.frames.size() == frames.size());
            assertThat(alpha.parityNow(BRAVO)).isEqualTo(1);
        }
    }

    @Test
    void refusesUnknownPeersOversizeFramesAndSendsWhileNotUp() throws Exception {
        try (NormWanLink alpha = new NormWanLink(alpha())) {
            alpha.open(new Recorder());
            assertThat(alpha.state(BRAVO)).isEqualTo(LinkState.CONNECTING);
            assertThatThrownBy(() -> alpha.send(BRAVO, new byte[10])).isInstanceOf(TransportUnavailableException.class)
                    .hasMessageContaining("connecting");
            assertThatThrownBy(() -> alpha.send(SiteId.of("zulu"), new byte[10]))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("zulu");
            assertThatThrownBy(() -> alpha.send(BRAVO, new byte[alpha.maxFrameBytes() + 1]))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("maxFrameBytes");
            assertThat(peerDetails(alpha, BRAVO)).containsEntry("sendRefusals", 1L);
        }
    }

    @Test
    void framesLeftUnacknowledgedForThePeerTimeoutPutThePeerDownAndItIsUpWhenItComesBack() throws Exception {
        Recorder atAlpha = new Recorder();
        try (NormWanLink alpha = new NormWanLink(alpha())) {
            alpha.open(atAlpha);
            NormWanLink bravo = new NormWanLink(bravo());
            bravo.open(new Recorder());
            awaitState(alpha, BRAVO, LinkState.UP);
            bravo.close();
            alpha.send(BRAVO, new byte[1000]);
            alpha.send(BRAVO, new byte[500]);
            assertThat(alpha.unacknowledgedBytes(BRAVO)).isEqualTo(1500);
            awaitState(alpha, BRAVO, LinkState.DOWN);
            assertThat(alpha.unacknowledgedBytes(BRAVO)).as("lost frames are given up").isZero();
            assertThat(peerDetails(alpha, BRAVO)).containsEntry("framesLost", 2L);

            Recorder atBravo = new Recorder();
            try (NormWanLink again = new NormWanLink(bravo())) {
                again.open(atBravo);
                awaitState(alpha, BRAVO, LinkState.UP);
                awaitState(again, ALPHA, LinkState.UP);
                alpha.send(BRAVO, new byte[] {42});
                await().atMost(WAIT).until(() -> atBravo.frames.stream().anyMatch(f -> f.length == 1 && f[0] == 42));
                await().atMost(WAIT).until(() -> alpha.unacknowledgedBytes(BRAVO) == 0);
                // The frames given up at DOWN were cancelled in NORM: the gateway sends their messages again, by
                // precedence, rather than NORM repairing them first, in the order they were handed over.
                assertThat(atBravo.frames).extracting(f -> f.length).containsExactly(1);
            }
            assertThat(atAlpha.states).startsWith(BRAVO + "=up", BRAVO + "=down", BRAVO + "=up");
        }
    }

    @Test
    void aPeerThatOpensLongAfterThisLinkIsFoundByProbesThoughNoFrameIsSentAndGetsOnlyTheLastProbe() throws Exception {
        Recorder atAlpha = new Recorder();
        try (NormWanLink alpha = new NormWanLink(alpha())) {
            alpha.open(atAlpha);
            // An idle NORM sender stops probing after about 20 s (measured), so a link cannot count on hearing a
            // peer that opened long before it: its own probes, acknowledged, make the peer UP.
            await().atMost(WAIT).until(() -> ((Number) peerDetails(alpha, BRAVO).get("probesSent")).longValue() >= 3);
            try (NormWanLink bravo = new NormWanLink(bravo())) {
                Recorder atBravo = new Recorder();
                bravo.open(atBravo);
                awaitState(alpha, BRAVO, LinkState.UP);
                awaitState(bravo, ALPHA, LinkState.UP);
                assertThat(atBravo.frames).as("probes are not frames").isEmpty();
                // Bravo's receiver asks for everything alpha's sender still holds (as after a cut): each probe
                // whose watermark failed was cancelled when the next went, so it gets the last, not all three.
                // (At most two: the last may fail just as bravo comes, and the next go.)
                assertThat(((Number) peerDetails(bravo, ALPHA).get("probesReceived")).longValue())
                        .as("probes bravo received of the %s alpha sent", peerDetails(alpha, BRAVO).get("probesSent"))
                        .isLessThanOrEqualTo(2);
            }
        }
    }

    @Test
    void aPeerThatRestartedWhileUpIsDownThenUpAtOnceSoItsFramesAreSentAgain() throws Exception {
        Recorder atAlpha = new Recorder();
        try (NormWanLink alpha = new NormWanLink(alpha().withPeerTimeout(Duration.ofSeconds(60)))) {
            alpha.open(atAlpha);
            NormWanLink bravo = new NormWanLink(bravo());
            bravo.open(new Recorder());
            awaitState(alpha, BRAVO, LinkState.UP);
            bravo.close();
            try (NormWanLink again = new NormWanLink(bravo())) {
                again.open(new Recorder());
                // Far sooner than the peer timeout: the new sender instance tells alpha bravo restarted.
                await().atMost(WAIT).until(() -> atAlpha.states.size() >= 3);
                assertThat(atAlpha.states).containsExactly(BRAVO + "=up", BRAVO + "=down", BRAVO + "=up");
                assertThat(peerDetails(alpha, BRAVO)).containsEntry("restarts", 1L);
            }
        }
    }

    @Test
    void aSenderThatIsNotAConfiguredPeerIsIgnoredAndCounted() throws Exception {
        Recorder atAlpha = new Recorder();
        try (NormWanLink alpha = new NormWanLink(alpha()); NormInstance intruder = NormInstance.create(null)) {
            alpha.open(atAlpha);
            NormSession session = intruder.createSession("127.0.0.1", this.alphaPort,
                    NormLinkSettings.nodeId(SiteId.of("intruder")));
            session.setTxOnly();
            session.setCongestionControl(false);
            session.setTxRate(1_000_000);
            session.startSender(1, 1 << 20, 1400, 64, 32);
            session.enqueue(new byte[] {1, 2, 3});
            Thread events = Thread.ofPlatform().daemon().start(() -> {
                NormEvent event;
                do {
                    event = intruder.nextEvent();
                }
                while (event != null);
            });
            await().atMost(WAIT).until(() -> ((Number) alpha.details().get("framesIgnored")).longValue() == 1);
            assertThat(atAlpha.frames).isEmpty();
            assertThat(alpha.state(BRAVO)).isEqualTo(LinkState.CONNECTING);
            intruder.stop();
            events.join();
        }
    }

    @Test
    void thePeerTimeoutGrowsWithTheRoundTripNormMeasures() {
        Duration configured = Duration.ofSeconds(5);
        assertThat(NormWanLink.peerTimeout(configured, 0, 0, 0, 128_000)).isEqualTo(configured);
        // 250 ms each way: ten round trips of 0.5 s on top
        assertThat(NormWanLink.peerTimeout(configured, 0.5, 0, 0, 128_000)).isEqualTo(Duration.ofSeconds(10));
        assertThat(NormWanLink.peerTimeout(configured, 0.02, 0, 0, 128_000)).isEqualTo(Duration.ofMillis(5200));
        assertThat(NormWanLink.peerTimeout(configured, 3600, 0, 0, 128_000)).as("capped")
                .isEqualTo(Duration.ofSeconds(5 + 600));
    }

    @Test
    void thePeerTimeoutAllowsMoreRoundTripsTheMoreOfARequestOrItsAnswerIsLost() {
        assertThat(NormWanLink.timeoutRoundTrips(0)).isEqualTo(NormWanLink.TIMEOUT_ROUND_TRIPS);
        assertThat(NormWanLink.timeoutRoundTrips(Double.NaN)).isEqualTo(NormWanLink.TIMEOUT_ROUND_TRIPS);
        // 1% each way: a failed step is rare, the floor holds
        assertThat(NormWanLink.timeoutRoundTrips(NormWanLink.lossBothWays(0.01, 0.01))).isEqualTo(10);
        // 10% each way: 19% of the steps fail, nine steps make a one-in-a-million run
        assertThat(NormWanLink.lossBothWays(0.1, 0.1)).isCloseTo(0.19, within(1e-9));
        assertThat(NormWanLink.timeoutRoundTrips(0.19)).isEqualTo(18);
        // 30% each way: 51% fail, 21 steps
        assertThat(NormWanLink.timeoutRoundTrips(NormWanLink.lossBothWays(0.3, 0.3))).isEqualTo(42);
        assertThat(NormWanLink.timeoutRoundTrips(0.9)).isEqualTo(NormWanLink.TIMEOUT_ROUND_TRIPS_MAX);
        assertThat(NormWanLink.timeoutRoundTrips(1)).isEqualTo(NormWanLink.TIMEOUT_ROUND_TRIPS_MAX);
        // Not measured yet, or a report out of range: counted as no loss, or all of it
        assertThat(NormWanLink.lossBothWays(Double.NaN, 0.1)).isCloseTo(0.1, within(1e-9));
        assertThat(NormWanLink.lossBothWays(-1, 2)).isEqualTo(1);

        Duration configured = Duration.ofSeconds(5);
        // 250 ms each way at 30% loss each way: 42 round trips of 0.5 s on top
        assertThat(NormWanLink.peerTimeout(configured, 0.5, NormWanLink.lossBothWays(0.3, 0.3), 0, 128_000))
                .isEqualTo(Duration.ofSeconds(26));
        assertThat(NormWanLink.peerTimeout(configured, 3600, 0.9, 0, 128_000)).as("capped")
                .isEqualTo(Duration.ofSeconds(5 + 600));
    }

    @Test
    void thePeerTimeoutAllowsForSendingWhatIsUnacknowledgedAtTheLinksRate() {
        Duration configured = Duration.ofSeconds(5);
        // 120 kB unacknowledged on 128 kbit/s: 7.5 s to send them once
        assertThat(NormWanLink.peerTimeout(configured, 0.5, 0, 120_000, 128_000)).isEqualTo(Duration.ofMillis(17_500));
        // the same bytes on 2 Mbit/s hardly count
        assertThat(NormWanLink.peerTimeout(configured, 0.02, 0, 120_000, 2_000_000)).isEqualTo(Duration.ofMillis(5680));
        assertThat(NormWanLink.peerTimeout(configured, 0, 0, 100_000_000, 8_000)).as("capped")
                .isEqualTo(Duration.ofSeconds(5 + 60));
    }

    @Test
    void closeTwiceIsFineAndAClosedLinkRefusesWork() throws Exception {
        NormWanLink alpha = new NormWanLink(alpha());
        alpha.open(new Recorder());
        alpha.close();
        alpha.close();
        assertThatThrownBy(() -> alpha.send(BRAVO, new byte[1])).isInstanceOf(TransportUnavailableException.class)
                .hasMessageContaining("closed");
        assertThatThrownBy(() -> alpha.open(new Recorder())).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void settingsNameEveryBadSetting() {
        assertThatThrownBy(() -> NormLinkSettings.of(ALPHA, Map.of(), RATE)).hasMessageContaining("no peers");
        assertThatThrownBy(() -> NormLinkSettings.of(ALPHA, Map.of(ALPHA, "10.0.0.1"), RATE))
                .hasMessageContaining("itself");
        assertThatThrownBy(() -> NormLinkSettings.of(ALPHA, Map.of(BRAVO, "10.0.0.1:99999"), RATE))
                .hasMessageContaining("bravo").hasMessageContaining("1-65535");
        assertThatThrownBy(() -> NormLinkSettings.of(ALPHA, Map.of(BRAVO, "::1"), RATE))
                .hasMessageContaining("host:port");
        assertThatThrownBy(() -> NormLinkSettings.of(ALPHA, Map.of(BRAVO, "10.0.0.1"), 100))
                .hasMessageContaining("rate");
        assertThatThrownBy(() -> NormLinkSettings.of(ALPHA, Map.of(BRAVO, "10.0.0.1"), RATE).withEndpoint(null, 0))
                .hasMessageContaining("port");
        assertThatThrownBy(() -> NormLinkSettings.of(ALPHA, Map.of(BRAVO, "10.0.0.1"), RATE).withTxLoss(100))
                .hasMessageContaining("tx loss");
        assertThat(NormLinkSettings.nodeId(ALPHA)).isNotEqualTo(NormLinkSettings.nodeId(BRAVO)).isNotZero();
    }

    @Test
    void anAddressThatDoesNotResolveFailsTheOpenWithItsName() {
        NormWanLink alpha = new NormWanLink(
                NormLinkSettings.of(ALPHA, Map.of(BRAVO, "no-such-host.invalid"), RATE).withEndpoint(null, alphaPort));
        assertThatThrownBy(() -> alpha.open(new Recorder())).isInstanceOf(TransportUnavailableException.class)
                .hasMessageContaining("no-such-host.invalid");
        alpha.close();
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> peerDetails(NormWanLink link, SiteId peer) {
        return (Map<String, Object>) ((Map<String, Object>) link.details().get("peers")).get(peer.value());
    }

    /** The samples the peer's last report of this link's loss rests on; 0 before one with enough came. */
    static int lossSamples(NormWanLink link, SiteId peer) {
        return (Integer) peerDetails(link, peer).get("lossSamples");
    }

    static void awaitState(NormWanLink link, SiteId peer, LinkState state) {
        await().atMost(WAIT).until(() -> link.state(peer) == state);
    }

    static void sendWithinCredit(NormWanLink link, SiteId peer, byte[] frame) throws Exception {
        if (link.unacknowledgedBytes(peer) + frame.length > CREDIT) {
            await().atMost(WAIT).until(() -> link.unacknowledgedBytes(peer) + frame.length <= CREDIT);
        }
        link.send(peer, frame);
    }

    static List<byte[]> frames(Random random, int count, int maxBytes) {
        List<byte[]> frames = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            byte[] frame = new byte[1 + random.nextInt(maxBytes)];
            random.nextBytes(frame);
            frames.add(frame);
        }
        return frames;
    }

    static List<String> hex(List<byte[]> frames) {
        return frames.stream().map(HexFormat.of()::formatHex).toList();
    }

    static final class Recorder implements FrameHandler {
        final List<byte[]> frames = new CopyOnWriteArrayList<>();
        final List<SiteId> senders = new CopyOnWriteArrayList<>();
        final List<String> states = new CopyOnWriteArrayList<>();
        final List<SiteId> drained = new CopyOnWriteArrayList<>();

        @Override
        public void received(SiteId from, byte[] frame) {
            this.senders.add(from);
            this.frames.add(frame);
        }

        @Override
        public void stateChanged(SiteId peer, LinkState state) {
            this.states.add(peer + "=" + state.label());
        }

        @Override
        public void queueDrained(SiteId peer) {
            this.drained.add(peer);
        }
    }
}
