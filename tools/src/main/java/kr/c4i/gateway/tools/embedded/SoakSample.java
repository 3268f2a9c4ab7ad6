package kr.c4i.gateway.tools.embedded;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;

/**
 * The figures of one moment of a soak.
 *
 * @param elapsed since the load started
 * @param at when it was taken
 * @param values by {@link SoakMetric#column()}; a figure that could not be read is missing
 */
record SoakSample(Duration elapsed, Instant at, Map<String, Double> values) {

    SoakSample {
        values = Map.copyOf(values);
    }

    /** The metric's figure, NaN where it could not be read. */
    double value(SoakMetric metric) {
        return values.getOrDefault(metric.column(), Double.NaN);
    }
}
