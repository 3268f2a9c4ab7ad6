package kr.c4i.gateway.scenarios.report;

import java.util.Map;

/**
 * The study's published numbers (Lee and Ko, JKIIT 18(8), 2020, Tables 2-5): mean and standard deviation of 15
 * runs. "TCP" is the JMS system, "CoreDDS" the DDS system.
 */
public final class StudyFigures {

    /**
     * A published mean and standard deviation.
     *
     * @param mean the table's mean
     * @param sd the table's standard deviation
     */
    public record Figure(double mean, double sd) {
    }

    /** Table 2: response time (ms) when a node recovers after an emergency stop. */
    public static final Figure RECOVERY_JMS = new Figure(52_319, 6_104);
    public static final Figure RECOVERY_DDS = new Figure(2_665, 1_481);

    /** Table 3: bandwidth (bps) for 1:N, by N. */
    public static final Map<Integer, Figure> BANDWIDTH_JMS = Map.of(1, new Figure(1_349_168, 5_415), 3,
            new Figure(4_204_790, 8_400), 5, new Figure(6_918_271, 111_514));
    public static final Map<Integer, Figure> BANDWIDTH_DDS = Map.of(1, new Figure(2_186_864, 19_617), 3,
            new Figure(4_109_042, 54_854), 5, new Figure(4_477_420, 199_468));

    /** Tables 4 and 5: messages per second, by loss percent then link rate in bit/s. */
    public static final Map<Integer, Map<Long, Figure>> LOSS_JMS = Map.of(
            10, Map.of(128_000L, new Figure(69, 24), 256_000L, new Figure(147, 28), 2_000_000L, new Figure(961, 203)),
            30, Map.of(128_000L, new Figure(26, 34), 256_000L, new Figure(27, 49), 2_000_000L, new Figure(25, 57)));
    public static final Map<Integer, Map<Long, Figure>> LOSS_DDS = Map.of(
            10, Map.of(128_000L, new Figure(34, 45), 256_000L, new Figure(59, 76), 2_000_000L, new Figure(594, 212)),
            30, Map.of(128_000L, new Figure(19, 28), 256_000L, new Figure(49, 70), 2_000_000L, new Figure(334, 114)));

    private StudyFigures() {
    }

    public static Figure recovery(String transport) {
        return transport.equals("dds") ? RECOVERY_DDS : RECOVERY_JMS;
    }

    public static Figure bandwidth(String transport, int subscribers) {
        return (transport.equals("dds") ? BANDWIDTH_DDS : BANDWIDTH_JMS).get(subscribers);
    }

    public static Figure loss(String transport, double loss, long bitsPerSecond) {
        Map<Long, Figure> byRate = (transport.equals("dds") ? LOSS_DDS : LOSS_JMS).get((int) Math.round(loss * 100));
        return byRate == null ? null : byRate.get(bitsPerSecond);
    }
}
