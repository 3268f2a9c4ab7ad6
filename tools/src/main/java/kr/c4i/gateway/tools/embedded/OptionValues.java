package kr.c4i.gateway.tools.embedded;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

import org.springframework.boot.convert.DurationStyle;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

import kr.c4i.gateway.core.NodeId;
import kr.c4i.gateway.core.link.SiteId;
import kr.c4i.gateway.dds.ParticipantSettings;

/**
 * Picocli converters that check a value while parsing it, so that a bad option is a usage error (exit 2,
 * one line naming the option) before anything starts. The public ones serve every tool (dds-bench and the scenario
 * harness too), and {@link IntIn} the ranges of their own.
 */
public final class OptionValues {

    private OptionValues() {
    }

    /** A whole number within {@code [min, max]}. */
    abstract static class LongIn implements ITypeConverter<Long> {

        private final long min;
        private final long max;

        LongIn(long min, long max) {
            this.min = min;
            this.max = max;
        }

        @Override
        public Long convert(String text) {
            return parse(text, min, max);
        }
    }

    /** An {@code int} within {@code [min, max]}. */
    public abstract static class IntIn implements ITypeConverter<Integer> {

        private final int min;
        private final int max;

        protected IntIn(int min, int max) {
            this.min = min;
            this.max = max;
        }

        @Override
        public Integer convert(String text) {
            return (int) parse(text, min, max);
        }
    }

    /** One of an enum's constants, spelled in lower case with '-' for '_' ({@code site-broker}), in any case. */
    public abstract static class OneOf<E extends Enum<E>> implements ITypeConverter<E> {

        private final Class<E> type;

        protected OneOf(Class<E> type) {
            this.type = type;
        }

        @Override
        public E convert(String text) {
            for (E value : type.getEnumConstants()) {
                if (spelling(value).equalsIgnoreCase(text.strip())) {
                    return value;
                }
            }
            List<String> names = Arrays.stream(type.getEnumConstants()).map(OneOf::spelling).toList();
            throw new TypeConversionException("'" + text + "': use "
                    + String.join(", ", names.subList(0, names.size() - 1)) + " or " + names.getLast());
        }

        /** How an option names the constant. */
        public static String spelling(Enum<?> value) {
            return value.name().toLowerCase(Locale.ROOT).replace('_', '-');
        }
    }

    private static long parse(String text, long min, long max) {
        long value;
        try {
            value = Long.parseLong(text.strip());
        }
        catch (NumberFormatException ex) {
            throw new TypeConversionException("'" + text + "' is not a whole number");
        }
        if (value < min || value > max) {
            throw new TypeConversionException(value + " is out of range: use "
                    + (max == Long.MAX_VALUE || max == Integer.MAX_VALUE ? min + " or more" : min + " to " + max));
        }
        return value;
    }

    /** Nodes of an embedded cluster: a publisher and 1-25 receivers, named a-z. */
    static final class NodeCount extends IntIn {
        NodeCount() {
            super(2, 26);
        }
    }

    public static final class PositiveInt extends IntIn {
        public PositiveInt() {
            super(1, Integer.MAX_VALUE);
        }
    }

    public static final class NonNegativeInt extends IntIn {
        public NonNegativeInt() {
            super(0, Integer.MAX_VALUE);
        }
    }

    public static final class PositiveLong extends LongIn {
        public PositiveLong() {
            super(1, Long.MAX_VALUE);
        }
    }

    static final class NonNegativeLong extends LongIn {
        NonNegativeLong() {
            super(0, Long.MAX_VALUE);
        }
    }

    /** A TCP port, 0 for any free one. */
    static final class Port extends IntIn {
        Port() {
            super(0, 65535);
        }
    }

    /** A port to listen on. */
    static final class ListenPort extends IntIn {
        ListenPort() {
            super(1, 65535);
        }
    }

    /** A decimal number, or the usage error that says the text is none. */
    public static double number(String text) {
        try {
            return Double.parseDouble(text.strip());
        }
        catch (NumberFormatException ex) {
            throw new TypeConversionException("'" + text + "' is not a number");
        }
    }

    /** A percentage, 0 to 100. */
    public static final class Percent implements ITypeConverter<Double> {
        @Override
        public Double convert(String text) {
            double value = number(text);
            if (!(value >= 0 && value <= 100)) {
                throw new TypeConversionException(text + " is out of range: use 0 to 100");
            }
            return value;
        }
    }

    /** A DDS domain id as Cyclone's default port mapping allows it. */
    public static final class DdsDomain extends IntIn {
        public DdsDomain() {
            super(0, ParticipantSettings.MAX_DOMAIN_ID);
        }
    }

    /** A number above 0. */
    public static final class PositiveDouble implements ITypeConverter<Double> {
        @Override
        public Double convert(String text) {
            double value = number(text);
            if (!(value > 0) || Double.isInfinite(value)) {
                throw new TypeConversionException(text + " is out of range: use a number above 0");
            }
            return value;
        }
    }

    /** A duration above 0 the way Spring properties write it ({@code 90s}, {@code 5m}) or ISO-8601 ({@code PT5M}). */
    public static final class PositiveDuration implements ITypeConverter<Duration> {
        @Override
        public Duration convert(String text) {
            Duration value;
            try {
                value = DurationStyle.detectAndParse(text.strip());
            }
            catch (IllegalArgumentException ex) {
                throw new TypeConversionException("'" + text + "' is not a duration; write e.g. 90s, 5m or PT5M");
            }
            if (value.isNegative() || value.isZero()) {
                throw new TypeConversionException(text + " is out of range: use a duration above 0");
            }
            return value;
        }
    }

    /**
     * A duration the way {@link PositiveDuration} reads it, in its largest whole unit ({@code 1h}, {@code 90s}), or in
     * seconds to a tenth ({@code 6.7s}).
     */
    static String spelling(Duration duration) {
        if (duration.toSecondsPart() == 0 && duration.toNanosPart() == 0 && !duration.isZero()) {
            return duration.toMinutesPart() == 0 ? duration.toHours() + "h" : duration.toMinutes() + "m";
        }
        if (duration.toNanosPart() == 0) {
            return duration.toSeconds() + "s";
        }
        return String.format(Locale.ROOT, "%.1fs", duration.toMillis() / 1000.0);
    }

    /** A node id as queue names, DDS partitions and metric tags accept it. */
    static final class NodeName implements ITypeConverter<String> {
        @Override
        public String convert(String text) {
            try {
                return NodeId.of(text).value();
            }
            catch (IllegalArgumentException ex) {
                throw new TypeConversionException(ex.getMessage());
            }
        }
    }

    /** A site id ({@link SiteId}'s charset). */
    static final class SiteName implements ITypeConverter<String> {
        @Override
        public String convert(String text) {
            try {
                return SiteId.of(text).value();
            }
            catch (IllegalArgumentException ex) {
                throw new TypeConversionException(ex.getMessage());
            }
        }
    }
}
