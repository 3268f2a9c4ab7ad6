package kr.c4i.gateway.norm.link;

/**
 * How many parity segments go with every frame, from the loss measured on the way to the peer. Each frame is one
 * NORM object of one segment, so with k parity segments it needs a repair round (a NACK and a repair, a round trip
 * each) only when all k+1 packets are lost: with independent loss p, p^(k+1). The policy sends the fewest that keep
 * that chance under the target, at most the configured maximum.
 *
 * <p><b>Hysteresis.</b> Parity rises as soon as the measured loss calls for more: a frame that needs a repair round
 * costs its messages a round trip, a FLASH one's too. It comes down only once even the target divided by
 * {@value #LOWER_MARGIN} would be met with fewer, so an estimate that wavers around a threshold does not switch the
 * parity (and double a frame's bytes) back and forth. With a 1% target: loss p from 1% needs 1 segment, from 10% 2,
 * from 21.5% 3, from 31.6% 4; they come down below 0.25%, 5%, 13.6% and 22.4%.
 */
final class ParityPolicy {

    /** The parity comes down only when it would meet the target divided by this with fewer segments. */
    static final int LOWER_MARGIN = 4;

    private final int maxParity;
    private final double target;

    /**
     * @param maxParity the most parity segments per frame, at most the parity NORM may compute per block
     * @param target the chance, in (0, 1), that a frame needs a repair round despite its parity
     */
    ParityPolicy(int maxParity, double target) {
        if (maxParity < 0) {
            throw new IllegalArgumentException("The most parity segments must be at least 0, was " + maxParity);
        }
        if (!(target > 0 && target < 1)) {
            throw new IllegalArgumentException("The parity target must be in (0, 1), was " + target);
        }
        this.maxParity = maxParity;
        this.target = target;
    }

    /** The parity for the measured loss {@code loss} (0 to 1), starting from {@code current}. */
    int next(int current, double loss) {
        if (!(loss >= 0 && loss <= 1)) {
            throw new IllegalArgumentException("A measured loss must be in [0, 1], was " + loss);
        }
        int needed = parityFor(loss, this.target);
        int kept = parityFor(loss, this.target / LOWER_MARGIN);
        return Math.clamp(current, needed, kept);
    }

    /** The fewest parity segments k, up to the maximum, for which loss^(k+1) is under {@code target}. */
    int parityFor(double loss, double target) {
        double lostDespiteParity = loss;
        for (int k = 0; k < this.maxParity; k++) {
            if (lostDespiteParity < target) {
                return k;
            }
            lostDespiteParity *= loss;
        }
        return this.maxParity;
    }

    int maxParity() {
        return this.maxParity;
    }

    double target() {
        return this.target;
    }
}
