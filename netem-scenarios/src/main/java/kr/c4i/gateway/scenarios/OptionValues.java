package kr.c4i.gateway.scenarios;

import static kr.c4i.gateway.tools.embedded.OptionValues.number;

import java.util.Locale;

import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

import kr.c4i.gateway.tools.embedded.OptionValues.IntIn;
import kr.c4i.gateway.scenarios.experiment.RecoveryOrder;

/**
 * Picocli converters that check a value while parsing it, so that a bad one is a usage error (exit 2, one
 * line naming the option) before any namespace or node exists.
 */
final class OptionValues {

    private OptionValues() {
    }

    static final class Repetitions extends IntIn {
        Repetitions() {
            super(1, 1000);
        }
    }

    static final class Messages extends IntIn {
        Messages() {
            super(1, 1_000_000);
        }
    }

    /** The N of 1:N: host 1 publishes, hosts 2 to N+1 of the six subscribe. */
    static final class Subscribers extends IntIn {
        Subscribers() {
            super(1, 5);
        }
    }

    static final class Positive extends IntIn {
        Positive() {
            super(1, Integer.MAX_VALUE);
        }
    }

    /** A DDS domain id as Cyclone's default port mapping allows it. */
    static final class DdsDomain extends IntIn {
        DdsDomain() {
            super(0, 232);
        }
    }

    /** A percentage, 0 to 100. */
    static final class Percent implements ITypeConverter<Double> {
        @Override
        public Double convert(String text) {
            double value = number(text);
            if (!(value >= 0 && value <= 100)) {
                throw new TypeConversionException(text + " is out of range: use 0 to 100");
            }
            return value;
        }
    }

    /** {@code restart-then-lift} or {@code lift-then-restart}. */
    static final class RecoveryOrderName implements ITypeConverter<String> {
        @Override
        public String convert(String text) {
            try {
                RecoveryOrder.valueOf(text.strip().toUpperCase(Locale.ROOT).replace('-', '_'));
            }
            catch (IllegalArgumentException ex) {
                throw new TypeConversionException("'" + text + "' is not a recovery order; use restart-then-lift or "
                        + "lift-then-restart");
            }
            return text.strip();
        }
    }
}
