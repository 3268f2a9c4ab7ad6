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
}
