package dev.gauntlet.api;

import java.util.Locale;

/** Formatting shared by descriptions: {@code 1000 -> "1k"}, {@code 1500 -> "1.5k"}, {@code 7 -> "7"}. */
public final class Numbers {
    private Numbers() {
    }

    public static String compact(double value) {
        if (value >= 1_000_000 && value % 100_000 == 0) {
            return trim(value / 1_000_000) + "M";
        }
        if (value >= 1_000 && value % 100 == 0) {
            return trim(value / 1_000) + "k";
        }
        return trim(value);
    }

    /** A figure as a summary prints it: three significant digits at least, no exponent; {@code -} for NaN. */
    public static String figure(double value) {
        if (Double.isNaN(value)) {
            return "-";
        }
        double a = Math.abs(value);
        return String.format(Locale.ROOT, a >= 100 || value == Math.rint(value) ? "%.0f" : a >= 10 ? "%.1f" : a >= 1 ? "%.2f" : "%.3f", value);
    }

    private static String trim(double value) {
        return value == Math.rint(value)
                ? Long.toString((long) value)
                : String.format(Locale.ROOT, "%.1f", value);
    }

    /** Milliseconds to three significant figures at most, so 0.0412 and 1234.5 both stay readable; NaN as {@code -}. */
    public static String millis(double ms) {
        if (Double.isNaN(ms)) {
            return "-";
        }
        if (ms >= 100) {
            return String.format(Locale.ROOT, "%.0f", ms);
        }
        if (ms >= 10) {
            return String.format(Locale.ROOT, "%.1f", ms);
        }
        if (ms >= 1) {
            return String.format(Locale.ROOT, "%.2f", ms);
        }
        return String.format(Locale.ROOT, "%.3f", ms);
    }
}
