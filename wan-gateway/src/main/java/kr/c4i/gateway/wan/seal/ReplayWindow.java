package kr.c4i.gateway.wan.seal;

import java.util.Arrays;

/**
 * The frames of one peer site already accepted: the newest sender epoch and, within it, a sliding window of
 * {@value #SIZE} counters below the highest seen (bounded memory, as IPsec's anti-replay window). A frame of an older
 * epoch is refused once a newer one was accepted; a counter seen before, or one {@value #SIZE} or more behind the
 * highest, is a replay. Not thread-safe: its owner holds the lock.
 */
final class ReplayWindow {

    /** Counters remembered behind the highest: frames a link may reorder or redeliver that far are still taken. */
    static final int SIZE = 1024;

    enum Verdict {
        FRESH, REPLAY, OLD_EPOCH
    }

    private long epoch;
    private long highest = -1;
    private final long[] seen = new long[SIZE / 64];

    /** Whether a frame of {@code epoch} with {@code counter} would be accepted now. */
    Verdict check(long epoch, long counter) {
        if (epoch < this.epoch) {
            return Verdict.OLD_EPOCH;
        }
        if (epoch > this.epoch || counter > highest) {
            return Verdict.FRESH;
        }
        if (highest - counter >= SIZE || isSet(counter)) {
            return Verdict.REPLAY;
        }
        return Verdict.FRESH;
    }

    /** Notes a frame accepted; {@link #check} must have said {@link Verdict#FRESH}. */
    void accept(long epoch, long counter) {
        if (epoch > this.epoch) {
            this.epoch = epoch;
            this.highest = -1;
            Arrays.fill(seen, 0);
        }
        if (counter > highest) {
            long advance = counter - highest;
            if (advance >= SIZE) {
                Arrays.fill(seen, 0);
            }
            else {
                for (long c = highest + 1; c <= counter; c++) {
                    clear(c);
                }
            }
            highest = counter;
        }
        set(counter);
    }

    long epoch() {
        return epoch;
    }

    /** A copy to go back to when what was accepted after it must be taken back. */
    ReplayWindow copy() {
        ReplayWindow copy = new ReplayWindow();
        copy.restore(this);
        return copy;
    }

    void restore(ReplayWindow other) {
        this.epoch = other.epoch;
        this.highest = other.highest;
        System.arraycopy(other.seen, 0, this.seen, 0, seen.length);
    }

    private boolean isSet(long counter) {
        int bit = (int) (counter % SIZE);
        return (seen[bit >>> 6] & (1L << bit)) != 0;
    }

    private void set(long counter) {
        int bit = (int) (counter % SIZE);
        seen[bit >>> 6] |= 1L << bit;
    }

    private void clear(long counter) {
        int bit = (int) (counter % SIZE);
        seen[bit >>> 6] &= ~(1L << bit);
    }
}
