package kr.c4i.gateway.wan.seal;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

import kr.c4i.gateway.wan.seal.ReplayWindow.Verdict;

class ReplayWindowTest {

    private final ReplayWindow window = new ReplayWindow();

    @Test
    void eachCounterIsTakenOnceInAnyOrderWithinTheWindow() {
        long[] order = { 0, 1, 5, 3, 2, 4, 1000, 6 };
        for (long counter : order) {
            assertThat(window.check(7, counter)).as("counter %d first", counter).isEqualTo(Verdict.FRESH);
            window.accept(7, counter);
            assertThat(window.check(7, counter)).as("counter %d again", counter).isEqualTo(Verdict.REPLAY);
        }
        assertThat(window.check(7, 7)).isEqualTo(Verdict.FRESH);
        for (long counter : order) {
            assertThat(window.check(7, counter)).as("counter %d at the end", counter).isEqualTo(Verdict.REPLAY);
        }
    }

    @Test
    void aCounterAWholeWindowBehindTheHighestIsRefusedThoughNeverSeen() {
        window.accept(7, 0);
        window.accept(7, ReplayWindow.SIZE + 10L);

        assertThat(window.check(7, 10)).isEqualTo(Verdict.REPLAY);
        assertThat(window.check(7, 11)).isEqualTo(Verdict.FRESH);
        // A counter that shares its slot with one far behind is not mistaken for it.
        assertThat(window.check(7, ReplayWindow.SIZE)).isEqualTo(Verdict.FRESH);
    }

    @Test
    void aJumpPastTheWholeWindowForgetsWhatWasSeen() {
        for (long c = 0; c < 50; c++) {
            window.accept(7, c);
        }
        long far = 10L * ReplayWindow.SIZE + 3;
        window.accept(7, far);

        assertThat(window.check(7, far - 1)).isEqualTo(Verdict.FRESH);
        assertThat(window.check(7, far - ReplayWindow.SIZE + 1)).isEqualTo(Verdict.FRESH);
        assertThat(window.check(7, far)).isEqualTo(Verdict.REPLAY);
    }

    @Test
    void aNewerEpochStartsAfreshAndAnOlderOneIsRefusedAfterIt() {
        window.accept(7, 0);
        window.accept(7, 1);

        assertThat(window.check(9, 0)).isEqualTo(Verdict.FRESH);
        window.accept(9, 0);

        assertThat(window.check(9, 0)).isEqualTo(Verdict.REPLAY);
        assertThat(window.check(9, 1)).isEqualTo(Verdict.FRESH);
        assertThat(window.check(7, 2)).isEqualTo(Verdict.OLD_EPOCH);
        assertThat(window.check(8, 0)).isEqualTo(Verdict.OLD_EPOCH);
    }

    @Test
    void aCopyRestoresWhatWasAcceptedBefore() {
        window.accept(7, 0);
        ReplayWindow before = window.copy();
        window.accept(7, 1);
        window.accept(9, 0);

        window.restore(before);

        assertThat(window.check(7, 1)).isEqualTo(Verdict.FRESH);
        assertThat(window.check(7, 0)).isEqualTo(Verdict.REPLAY);
        assertThat(window.epoch()).isEqualTo(7);
    }
}
