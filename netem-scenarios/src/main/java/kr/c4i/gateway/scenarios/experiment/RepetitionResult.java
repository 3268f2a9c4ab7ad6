package kr.c4i.gateway.scenarios.experiment;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What one repetition of one cell measured.
 *
 * @param experiment the experiment's key
 * @param transport the transport's key
 * @param cell the cell's key ({@code 1:1}, {@code 1:3}, {@code 10% 128 kbit/s}, {@code calibration})
 * @param repetition 1-based
 * @param startedAt when the repetition started
 * @param expected messages each receiver should get
 * @param delivered messages the (slowest) receiver got in time
 * @param metrics measured values by name (see {@link Metrics}); absent when not measured
 * @param note what went unusually, or empty
 */
public record RepetitionResult(String experiment, String transport, String cell, int repetition, Instant startedAt,
        long expected, long delivered, Map<String, Double> metrics, String note) {

    public RepetitionResult {
        metrics = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(metrics));
        note = note == null ? "" : note;
    }

    public boolean complete() {
        return delivered >= expected;
    }

    public java.util.OptionalDouble metric(String name) {
        Double value = metrics.get(name);
        return value == null || value.isNaN() ? java.util.OptionalDouble.empty() : java.util.OptionalDouble.of(value);
    }
}
