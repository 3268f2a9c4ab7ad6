package kr.c4i.gateway.dds.transport;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Set;

import org.junit.jupiter.api.Test;

import kr.c4i.gateway.dds.transport.DdsTransportSettings.HandshakeRecovery;

class ParticipantRecreationTest {

    private static final long SECOND = 1_000_000_000L;
    private static final HandshakeRecovery RECOVERY = new HandshakeRecovery(true, Duration.ofSeconds(10),
            Duration.ofSeconds(35), Duration.ofSeconds(60));

    private final ParticipantRecreation recreation = new ParticipantRecreation(RECOVERY);

    @Test
    void aFailedHandshakeRecreatesTheParticipantOnceItHasLastedTheDelay() {
        assertThat(this.recreation.due(100 * SECOND, Set.of("a"))).isEmpty();
        assertThat(this.recreation.due(109 * SECOND, Set.of("a"))).isEmpty();
        assertThat(this.recreation.pending(109 * SECOND)).containsEntry("a", Duration.ofSeconds(1));
        assertThat(this.recreation.due(110 * SECOND, Set.of("a"))).containsExactly("a");
    }

    @Test
    void aRemoteParticipantThatLeftRecreatesNothingAndStartsItsWaitAgainIfItFailsAgain() {
        this.recreation.due(0, Set.of("a"));
        assertThat(this.recreation.due(5 * SECOND, Set.of())).isEmpty();
        assertThat(this.recreation.pending(5 * SECOND)).isEmpty();
        this.recreation.due(6 * SECOND, Set.of("a"));
        assertThat(this.recreation.due(15 * SECOND, Set.of("a"))).isEmpty();
        assertThat(this.recreation.due(16 * SECOND, Set.of("a"))).containsExactly("a");
    }

    @Test
    void theSameRemoteParticipantWaitsTwiceAsLongEachTimeUpToTheMaximum() {
        this.recreation.recreating(0, Set.of("a"));
        assertThat(this.recreation.wait("a")).isEqualTo(Duration.ofSeconds(20));
        assertThat(this.recreation.wait("b")).isEqualTo(Duration.ofSeconds(10));
        this.recreation.recreating(100 * SECOND, Set.of("a"));
        this.recreation.recreating(200 * SECOND, Set.of("a"));
        assertThat(this.recreation.wait("a")).isEqualTo(Duration.ofSeconds(35));

        this.recreation.due(300 * SECOND, Set.of("a", "b"));
        assertThat(this.recreation.due(310 * SECOND, Set.of("a", "b"))).containsExactly("b");
        assertThat(this.recreation.due(335 * SECOND, Set.of("a", "b"))).containsExactly("a", "b");
    }

    @Test
    void recreationsAreAtLeastTheLeastIntervalApart() {
        this.recreation.recreating(0, Set.of("a"));
        this.recreation.due(10 * SECOND, Set.of("b"));
        assertThat(this.recreation.due(59 * SECOND, Set.of("b"))).isEmpty();
        assertThat(this.recreation.pending(59 * SECOND)).containsEntry("b", Duration.ofSeconds(1));
        assertThat(this.recreation.due(60 * SECOND, Set.of("b"))).containsExactly("b");
    }

    @Test
    void aRecreationStartsEveryWaitAfresh() {
        this.recreation.due(0, Set.of("a", "b"));
        this.recreation.recreating(10 * SECOND, Set.of("a"));
        // The new participant has failed with nobody yet: "b" was the old one's.
        assertThat(this.recreation.pending(10 * SECOND)).isEmpty();
    }

    @Test
    void theRemoteParticipantLookedAtLeastRecentlyIsForgottenFirst() {
        this.recreation.recreating(0, Set.of("a", "b"));
        for (int i = 2; i < ParticipantRecreation.MAX_REMEMBERED; i++) {
            this.recreation.recreating(0, Set.of("r" + i));
        }
        // Reading "a"'s wait renews it, so "b" goes when one more is remembered.
        assertThat(this.recreation.wait("a")).isEqualTo(Duration.ofSeconds(20));
        this.recreation.recreating(0, Set.of("c"));
        assertThat(this.recreation.wait("a")).isEqualTo(Duration.ofSeconds(20));
        assertThat(this.recreation.wait("b")).isEqualTo(Duration.ofSeconds(10));
        assertThat(this.recreation.wait("c")).isEqualTo(Duration.ofSeconds(20));
    }

    @Test
    void nothingIsRecreatedWhenRecoveryIsOff() {
        ParticipantRecreation off = new ParticipantRecreation(new HandshakeRecovery(false, Duration.ofSeconds(10),
                Duration.ofSeconds(10), Duration.ZERO));
        off.due(0, Set.of("a"));
        assertThat(off.due(3_600 * SECOND, Set.of("a"))).isEmpty();
    }
}
