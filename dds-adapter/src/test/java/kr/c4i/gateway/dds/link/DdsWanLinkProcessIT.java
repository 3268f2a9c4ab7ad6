package kr.c4i.gateway.dds.link;

import static kr.c4i.gateway.dds.link.DdsWanLinkTest.ALPHA;
import static kr.c4i.gateway.dds.link.DdsWanLinkTest.BRAVO;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import kr.c4i.gateway.core.link.LinkState;

/**
 * This JVM's link (alpha) against {@link LinkPeerMain} (bravo, which echoes) in another JVM: unicast discovery,
 * frames fragmented into datagrams of at most 1,400 bytes over real UDP, and a peer lost by a clean close and by a
 * kill (SIGKILL: no goodbye, so it is lost when the DDS lease it announced runs out).
 */
@Timeout(180)
class DdsWanLinkProcessIT {

    private static final Duration PEER_TIMEOUT = Duration.ofSeconds(5);
    /** How much later than its lease a killed peer may be DOWN: the link looks every 100 ms. */
    private static final Duration MARGIN = Duration.ofSeconds(1);

    @Test
    void framesCrossProcessesInOrderWholeAndAPeerLostIsDownThenUpAgain() throws Exception {
        DdsWanLinkTest.Recorder atAlpha = new DdsWanLinkTest.Recorder();
        try (DdsWanLink alpha = new DdsWanLink(DdsWanLinkTest.settings(ALPHA, BRAVO).peerTimeout(PEER_TIMEOUT)
                .build())) {
            alpha.open(atAlpha);
            long started = System.nanoTime();
            Process peer = startPeer();
            try {
                await().atMost(Duration.ofSeconds(30)).until(() -> alpha.state(BRAVO) == LinkState.UP);
                long up = System.nanoTime() - started;

                List<byte[]> frames = new ArrayList<>(DdsWanLinkTest.frames(new Random(4), 300, 4000));
                byte[] large = new byte[64 * 1024];
                new Random(5).nextBytes(large);
                frames.add(150, large);
                long sendStart = System.nanoTime();
                for (byte[] frame : frames) {
                    DdsWanLinkTest.sendWithinCredit(alpha, BRAVO, frame);
                }
                await().atMost(Duration.ofSeconds(30)).until(() -> atAlpha.frames.size() == frames.size());
                long echoed = System.nanoTime() - sendStart;
                assertThat(DdsWanLinkTest.hex(atAlpha.frames)).containsExactlyElementsOf(DdsWanLinkTest.hex(frames));
                await().atMost(Duration.ofSeconds(10)).until(() -> alpha.unacknowledgedBytes(BRAVO) == 0);

                long roundTrips = 0;
                for (int i = 0; i < 20; i++) {
                    int before = atAlpha.frames.size();
                    long start = System.nanoTime();
                    alpha.send(BRAVO, large);
                    await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(1))
                            .until(() -> atAlpha.frames.size() == before + 1);
                    roundTrips += System.nanoTime() - start;
                }
                assertThat(atAlpha.frames.getLast()).isEqualTo(large);

                peer.getOutputStream().close();
                long closed = System.nanoTime();
                await().atMost(PEER_TIMEOUT).until(() -> alpha.state(BRAVO) == LinkState.DOWN);
                long downAfterClose = System.nanoTime() - closed;
                assertThat(peer.waitFor(30, TimeUnit.SECONDS)).isTrue();
                assertThat(alpha.unacknowledgedBytes(BRAVO)).isZero();

                peer = startPeer();
                await().atMost(Duration.ofSeconds(30)).until(() -> alpha.state(BRAVO) == LinkState.UP);
                int before = atAlpha.frames.size();
                alpha.send(BRAVO, new byte[] {7});
                await().atMost(Duration.ofSeconds(10)).until(() -> atAlpha.frames.size() == before + 1);

                peer.destroyForcibly();
                long killed = System.nanoTime();
                // The peer's lease is the link's default, not Cyclone's 10 s.
                await().atMost(DdsLinkSettings.DEFAULT_LEASE.plus(MARGIN))
                        .until(() -> alpha.state(BRAVO) == LinkState.DOWN);
                long downAfterKill = System.nanoTime() - killed;
                assertThat(atAlpha.states).containsExactly("bravo=up", "bravo=down", "bravo=up", "bravo=down");

                System.out.printf("dds WAN link, two processes on loopback, datagrams <= 1400 B: peer UP %d ms after "
                        + "its JVM started; %d frames (1-4000 B and one 64 KiB) echoed in %d ms; 64 KiB round trip "
                        + "%.1f ms on average; DOWN %d ms after the peer closed, %d ms after it was killed%n",
                        up / 1_000_000, frames.size(), echoed / 1_000_000, roundTrips / 20 / 1e6,
                        downAfterClose / 1_000_000, downAfterKill / 1_000_000);
            }
            finally {
                peer.destroyForcibly();
                peer.waitFor(30, TimeUnit.SECONDS);
            }
        }
    }

    @Test
    void aKilledPeerIsDownWhenTheLeaseItAnnouncedRunsOut() throws Exception {
        Duration lease = Duration.ofSeconds(2);
        DdsWanLinkTest.Recorder atAlpha = new DdsWanLinkTest.Recorder();
        // Alpha's own lease and a long peer timeout: only bravo's lease can put bravo DOWN.
        try (DdsWanLink alpha = new DdsWanLink(DdsWanLinkTest.settings(ALPHA, BRAVO).peerTimeout(Duration.ofSeconds(60))
                .build())) {
            alpha.open(atAlpha);
            Process peer = startPeer(lease.toString());
            try {
                await().atMost(Duration.ofSeconds(30)).until(() -> alpha.state(BRAVO) == LinkState.UP);
                // An echo just before the kill: alpha heard from bravo last then, so the lease runs from there.
                alpha.send(BRAVO, new byte[] {1});
                await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(1))
                        .until(() -> atAlpha.frames.size() == 1);
                peer.destroyForcibly();
                long killed = System.nanoTime();
                await().atMost(lease.plus(MARGIN)).pollInterval(Duration.ofMillis(10))
                        .until(() -> alpha.state(BRAVO) == LinkState.DOWN);
                Duration down = Duration.ofNanos(System.nanoTime() - killed);
                assertThat(down).as("DOWN by the lease, not sooner").isGreaterThan(lease.minus(MARGIN));
                assertThat(atAlpha.states).containsExactly("bravo=up", "bravo=down");
                System.out.printf("dds WAN link: a peer with a %d ms lease was DOWN %d ms after it was killed%n",
                        lease.toMillis(), down.toMillis());
            }
            finally {
                peer.destroyForcibly();
                peer.waitFor(30, TimeUnit.SECONDS);
            }
        }
    }

    /** @param options {@link LinkPeerMain}'s optional arguments: the lease */
    private static Process startPeer(String... options) throws IOException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> command = new ArrayList<>(List.of(java, "--enable-native-access=ALL-UNNAMED", "-cp",
                System.getProperty("java.class.path"), LinkPeerMain.class.getName(),
                Integer.toString(DdsWanLinkTest.wanDomainId()), BRAVO.value(), ALPHA.value()));
        command.addAll(List.of(options));
        return new ProcessBuilder(command).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
    }
}
