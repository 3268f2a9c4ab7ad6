package kr.c4i.gateway.scenarios.report;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import kr.c4i.gateway.scenarios.experiment.CellKeys;
import kr.c4i.gateway.scenarios.experiment.ExperimentKind;
import kr.c4i.gateway.scenarios.experiment.LossCell;
import kr.c4i.gateway.scenarios.experiment.Metrics;
import kr.c4i.gateway.scenarios.experiment.RepetitionResult;
import kr.c4i.gateway.scenarios.experiment.RunPlan;
import kr.c4i.gateway.scenarios.experiment.RunResult;
import kr.c4i.gateway.scenarios.experiment.RunSetup;
import kr.c4i.gateway.core.transport.TransportKind;

/** Synthetic runs for report tests: two repetitions per cell with known numbers. */
final class SampleRuns {

    static final Instant T = Instant.parse("2026-11-21T12:00:00Z");

    private SampleRuns() {
    }

    /** A run in which DDS meets every target. */
    static RunResult ddsWins() {
        return run(300, 1000, 180_000, 190_000, 0.9, true);
    }

    /** DDS slow to recover, multicast not working, loss cells incomplete. */
    static RunResult ddsLoses() {
        return run(4000, 1000, 280_000, 900_000, 0.3, false);
    }

    static RunResult run(double ddsResponse, double jmsResponse, double ddsBytes1, double ddsBytes5,
            double ddsEfficiency, boolean ddsComplete) {
        RunPlan plan = RunPlan.quick(List.of(ExperimentKind.values()), List.of(TransportKind.JMS, TransportKind.DDS));
        List<RepetitionResult> reps = new ArrayList<>();
        for (int r = 1; r <= 2; r++) {
            double wobble = r == 1 ? 0.9 : 1.1;
            reps.add(rep(ExperimentKind.RECOVERY, "jms", CellKeys.RECOVERY, r, 200, 200, Map.of(Metrics.RESPONSE_MS,
                    jmsResponse * wobble, Metrics.RECONNECT_MS, jmsResponse * 0.8, Metrics.BOOT_MS, 9000.0)));
            reps.add(rep(ExperimentKind.RECOVERY, "dds", CellKeys.RECOVERY, r, 200, 200, Map.of(Metrics.RESPONSE_MS,
                    ddsResponse * wobble, Metrics.RECONNECT_MS, ddsResponse * 0.5, Metrics.BOOT_MS, 9000.0)));
            for (int n : plan.subscribers()) {
                double jmsBytes = 250_000.0 * n;
                double ddsBytes = n == 1 ? ddsBytes1 : ddsBytes1 + (ddsBytes5 - ddsBytes1) * (n - 1) / 4;
                reps.add(rep(ExperimentKind.FANOUT, "jms", CellKeys.fanOut(n), r, 200, 200, Map.of(Metrics.WIRE_BYTES,
                        jmsBytes * wobble, Metrics.BIT_RATE, jmsBytes * 8 / 1.5, Metrics.INTERVAL_MS, 1500.0)));
                reps.add(rep(ExperimentKind.FANOUT, "dds", CellKeys.fanOut(n), r, 200, 200, Map.of(Metrics.WIRE_BYTES,
                        ddsBytes * wobble, Metrics.BIT_RATE, ddsBytes * 8 / 0.5, Metrics.INTERVAL_MS, 500.0)));
            }
        }
        reps.add(rep(ExperimentKind.LOSS, "jms", CellKeys.CALIBRATION, 1, 200, 200, Map.of(Metrics.BYTES_PER_MESSAGE,
                1000.0)));
        reps.add(rep(ExperimentKind.LOSS, "dds", CellKeys.CALIBRATION, 1, 200, 200, Map.of(Metrics.BYTES_PER_MESSAGE,
                400.0)));
        for (LossCell cell : plan.lossCells()) {
            double capacity = cell.rate().bytesPerSecond() * (1 - cell.loss()) / 400.0;
            for (int r = 1; r <= 2; r++) {
                reps.add(rep(ExperimentKind.LOSS, "jms", cell.key(), r, 200, 200, Map.of(Metrics.MSG_PER_S,
                        capacity * 0.2, Metrics.MEASURED_LOSS, cell.loss())));
                reps.add(rep(ExperimentKind.LOSS, "dds", cell.key(), r, 200, ddsComplete ? 200 : 150,
                        Map.of(Metrics.MSG_PER_S, capacity * ddsEfficiency, Metrics.CAPACITY, capacity,
                                Metrics.MEASURED_LOSS, cell.loss())));
            }
        }
        for (LossCell cell : plan.wan().cells()) {
            reps.add(rep(ExperimentKind.WAN, "jms", cell.key(), 1, 200, 200, Map.of(Metrics.MSG_PER_S, 640.0,
                    Metrics.BUDGET_BPS, 1_912_814.0, Metrics.FLASH_P50_MS, 85.0, Metrics.FLASH_P99_MS, 240.0,
                    Metrics.FLASH_DELIVERED, 10.0, Metrics.BYTES_PER_MESSAGE, 120.0, Metrics.SENT_MS, 250.0,
                    Metrics.COMPRESSION_RATIO, 0.017)));
        }
        // norm at 10% x 2 Mbit/s (payload bound 1,125 msg/s): above the bound with FLASH p99 400 ms when DDS
        // wins; 900 msg/s (80%), 190 of 200 and p99 1,500 ms when it loses.
        for (LossCell cell : plan.wan().cells()) {
            reps.add(rep(ExperimentKind.WAN, "norm", cell.key(), 1, 200, ddsComplete ? 200 : 190, Map.of(
                    Metrics.MSG_PER_S, ddsComplete ? 1200.0 : 900.0, Metrics.BUDGET_BPS, 2_000_000.0,
                    Metrics.FLASH_P50_MS, 150.0, Metrics.FLASH_P99_MS, ddsComplete ? 400.0 : 1500.0,
                    Metrics.FLASH_DELIVERED, 10.0, Metrics.BYTES_PER_MESSAGE, 40.0, Metrics.SENT_MS, 200.0)));
        }
        reps.add(new RepetitionResult(ExperimentKind.WAN.key(), "norm", plan.wan().outageKey(), 1, T, 100, 100,
                new LinkedHashMap<>(Map.of(Metrics.DRAIN_MS, 300.0, Metrics.DRAIN_IN_ORDER, 0.5)),
                "drain order: ROUTINE x25, FLASH x25, IMMEDIATE x25, PRIORITY x25"));
        reps.add(new RepetitionResult(ExperimentKind.WAN.key(), "jms", plan.wan().outageKey(), 1, T, 100, 100,
                new LinkedHashMap<>(Map.of(Metrics.DRAIN_MS, 4200.0, Metrics.DRAIN_IN_ORDER, 0.97)),
                "drain order: ROUTINE x3, FLASH x25, IMMEDIATE x25, PRIORITY x25, ROUTINE x22"));
        RunSetup setup = new RunSetup("tc tbf + nftables", "bbr", 100, 6, "10.77.0.0/24",
                List.of(new RunSetup.Queue("2 Mbit/s", 50, 75_700, 1600, 302.8)), "6.18", 2, "25", "/x/node.jar",
                "384m", "recovery SITREP", List.of(), List.of(), true);
        return new RunResult("bin/scenarios run --quick", T, T.plusSeconds(300), plan, setup, reps, List.of());
    }

    private static RepetitionResult rep(ExperimentKind kind, String transport, String cell, int r, long expected,
            long delivered, Map<String, Double> metrics) {
        return new RepetitionResult(kind.key(), transport, cell, r, T, expected, delivered,
                new LinkedHashMap<>(metrics), "");
    }
}
