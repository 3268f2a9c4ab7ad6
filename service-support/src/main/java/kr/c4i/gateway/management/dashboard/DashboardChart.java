package kr.c4i.gateway.management.dashboard;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.jspecify.annotations.Nullable;

/**
 * One chart of the built-in dashboard page. A service declares its charts as beans, in the order they appear;
 * every page ends with the JVM's.
 *
 * @param title what the chart shows
 * @param unit the values' unit, as the page prints it (e.g. {@code rows}, {@code msg/s}, {@code ms})
 * @param series the lines drawn
 */
public record DashboardChart(String title, String unit, List<Series> series) {

    public DashboardChart {
        series = List.copyOf(series);
    }

    public static DashboardChart of(String title, String unit, Series... series) {
        return new DashboardChart(title, unit, List.of(series));
    }

    /** How a series is read from the registry. */
    public enum Kind {
        /** The meters' current value, summed: a gauge, or a counter's total. */
        VALUE,
        /** Per second: the page divides the change of the counters' total by the time between two reads. */
        RATE,
        /** A timer's published percentile, in milliseconds, over Micrometer's recent window. */
        PERCENTILE,
        /**
         * One rate over another: the page divides the change of the meters' total by the change of another series'
         * total between two reads (e.g. bytes after compression over bytes before); no point while that one did not
         * change.
         */
        RATIO
    }

    /**
     * One line, or one per value of {@code splitTag}.
     *
     * @param label the line's name; with {@code splitTag}, put before each tag value
     * @param meter the Micrometer name (from {@code MetricNames})
     * @param kind how it is read
     * @param percentile for {@link Kind#PERCENTILE}: which one (the timer must publish it), else 0
     * @param splitTag a tag whose every value gets its own line (e.g. {@code reason}), or null for one line
     * @param where tags the meters read must have (e.g. {@code direction=wan-out}); empty: every meter of the name
     * @param per for {@link Kind#RATIO}: the series whose total's change divides this one's (its own kind and label
     *        unused), else null
     */
    public record Series(String label, String meter, Kind kind, double percentile, @Nullable String splitTag,
            Map<String, String> where, @Nullable Series per) {

        public Series {
            where = Map.copyOf(where);
            if ((kind == Kind.RATIO) != (per != null)) {
                throw new IllegalArgumentException("A ratio, and only a ratio, has a series it is divided by: "
                        + label);
            }
            if (kind == Kind.RATIO && (splitTag != null || per.splitTag() != null)) {
                throw new IllegalArgumentException("A ratio is one line, not split by a tag: " + label);
            }
        }

        public Series(String label, String meter, Kind kind, double percentile, @Nullable String splitTag,
                Map<String, String> where) {
            this(label, meter, kind, percentile, splitTag, where, null);
        }

        public Series(String label, String meter, Kind kind, double percentile, @Nullable String splitTag) {
            this(label, meter, kind, percentile, splitTag, Map.of());
        }

        /** This series, read only from the meters that have {@code tag=value} too. */
        public Series where(String tag, String value) {
            Map<String, String> tags = new TreeMap<>(where);
            tags.put(tag, value);
            return new Series(label, meter, kind, percentile, splitTag, tags, per);
        }

        /**
         * One line: the change of a counter's total over the change of another's between two reads, i.e. the ratio
         * of their rates (e.g. bytes after compression over bytes before). Give the counter's tags with
         * {@link #where}, the other's on {@code per}.
         */
        public static Series ratio(String label, String meter, Series per) {
            return new Series(label, meter, Kind.RATIO, 0, null, Map.of(), per);
        }

        /** A counter's rate per value of a tag (e.g. messages per second by precedence). */
        public static Series rateBy(String label, String meter, String splitTag) {
            return new Series(label, meter, Kind.RATE, 0, splitTag);
        }

        public static Series value(String label, String meter) {
            return new Series(label, meter, Kind.VALUE, 0, null);
        }

        public static Series rate(String label, String meter) {
            return new Series(label, meter, Kind.RATE, 0, null);
        }

        /** A counter's total per value of a tag (e.g. quarantined rows by reason). */
        public static Series valueBy(String label, String meter, String splitTag) {
            return new Series(label, meter, Kind.VALUE, 0, splitTag);
        }

        public static Series percentile(String label, String meter, double percentile) {
            return new Series(label, meter, Kind.PERCENTILE, percentile, null);
        }
    }
}
