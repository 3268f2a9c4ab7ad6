package kr.c4i.gateway.tools;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class JitWarmUpTest {

    /** Each round spends 100 units of the JVM's CPU, of which the compiler the next of {@code jitPerRound}. */
    private static JitWarmUp.Outcome warmUp(Duration limit, List<Integer> rounds, int... jitPerRound) throws Exception {
        AtomicLong process = new AtomicLong();
        AtomicLong jit = new AtomicLong();
        return new JitWarmUp(limit, process::get, jit::get).run((round) -> {
            process.addAndGet(100);
            jit.addAndGet(jitPerRound[round - 1]);
            return "round " + round;
        }, (round, what, share, took) -> rounds.add(round));
    }

    @Test
    void endsAfterTwoQuietRoundsInARowNotAfterTheFirstQuietOne() throws Exception {
        List<Integer> rounds = new ArrayList<>();
        JitWarmUp.Outcome outcome = warmUp(Duration.ofMinutes(1), rounds, 50, 4, 30, 4, 4, 90);
        assertThat(outcome.quiet()).isTrue();
        assertThat(outcome.rounds()).isEqualTo(5);
        assertThat(rounds).containsExactly(1, 2, 3, 4, 5);
    }

    @Test
    void aRoundAtFivePercentIsNotQuiet() throws Exception {
        JitWarmUp.Outcome outcome = warmUp(Duration.ofMinutes(1), new ArrayList<>(), 5, 5, 4, 4);
        assertThat(outcome.rounds()).isEqualTo(4);
    }

    @Test
    void givesUpWaitingWhenItsTimeIsUp() throws Exception {
        List<Integer> rounds = new ArrayList<>();
        JitWarmUp.Outcome outcome = warmUp(Duration.ZERO, rounds, 0, 0);
        assertThat(outcome.quiet()).isFalse();
        assertThat(outcome.rounds()).isEqualTo(1);
        assertThat(rounds).containsExactly(1);
    }
}
