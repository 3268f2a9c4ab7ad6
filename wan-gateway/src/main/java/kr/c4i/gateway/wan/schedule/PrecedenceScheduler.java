package kr.c4i.gateway.wan.schedule;

import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;

import org.jspecify.annotations.Nullable;

import kr.c4i.gateway.kmtf.catalogue.Precedence;

/**
 * Chooses which copies of one route's {@link Backlog} go next: FLASH before IMMEDIATE before PRIORITY before
 * ROUTINE, strictly, except for a floor: each lower precedence with copies waiting earns {@code floor} of every
 * byte sent while it is held back, and is served as soon as its earnings cover its next copy, so over time it gets
 * at least that share and is never starved for ever. Within one precedence, deficit round robin by bytes across
 * types (a type with a flood does not starve a type with one message). Deterministic for a given backlog.
 *
 * <p>Used by the route's one sender thread; not thread-safe.
 */
public final class PrecedenceScheduler {

    /** The floor share of each lower precedence when nothing is configured: 5 % of the bytes sent. */
    public static final double DEFAULT_FLOOR = 0.05;

    /** The highest floor: with three lower precedences at 25 % each, FLASH still gets a quarter of the link. */
    public static final double MAX_FLOOR = 0.25;

    /** The round-robin quantum when nothing is configured: about one Ethernet frame. */
    public static final int DEFAULT_QUANTUM_BYTES = 1500;

    /** At most this many expired copies are taken in one call, so one call stays short after a long outage. */
    static final int MAX_EXPIRED_PER_CALL = 1000;

    private static final long PPM = 1_000_000;
    private static final Precedence[] LEVELS = Precedence.values();

    private final Backlog backlog;
    private final long floorPpm;
    private final ExpiryRule expiry;
    private final InstantSource clock;
    private final TypeRotation[] rotations = new TypeRotation[LEVELS.length];
    // Floor earnings in byte-millionths, per precedence; only a precedence held back by a higher one earns.
    private final long[] earned = new long[LEVELS.length];

    /**
     * @param floor the share of bytes each lower precedence with copies waiting gets at least, 0 (strict
     *        precedence) to {@link #MAX_FLOOR}
     * @param quantumBytes the round-robin quantum across types, at least 1
     * @param expiry which waiting copies are not worth sending any more
     * @param clock the time expiry is judged at
     */
    public PrecedenceScheduler(Backlog backlog, double floor, int quantumBytes, ExpiryRule expiry,
            InstantSource clock) {
        if (!(floor >= 0 && floor <= MAX_FLOOR)) {
            throw new IllegalArgumentException("The precedence floor must be between 0 and " + MAX_FLOOR + ", was "
                    + floor);
        }
        if (quantumBytes < 1) {
            throw new IllegalArgumentException("The round-robin quantum must be at least 1 byte, was " + quantumBytes);
        }
        this.backlog = backlog;
        this.floorPpm = Math.round(floor * PPM);
        this.expiry = expiry;
        this.clock = clock;
        for (Precedence level : LEVELS) {
            this.rotations[level.ordinal()] = new TypeRotation(backlog, level, quantumBytes);
        }
    }

    /** A scheduler with the default floor and quantum and no expiry. */
    public PrecedenceScheduler(Backlog backlog) {
        this(backlog, DEFAULT_FLOOR, DEFAULT_QUANTUM_BYTES, ExpiryRule.NEVER, InstantSource.system());
    }

    /**
     * Takes the copies to send next, for one frame: in order, at most {@code min(creditBytes, frameTargetBytes)}
     * in total, but at least one copy whenever {@code creditBytes > 0} and a copy waits (a copy larger than that
     * goes alone, so it is never stuck). Stops at the first copy that does not fit rather than passing it, so a
     * small lower copy never overtakes a large higher one. Copies found expired on the way are taken and returned
     * apart (at most {@value #MAX_EXPIRED_PER_CALL} per call; a batch of only expired copies means: call again).
     * Everything returned has been {@link Backlog#take taken}.
     */
    public Batch next(long creditBytes, int frameTargetBytes) {
        if (creditBytes <= 0) {
            return Batch.EMPTY;
        }
        long limit = Math.min(creditBytes, frameTargetBytes);
        Instant now = this.clock.instant();
        List<Waiting> copies = new ArrayList<>();
        List<Waiting> expired = new ArrayList<>();
        long bytes = 0;
        while (bytes < limit && expired.size() < MAX_EXPIRED_PER_CALL) {
            Choice choice = choose();
            if (choice == null) {
                break;
            }
            Waiting copy = choice.copy();
            if (this.expiry.expired(copy, now)) {
                this.backlog.take(copy);
                expired.add(copy);
                continue;
            }
            if (!copies.isEmpty() && bytes + copy.bytes() > limit) {
                break;
            }
            this.backlog.take(copy);
            charge(choice);
            copies.add(copy);
            bytes += copy.bytes();
        }
        return new Batch(copies, expired);
    }

    private @Nullable Choice choose() {
        @Nullable Waiting[] candidates = new Waiting[LEVELS.length];
        int top = -1;
        for (int level = 0; level < LEVELS.length; level++) {
            candidates[level] = this.rotations[level].candidate();
            if (candidates[level] == null) {
                this.earned[level] = 0;
            }
            else if (top < 0) {
                top = level;
                this.earned[level] = 0;
            }
        }
        if (top < 0) {
            return null;
        }
        for (int level = top + 1; level < LEVELS.length; level++) {
            Waiting candidate = candidates[level];
            if (candidate != null && this.floorPpm > 0 && this.earned[level] >= candidate.bytes() * PPM) {
                return new Choice(level, candidate, true, held(candidates, top));
            }
        }
        return new Choice(top, candidates[top], false, held(candidates, top));
    }

    private void charge(Choice choice) {
        long bytes = choice.copy().bytes();
        for (int level = 0; level < LEVELS.length; level++) {
            if (choice.held()[level]) {
                this.earned[level] += this.floorPpm * bytes;
            }
        }
        if (choice.byFloor()) {
            this.earned[choice.level()] -= bytes * PPM;
        }
        this.rotations[choice.level()].served(choice.copy());
    }

    private static boolean[] held(@Nullable Waiting[] candidates, int top) {
        boolean[] held = new boolean[candidates.length];
        for (int level = top + 1; level < candidates.length; level++) {
            held[level] = candidates[level] != null;
        }
        return held;
    }

    /** A copy chosen, at which precedence, whether on the floor, and which precedences were held back. */
    private record Choice(int level, Waiting copy, boolean byFloor, boolean[] held) {
    }
}
