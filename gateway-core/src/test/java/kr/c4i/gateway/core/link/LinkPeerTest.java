package kr.c4i.gateway.core.link;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import kr.c4i.gateway.core.transport.TransportUnavailableException;

class LinkPeerTest {

    private final LinkPeer peer = new LinkPeer(SiteId.of("s2"));

    @Test
    void framesAreReleasedUpToWhatThePeerAcknowledged() {
        peer.up();
        assertThat(peer.sent(100)).isEqualTo(1);
        assertThat(peer.sent(200)).isEqualTo(2);
        assertThat(peer.sent(300)).isEqualTo(3);
        assertThat(peer.unacknowledgedBytes()).isEqualTo(600);

        assertThat(peer.acknowledged(2)).as("progress").isTrue();
        assertThat(peer.unacknowledgedBytes()).isEqualTo(300);
        assertThat(peer.unacknowledgedFrames()).isOne();
        assertThat(peer.acknowledged(1)).as("an older acknowledgement is no progress").isFalse();
        assertThat(peer.unacknowledgedBytes()).isEqualTo(300);
        assertThat(peer.details()).containsEntry("framesSent", 3L).containsEntry("bytesSent", 600L)
                .containsEntry("state", "up");
    }

    @Test
    void framesUnacknowledgedPastTheTimeoutAreOverdueAndGoingDownCountsThemLost() {
        peer.up();
        peer.sent(100);
        long now = System.nanoTime();
        assertThat(peer.overdue(now, Duration.ofHours(1))).isFalse();
        assertThat(peer.overdue(now + Duration.ofSeconds(2).toNanos(), Duration.ofSeconds(1))).isTrue();

        assertThat(peer.down(true)).isOne();
        assertThat(peer.state()).isEqualTo(LinkState.DOWN);
        assertThat(peer.stalled()).isTrue();
        assertThat(peer.unacknowledgedBytes()).isZero();
        assertThat(peer.overdue(now + Duration.ofSeconds(2).toNanos(), Duration.ofSeconds(1)))
                .as("a peer that is down is not overdue").isFalse();
        assertThat(peer.details()).containsEntry("framesLost", 1L);

        peer.sent(10);
        assertThat(peer.acknowledged(2)).isTrue();
        assertThat(peer.stalled()).as("progress ends a stall").isFalse();
    }

    @Test
    void sendsAreRefusedAndCountedUnlessThePeerIsUp() throws Exception {
        assertThatThrownBy(() -> peer.requireUp("norm")).isInstanceOf(TransportUnavailableException.class)
                .hasMessage("Peer site s2 of the norm WAN link is connecting");
        peer.up();
        peer.requireUp("norm");
        assertThat(peer.details()).containsEntry("sendRefusals", 1L);
    }
}
