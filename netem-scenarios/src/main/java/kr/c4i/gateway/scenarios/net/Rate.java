package kr.c4i.gateway.scenarios.net;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A link rate in bits per second, as tc takes it and as the report prints it.
 *
 * @param bitsPerSecond the rate, at least 8 kbit/s
 */
public record Rate(long bitsPerSecond) {

    public static final Rate KBIT_128 = new Rate(128_000);
    public static final Rate KBIT_256 = new Rate(256_000);
    public static final Rate MBIT_2 = new Rate(2_000_000);
    public static final Rate GBIT_1 = new Rate(1_000_000_000);

    private static final Pattern TEXT = Pattern.compile("(\\d+)\\s*([kmg]?)(bit|bps|b)?(/s)?");

    public Rate {
        if (bitsPerSecond < 8_000) {
            throw new IllegalArgumentException("rate must be at least 8 kbit/s, was " + bitsPerSecond + " bit/s");
        }
    }

    /** Reads {@code 128kbit}, {@code 256k}, {@code 2mbit}, {@code 2M}, {@code 1gbit} or a plain number of bit/s. */
    public static Rate parse(String text) {
        Matcher m = TEXT.matcher(text.trim().toLowerCase(Locale.ROOT));
        if (!m.matches()) {
            throw new IllegalArgumentException("'" + text + "' is not a rate; write e.g. 128kbit, 2mbit or 1gbit");
        }
        long value = Long.parseLong(m.group(1));
        long factor = switch (m.group(2)) {
            case "k" -> 1_000L;
            case "m" -> 1_000_000L;
            case "g" -> 1_000_000_000L;
            default -> 1L;
        };
        return new Rate(Math.multiplyExact(value, factor));
    }

    /** The rate as tc reads it, exact: {@code 128000bit}. */
    public String tc() {
        return bitsPerSecond + "bit";
    }

    public double bytesPerSecond() {
        return bitsPerSecond / 8.0;
    }

    /** {@code 128 kbit/s}, {@code 2 Mbit/s}, {@code 1 Gbit/s}. */
    public String label() {
        if (bitsPerSecond % 1_000_000_000L == 0) {
            return bitsPerSecond / 1_000_000_000L + " Gbit/s";
        }
        if (bitsPerSecond % 1_000_000L == 0) {
            return bitsPerSecond / 1_000_000L + " Mbit/s";
        }
        if (bitsPerSecond % 1_000L == 0) {
            return bitsPerSecond / 1_000L + " kbit/s";
        }
        return bitsPerSecond + " bit/s";
    }

    @Override
    public String toString() {
        return label();
    }
}
