package kr.c4i.gateway.tools;

import java.time.Duration;
import java.util.function.LongSupplier;

/**
 * Rounds of a benchmark's load until the JIT compiler has done its work, so that the measured phase counts compiled
 * code and not the compiler compiling it: the warm-up ends after {@value #QUIET_ROUNDS} rounds in a row in which the
 * compiler took under 5% of the JVM's CPU, or when its time is up.
 *
 * <p>One quiet round is not enough: the tiered compiler works in bursts (a whole broker's code reaches C2 over a
 * minute or more), so a single round under 5% was followed by a measured phase in which the compiler still took 18%
 * of the JVM.
 */
public final class JitWarmUp {

    /** A round in which the compiler took less than this share of the JVM's CPU is a quiet one. */
    static final double QUIET_SHARE = 0.05;

    static final int QUIET_ROUNDS = 2;

    private final Duration limit;

    private final LongSupplier processNanos;

    private final LongSupplier jitNanos;

    /** @param limit how long the rounds may go on before the warm-up gives up waiting for a quiet compiler */
    public JitWarmUp(Duration limit) {
        this(limit, JvmCpu::processNanos, JvmCpu::jitNanos);
    }

    JitWarmUp(Duration limit, LongSupplier processNanos, LongSupplier jitNanos) {
        this.limit = limit;
        this.processNanos = processNanos;
        this.jitNanos = jitNanos;
    }

    /** One round of load; returns what the round line should say of it, such as how many messages it moved. */
    @FunctionalInterface
    public interface Round {

        String run(int round) throws Exception;
    }

    /** Where a round's line goes. */
    @FunctionalInterface
    public interface Progress {

        void round(int round, String what, double jitShare, Duration took);
    }

    /** How the warm-up ended. */
    public record Outcome(int rounds, boolean quiet, Duration took) {
    }

    /** Runs rounds until the compiler is quiet or the limit has passed, each round's line to {@code progress}. */
    public Outcome run(Round round, Progress progress) throws Exception {
        long start = System.nanoTime();
        int quietInARow = 0;
        int rounds = 0;
        while (true) {
            rounds++;
            long cpu = this.processNanos.getAsLong();
            long jit = this.jitNanos.getAsLong();
            long roundStart = System.nanoTime();
            String what = round.run(rounds);
            Duration took = Duration.ofNanos(System.nanoTime() - roundStart);
            double share = (this.jitNanos.getAsLong() - jit) / (double) Math.max(1, this.processNanos.getAsLong() - cpu);
            progress.round(rounds, what, share, took);
            quietInARow = (share < QUIET_SHARE) ? quietInARow + 1 : 0;
            Duration elapsed = Duration.ofNanos(System.nanoTime() - start);
            if (quietInARow >= QUIET_ROUNDS) {
                return new Outcome(rounds, true, elapsed);
            }
            if (elapsed.compareTo(this.limit) >= 0) {
                return new Outcome(rounds, false, elapsed);
            }
        }
    }
}
