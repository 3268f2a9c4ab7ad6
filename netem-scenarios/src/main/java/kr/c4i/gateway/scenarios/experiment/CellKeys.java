package kr.c4i.gateway.scenarios.experiment;

/** Keys of the cells in result files, built in one place so reports find them. */
public final class CellKeys {

    /** The recovery experiment's only cell. */
    public static final String RECOVERY = "1:1";

    /** The lossless run of the loss experiment that measures wire bytes per message. */
    public static final String CALIBRATION = "calibration";

    private CellKeys() {
    }

    public static String fanOut(int subscribers) {
        return "1:" + subscribers;
    }

    public static String loss(LossCell cell) {
        return cell.key();
    }

    /**
     * A wan cell: its loss cell's or the outage's key, the WAN delay if any and the variant unless today's bodies
     * ({@code 10% 2 Mbit/s, 250 ms delay, mix}).
     */
    public static String wan(String key, java.time.Duration delay, WanVariant variant) {
        return variant.key(delayed(key, delay));
    }

    /** A cell's key with the WAN delay added, unchanged without one (so undelayed keys stay as they were). */
    private static String delayed(String key, java.time.Duration delay) {
        return delay.isZero() ? key : key + ", " + delay.toMillis() + " ms delay";
    }
}
