package kr.c4i.gateway.core.link;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

import org.junit.jupiter.api.Test;

import kr.c4i.gateway.core.transport.TransportUnavailableException;

class LinkLifecycleTest {

    private static final SiteId ALPHA = SiteId.of("alpha");
    private static final SiteId BRAVO = SiteId.of("bravo");

    private final LinkLifecycle<String> lifecycle = new LinkLifecycle<>("dds", ALPHA);
    private final List<String> closed = new ArrayList<>();

    @Test
    void opensOnceTakesFramesOnlyWhileOpenAndClosesOnce() throws Exception {
        assertThatThrownBy(lifecycle::require).isInstanceOf(TransportUnavailableException.class)
                .hasMessage("The dds WAN link of site alpha is not open");
        assertThat(lifecycle.isOpen()).isFalse();
        assertThat(lifecycle.current()).isNull();

        assertThat(lifecycle.open(() -> "participant")).isEqualTo("participant");
        assertThat(lifecycle.require()).isEqualTo("participant");
        assertThat(lifecycle.isOpen()).isTrue();
        assertThatThrownBy(() -> lifecycle.open(() -> "another")).isInstanceOf(IllegalStateException.class)
                .hasMessage("The dds WAN link of site alpha is already open");

        assertThat(lifecycle.close(closed::add)).isTrue();
        assertThat(lifecycle.close(closed::add)).as("a second close").isFalse();
        assertThat(closed).containsExactly("participant");
        assertThat(lifecycle.isOpen()).isFalse();
        assertThat(lifecycle.isClosed()).isTrue();
        assertThat(lifecycle.current()).as("kept for its counters").isEqualTo("participant");
        assertThatThrownBy(lifecycle::require).isInstanceOf(TransportUnavailableException.class)
                .hasMessage("The dds WAN link of site alpha is closed");
        assertThatThrownBy(() -> lifecycle.open(() -> "again")).isInstanceOf(IllegalStateException.class)
                .hasMessage("The dds WAN link of site alpha is closed");
    }

    @Test
    void anOpenerThatFailsLeavesTheLinkNotOpenSoItCanBeOpenedAgain() throws Exception {
        assertThatThrownBy(() -> lifecycle.open(() -> {
            throw new TransportUnavailableException("Unable to open: address taken", null);
        })).isInstanceOf(TransportUnavailableException.class).hasMessage("Unable to open: address taken");
        assertThat(lifecycle.isOpen()).isFalse();

        assertThat(lifecycle.open(() -> "second try")).isEqualTo("second try");
        assertThat(lifecycle.isOpen()).isTrue();
    }

    @Test
    void closingALinkNeverOpenedClosesNothingAndStopsWhatWouldStartAheadOfOpen() throws Exception {
        List<String> started = new ArrayList<>();
        lifecycle.beforeOpen(() -> started.add("broker"));
        assertThat(started).containsExactly("broker");

        assertThat(lifecycle.close(closed::add)).isTrue();
        assertThat(closed).isEmpty();
        assertThatThrownBy(() -> lifecycle.beforeOpen(() -> started.add("broker again")))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("closed");
        assertThat(started).containsExactly("broker");
    }

    @Test
    void namesTheUnknownPeerAndTheOversizeFrame() {
        Map<SiteId, String> peers = Map.of(BRAVO, "10.0.0.2");
        assertThat(lifecycle.peer(peers, BRAVO)).isEqualTo("10.0.0.2");
        assertThatThrownBy(() -> lifecycle.peer(peers, SiteId.of("zulu"))).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Unknown peer site zulu: the dds WAN link of site alpha reaches [bravo]");

        lifecycle.checkFrame(1000, 1000);
        assertThatThrownBy(() -> lifecycle.checkFrame(1001, 1000)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("A frame of 1001 bytes exceeds maxFrameBytes (1000) of the dds WAN link");
    }

    @Test
    void waitsForAReceiveThreadThatReturnsAndGivesUpOnOneThatDoesNot() throws Exception {
        Thread returns = Thread.ofPlatform().start(() -> { });
        assertThat(LinkLifecycle.awaitReceiveThread(returns)).isTrue();
        assertThat(LinkLifecycle.awaitReceiveThread(Thread.currentThread())).as("closed from the thread itself")
                .isTrue();

        CountDownLatch release = new CountDownLatch(1);
        Thread stuck = Thread.ofPlatform().daemon(true).start(() -> {
            try {
                release.await();
            }
            catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
            }
        });
        try {
            assertThat(LinkLifecycle.awaitReceiveThread(stuck)).as("still in the handler after the wait").isFalse();
        }
        finally {
            release.countDown();
        }
    }
}
