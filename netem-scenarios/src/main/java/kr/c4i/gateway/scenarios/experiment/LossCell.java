package kr.c4i.gateway.scenarios.experiment;

import kr.c4i.gateway.scenarios.net.Rate;

/**
 * One cell of the loss experiment.
 *
 * @param loss random loss on every host's outgoing link, e.g. 0.1
 * @param rate link rate
 */
public record LossCell(double loss, Rate rate) {

    public LossCell {
        if (!(loss >= 0 && loss < 1)) {
            throw new IllegalArgumentException("loss must be in [0, 1), was " + loss);
        }
    }

    /**
     * What the link could carry if it sent nothing but message text: rate x (1 - loss) / (8 x size) messages per
     * second.
     */
    public double payloadBound(int size) {
        return rate.bitsPerSecond() * (1 - loss) / (8.0 * size);
    }

    /** {@code 10% 128 kbit/s}: the key of the cell in result files. */
    public String key() {
        return Math.round(loss * 100) + "% " + rate.label();
    }
}
