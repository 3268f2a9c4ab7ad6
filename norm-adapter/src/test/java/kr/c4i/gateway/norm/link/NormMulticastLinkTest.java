package kr.c4i.gateway.norm.link;

import static kr.c4i.gateway.norm.link.NormWanLinkTest.awaitState;
import static kr.c4i.gateway.norm.link.NormWanLinkTest.frames;
import static kr.c4i.gateway.norm.link.NormWanLinkTest.hex;
import static kr.c4i.gateway.norm.link.NormWanLinkTest.lossSamples;
import static kr.c4i.gateway.norm.link.NormWanLinkTest.peerDetails;
import static kr.c4i.gateway.norm.link.NormWanLinkTest.sendWithinCredit;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ThreadLocalRandom;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import kr.c4i.gateway.core.link.LinkState;
import kr.c4i.gateway.core.link.SiteId;
import kr.c4i.gateway.core.transport.TransportUnavailableException;
import kr.c4i.gateway.kmtf.catalogue.Precedence;
import kr.c4i.gateway.norm.link.NormWanLinkTest.Recorder;
import kr.c4i.gateway.ports.LoopbackPorts;

/**
 * Three norm links in multicast mode on one group, in one JVM: an administratively scoped group (239.255.x.y) joined
 * on {@code lo} with TTL 0, so nothing leaves the host. Frames cross real UDP multicast through Debian's libnorm.
 */
@Timeout(240)
class NormMulticastLinkTest {

    static final SiteId ALPHA = SiteId.of("alpha");
    static final SiteId BRAVO = SiteId.of("bravo");
    static final SiteId CHARLIE = SiteId.of("charlie");
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final long RATE = 10_000_000;

    /** A group of its own per test instance, so parallel builds on this machine do not hear each other. */
    private final NormLinkSettings.Multicast group = new NormLinkSettings.Multicast(
            "239.255." + ThreadLocalRandom.current().nextInt(1, 255) + "."
                    + ThreadLocalRandom.current().nextInt(1, 255),
            LoopbackPorts.freeUdp(), "lo", 0);

    NormLinkSettings settings(SiteId site, Duration peerTimeout) {
        Map<SiteId, String> peers = new LinkedHashMap<>();
        for (SiteId other : List.of(ALPHA, BRAVO, CHARLIE)) {
            if (!other.equals(site)) {
                peers.put(other, "");
            }
        }
        // No peer address: the group reaches them.
        NormLinkSettings defaults = NormLinkSettings.of(site, Map.of(BRAVO.equals(site) ? ALPHA : BRAVO, "unused"),
                RATE);
        return new NormLinkSettings(site, peers, null, defaults.port(), RATE, defaults.segmentBytes(),
                defaults.blockSegments(), defaults.paritySegments(), defaults.autoParity(),
                defaults.parityTargetPercent(), defaults.parityPrecedence(), defaults.grttEstimate(), peerTimeout,
                defaults.bufferBytes(), 0, null, this.group);
    }

    NormLinkSettings settings(SiteId site) {
        return settings(site, Duration.ofSeconds(30));
    }

    @Test
    void framesReachOnlyTheSiteTheyAreForOnceEachAndAreAcknowledgedPerPeer() throws Exception {
        Recorder atBravo = new Recorder();
        Recorder atCharlie = new Recorder();
        try (NormWanLink alpha = new NormWanLink(settings(ALPHA));
                NormWanLink bravo = new NormWanLink(settings(BRAVO));
                NormWanLink charlie = new NormWanLink(settings(CHARLIE))) {
            alpha.open(new Recorder());
            bravo.open(atBravo);
            charlie.open(atCharlie);
            awaitState(alpha, BRAVO, LinkState.UP);
            awaitState(alpha, CHARLIE, LinkState.UP);
            awaitState(bravo, ALPHA, LinkState.UP);
            awaitState(charlie, ALPHA, LinkState.UP);
            List<byte[]> toBravo = frames(new Random(1), 100, alpha.maxFrameBytes());
            List<byte[]> toCharlie = frames(new Random(2), 150, alpha.maxFrameBytes());
            for (int i = 0; i < toCharlie.size(); i++) {
                if (i < toBravo.size()) {
                    sendWithinCredit(alpha, BRAVO, toBravo.get(i));
                }
                sendWithinCredit(alpha, CHARLIE, toCharlie.get(i));
            }
            await().atMost(WAIT).until(() -> atBravo.frames.size() >= toBravo.size()
                    && atCharlie.frames.size() >= toCharlie.size());
            assertThat(hex(atBravo.frames)).containsExactlyInAnyOrderElementsOf(hex(toBravo));
            assertThat(hex(atCharlie.frames)).containsExactlyInAnyOrderElementsOf(hex(toCharlie));
            assertThat(atBravo.senders).containsOnly(ALPHA);
            assertThat(atCharlie.senders).containsOnly(ALPHA);
            await().atMost(WAIT).until(() -> alpha.unacknowledgedBytes(BRAVO) == 0
                    && alpha.unacknowledgedBytes(CHARLIE) == 0);
            // The group's session sent every frame once: each peer's queue is empty again.
            assertThat(alpha.queuedBytes(BRAVO)).isZero();
            assertThat(alpha.queuedBytes(CHARLIE)).isZero();
            // Each receives the other's frames too, and drops them.
            assertThat(bravo.details()).containsEntry("framesForOthers", (long) toCharlie.size())
                    .containsEntry("mode", "multicast").containsEntry("multicastGroup", this.group.toString());
            assertThat(charlie.details()).containsEntry("framesForOthers", (long) toBravo.size());
            assertThat(peerDetails(alpha, BRAVO)).containsEntry("framesSent", 100L);
            assertThat(peerDetails(alpha, CHARLIE)).containsEntry("framesSent", 150L);
            // Every object carries info in this mode, so each is a loss sample: none lost, so urgent frames come down
            // to the one segment a clean window calls for, the others (all of these) go with none.
            await().atMost(WAIT).untilAsserted(() -> {
                assertThat(lossSamples(alpha, BRAVO)).isGreaterThanOrEqualTo(LossWindow.RECENT);
                assertThat(lossSamples(alpha, CHARLIE)).isGreaterThanOrEqualTo(LossWindow.RECENT);
                assertThat(alpha.autoParity(BRAVO)).isEqualTo(1);
                assertThat(alpha.autoParity(CHARLIE)).isEqualTo(1);
            });
            assertThat(alpha.loss(BRAVO)).isZero();
            assertThat(alpha.parityNow(BRAVO)).isZero();
            // One session sends for both peers: the per-peer budget, less the unpaced share and headers, times two.
            assertThat(((Number) alpha.details().get("groupTxRateBitsPerSecond")).longValue())
                    .isEqualTo(Math.round(2 * RATE * 0.95 * 1440.0 / 1482));
        }
    }

    /**
     * Charlie closed: alpha's frame to it stays unacknowledged while bravo's are acknowledged (each peer's own acking
     * status, not the watermark's), charlie goes DOWN after the peer timeout with only its own frame lost, bravo
     * stays UP and is acknowledged without waiting for charlie; charlie back is UP again through probes.
     */
    @Test
    void aLostPeerHoldsUpOnlyItsOwnFramesAndIsUpAgainWhenItComesBack() throws Exception {
        Recorder atAlpha = new Recorder();
        Recorder atBravo = new Recorder();
        // Long enough that NORM gives up asking charlie for acknowledgements (a few round trips) well before.
        Duration timeout = Duration.ofSeconds(4);
        try (NormWanLink alpha = new NormWanLink(settings(ALPHA, timeout));
                NormWanLink bravo = new NormWanLink(settings(BRAVO))) {
            alpha.open(atAlpha);
            bravo.open(atBravo);
            NormWanLink charlie = new NormWanLink(settings(CHARLIE));
            charlie.open(new Recorder());
            awaitState(alpha, BRAVO, LinkState.UP);
            awaitState(alpha, CHARLIE, LinkState.UP);
            charlie.close();

            alpha.send(CHARLIE, new byte[1000]);
            alpha.send(BRAVO, new byte[500]);
            await().atMost(WAIT).until(() -> alpha.unacknowledgedBytes(BRAVO) == 0);
            assertThat(alpha.state(CHARLIE)).as("not yet timed out").isEqualTo(LinkState.UP);
            assertThat(alpha.unacknowledgedBytes(CHARLIE)).as("charlie never acknowledged its frame").isEqualTo(1000);

            awaitState(alpha, CHARLIE, LinkState.DOWN);
            assertThat(alpha.unacknowledgedBytes(CHARLIE)).isZero();
            assertThat(peerDetails(alpha, CHARLIE)).containsEntry("framesLost", 1L);
            assertThat(peerDetails(alpha, BRAVO)).containsEntry("framesLost", 0L);
            assertThat(alpha.state(BRAVO)).isEqualTo(LinkState.UP);
            List<byte[]> more = frames(new Random(3), 20, alpha.maxFrameBytes());
            for (byte[] frame : more) {
                alpha.send(BRAVO, frame);
            }
            await().atMost(WAIT).until(() -> atBravo.frames.size() >= 1 + more.size()
                    && alpha.unacknowledgedBytes(BRAVO) == 0);
            assertThat(alpha.state(BRAVO)).isEqualTo(LinkState.UP);
            assertThat(atAlpha.states).containsExactlyInAnyOrder(BRAVO + "=up", CHARLIE + "=up", CHARLIE + "=down");

            Recorder atCharlie = new Recorder();
            try (NormWanLink again = new NormWanLink(settings(CHARLIE))) {
                again.open(atCharlie);
                awaitState(alpha, CHARLIE, LinkState.UP);
                awaitState(again, ALPHA, LinkState.UP);
                alpha.send(CHARLIE, new byte[] {42});
                await().atMost(WAIT).until(() -> atCharlie.frames.stream().anyMatch(f -> f.length == 1 && f[0] == 42)
                        && alpha.unacknowledgedBytes(CHARLIE) == 0);
                assertThat(atCharlie.frames).as("the frame given up at DOWN was cancelled").hasSize(1);
            }
        }
    }

    @Test
    void aPeerThatRestartedWhileUpIsDownThenUpAtOnceWithOnlyItsOwnFramesGivenUp() throws Exception {
        Recorder atAlpha = new Recorder();
        try (NormWanLink alpha = new NormWanLink(settings(ALPHA, Duration.ofSeconds(60)));
                NormWanLink charlie = new NormWanLink(settings(CHARLIE))) {
            alpha.open(atAlpha);
            charlie.open(new Recorder());
            NormWanLink bravo = new NormWanLink(settings(BRAVO));
            bravo.open(new Recorder());
            awaitState(alpha, BRAVO, LinkState.UP);
            awaitState(alpha, CHARLIE, LinkState.UP);
            bravo.close();
            alpha.send(BRAVO, new byte[700]);
            try (NormWanLink again = new NormWanLink(settings(BRAVO))) {
                again.open(new Recorder());
                // Far sooner than the peer timeout: the new sender instance tells alpha bravo restarted.
                await().atMost(WAIT)
                        .until(() -> atAlpha.states.stream().filter(s -> s.startsWith("bravo")).count() >= 3);
                assertThat(atAlpha.states.stream().filter(s -> s.startsWith("bravo")))
                        .containsExactly(BRAVO + "=up", BRAVO + "=down", BRAVO + "=up");
                assertThat(peerDetails(alpha, BRAVO)).containsEntry("restarts", 1L).containsEntry("framesLost", 1L);
                alpha.send(CHARLIE, new byte[] {7});
                alpha.send(BRAVO, new byte[] {8});
                await().atMost(WAIT).until(() -> alpha.unacknowledgedBytes(CHARLIE) == 0
                        && alpha.unacknowledgedBytes(BRAVO) == 0);
                assertThat(alpha.state(CHARLIE)).isEqualTo(LinkState.UP);
            }
        }
    }

    @Test
    void anObjectFromASiteThatIsNotAPeerIsIgnoredAndCounted() throws Exception {
        Recorder atAlpha = new Recorder();
        try (NormWanLink alpha = new NormWanLink(settings(ALPHA));
                NormWanLink intruder = new NormWanLink(new NormLinkSettings(SiteId.of("intruder"),
                        Map.of(ALPHA, ""), null, 6010, RATE, 1400, 64, 32, 0, 1, Precedence.IMMEDIATE,
                        Duration.ofMillis(50), Duration.ofSeconds(30), 4 * 1024 * 1024, 0, null, this.group))) {
            alpha.open(atAlpha);
            intruder.open(new Recorder());
            // Alpha's probes of its peers reach the intruder, which takes alpha for UP and sends it a frame; alpha
            // knows no such site.
            awaitState(intruder, ALPHA, LinkState.UP);
            intruder.send(ALPHA, new byte[] {9});
            await().atMost(WAIT).until(() -> ((Number) alpha.details().get("framesIgnored")).longValue() >= 1);
            assertThat(atAlpha.frames).isEmpty();
            assertThat(atAlpha.states).isEmpty();
            assertThat(alpha.state(BRAVO)).isEqualTo(LinkState.CONNECTING);
        }
    }

    @Test
    void settingsNameEveryBadMulticastSetting() {
        assertThatThrownBy(() -> NormLinkSettings.Multicast.parse("239.255.1.1", null, null))
                .hasMessageContaining("'239.255.1.1'").hasMessageContaining("address:port");
        assertThatThrownBy(() -> NormLinkSettings.Multicast.parse("10.0.0.1:6010", null, null))
                .hasMessageContaining("multicast").hasMessageContaining("'10.0.0.1'");
        assertThatThrownBy(() -> NormLinkSettings.Multicast.parse("239.255.1.1:70000", null, null))
                .hasMessageContaining("'239.255.1.1:70000'");
        assertThatThrownBy(() -> NormLinkSettings.Multicast.parse("239.255.1.1:6010", " ", null))
                .hasMessageContaining("multicast interface");
        assertThatThrownBy(() -> NormLinkSettings.Multicast.parse("239.255.1.1:6010", null, 256))
                .hasMessageContaining("multicast TTL").hasMessageContaining("256");
        assertThat(NormLinkSettings.Multicast.parse(" 239.255.1.1:6010 ", "eth0", null))
                .isEqualTo(new NormLinkSettings.Multicast("239.255.1.1", 6010, "eth0",
                        NormLinkSettings.DEFAULT_MULTICAST_TTL));
        // A peer's address is needed in unicast mode only.
        assertThatThrownBy(() -> NormLinkSettings.of(ALPHA, Map.of(BRAVO, ""), RATE))
                .hasMessageContaining("norm peer address of site bravo");
        assertThat(settings(ALPHA).peers()).containsEntry(BRAVO, "");
    }

    @Test
    void anInterfaceThatDoesNotExistFailsTheOpenWithItsName() {
        NormLinkSettings.Multicast elsewhere = new NormLinkSettings.Multicast(this.group.group(), this.group.port(),
                "no-such-if9", 0);
        NormWanLink alpha = new NormWanLink(settings(ALPHA).withMulticast(elsewhere));
        assertThatThrownBy(() -> alpha.open(new Recorder())).isInstanceOf(TransportUnavailableException.class)
                .hasMessageContaining("no-such-if9");
        alpha.close();
    }
}
