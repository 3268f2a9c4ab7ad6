package kr.c4i.gateway.scenarios.report;

import java.util.Locale;

/** Numbers as the report prints them; NaN prints as an en dash. */
final class Fmt {

    static final String NONE = "–";

    private Fmt() {
    }

    /** {@code 52,319}. */
    static String whole(double value) {
        return Double.isNaN(value) ? NONE : String.format(Locale.ROOT, "%,d", Math.round(value));
    }

    /** Whole numbers from 100 up, one decimal below (msg/s, ms). */
    static String number(double value) {
        if (Double.isNaN(value)) {
            return NONE;
        }
        return Math.abs(value) >= 100 ? whole(value) : String.format(Locale.ROOT, "%.1f", value);
    }

    /** {@code 0.05} or {@code 19.6}: two significant places for ratios. */
    static String ratio(double value) {
        if (Double.isNaN(value) || Double.isInfinite(value)) {
            return NONE;
        }
        return Math.abs(value) >= 10 ? String.format(Locale.ROOT, "%.1f", value)
                : Math.abs(value) >= 0.1 ? String.format(Locale.ROOT, "%.2f", value)
                        : String.format(Locale.ROOT, "%.3f", value);
    }

    static String percent(double value) {
        return Double.isNaN(value) ? NONE : String.format(Locale.ROOT, "%.1f%%", value * 100);
    }

    /** {@code mean (sd)} like the study's tables. */
    static String meanSd(Stats stats) {
        if (!stats.present()) {
            return NONE;
        }
        return number(stats.mean()) + (Double.isNaN(stats.sd()) ? "" : " (" + number(stats.sd()) + ")");
    }

    static String meanSdWhole(Stats stats) {
        if (!stats.present()) {
            return NONE;
        }
        return whole(stats.mean()) + (Double.isNaN(stats.sd()) ? "" : " (" + whole(stats.sd()) + ")");
    }
}
