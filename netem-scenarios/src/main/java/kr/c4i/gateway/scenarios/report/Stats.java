package kr.c4i.gateway.scenarios.report;

import java.util.Collection;

/**
 * Mean and sample standard deviation, as the study's tables give them.
 *
 * @param n number of values
 * @param mean arithmetic mean; NaN without values
 * @param sd sample standard deviation (n - 1 in the denominator); NaN with fewer than two values
 * @param min smallest value; NaN without values
 * @param max largest value; NaN without values
 */
public record Stats(int n, double mean, double sd, double min, double max) {

    public static final Stats EMPTY = new Stats(0, Double.NaN, Double.NaN, Double.NaN, Double.NaN);

    public static Stats of(Collection<Double> values) {
        return of(values.stream().mapToDouble(Double::doubleValue).toArray());
    }

    public static Stats of(double... values) {
        int n = values.length;
        if (n == 0) {
            return EMPTY;
        }
        double sum = 0;
        double min = Double.POSITIVE_INFINITY;
        double max = Double.NEGATIVE_INFINITY;
        for (double v : values) {
            sum += v;
            min = Math.min(min, v);
            max = Math.max(max, v);
        }
        double mean = sum / n;
        double sd = Double.NaN;
        if (n > 1) {
            double squares = 0;
            for (double v : values) {
                squares += (v - mean) * (v - mean);
            }
            sd = Math.sqrt(squares / (n - 1));
        }
        return new Stats(n, mean, sd, min, max);
    }

    public boolean present() {
        return n > 0;
    }
}
