package kr.c4i.gateway.scenarios.experiment;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** Pure functions on the precedences of messages in the order they arrived, for the outage cell. */
final class DrainOrder {

    /** Highest first, as the gateway's scheduler serves them. */
    static final List<String> PRECEDENCES = List.of("FLASH", "IMMEDIATE", "PRIORITY", "ROUTINE");

    private DrainOrder() {
    }

    /**
     * Of the pairs of arrivals with different precedence, the share where the higher precedence arrived first:
     * 1 when strictly in precedence order, 0 when exactly reversed; NaN without two precedences.
     */
    static double inOrderShare(List<String> arrivals) {
        int[] seen = new int[PRECEDENCES.size()];
        long inOrder = 0;
        long pairs = 0;
        for (String precedence : arrivals) {
            int rank = rank(precedence);
            for (int r = 0; r < seen.length; r++) {
                if (r == rank) {
                    continue;
                }
                pairs += seen[r];
                if (r < rank) {
                    inOrder += seen[r];
                }
            }
            seen[rank]++;
        }
        return pairs == 0 ? Double.NaN : inOrder / (double) pairs;
    }

    /** The arrivals as runs, e.g. {@code ROUTINE x3, FLASH x25, IMMEDIATE x25}. */
    static String runs(List<String> arrivals) {
        List<String> runs = new ArrayList<>();
        String current = null;
        int count = 0;
        for (String precedence : arrivals) {
            String p = precedence.toUpperCase(Locale.ROOT);
            if (p.equals(current)) {
                count++;
                continue;
            }
            if (current != null) {
                runs.add(current + " x" + count);
            }
            current = p;
            count = 1;
        }
        if (current != null) {
            runs.add(current + " x" + count);
        }
        return String.join(", ", runs);
    }

    /** Nearest-rank percentile of the values ({@code p} in (0, 100]); NaN when there are none. */
    static double percentile(List<Double> values, double p) {
        if (values.isEmpty()) {
            return Double.NaN;
        }
        List<Double> sorted = values.stream().sorted().toList();
        int rank = (int) Math.ceil(p / 100 * sorted.size());
        return sorted.get(Math.max(0, Math.min(sorted.size() - 1, rank - 1)));
    }

    private static int rank(String precedence) {
        int rank = PRECEDENCES.indexOf(precedence.strip().toUpperCase(Locale.ROOT));
        if (rank < 0) {
            throw new IllegalArgumentException("'" + precedence + "' is not a precedence");
        }
        return rank;
    }
}
