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
        PERCENTILE
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
     */
    public record Series(String label, String meter, Kind kind, double percentile, @Nullable String splitTag,
            Map<String, String> where) {

        public Series {
            where = Map.copyOf(where);
        }

        public Series(String label, String meter, Kind kind, double percentile, @Nullable String splitTag) {
            this(label, meter, kind, percentile, splitTag, Map.of());
        }

        /** This series, read only from the meters that have {@code tag=value} too. */
        public Series where(String tag, String value) {
            Map<String, String> tags = new TreeMap<>(where);
            tags.put(tag, value);
            return new Series(label, meter, kind, percentile, splitTag, tags);
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
