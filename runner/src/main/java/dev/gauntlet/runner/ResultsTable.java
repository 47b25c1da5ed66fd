package dev.gauntlet.runner;

import java.util.List;
import java.util.Locale;

/** Formats result rows as the fixed-width table the CLI prints. */
final class ResultsTable {
    private static final String FORMAT = "%-31s %-22s %9s %9s %9s %9s %9s %9s %7s %9s %11s  %-17s  %s%n";

    private ResultsTable() {
    }

    static String render(List<ResultRow> rows) {
        StringBuilder out = new StringBuilder();
        out.append(String.format(Locale.ROOT, FORMAT, "target", "scenario", "requests", "rate/s",
                "p50 ms", "p99 ms", "p99.9 ms", "max ms", "errors", "in flight", "hiccup p99", "verdict", "evidence"));
        for (ResultRow row : rows) {
            out.append(String.format(Locale.ROOT, FORMAT, row.target(),
                    row.scenario() + (row.repetition() > 1 ? " #" + row.repetition() : ""),
                    row.requests(), number(row.achievedRatePerSec()), millis(row.p50Ms()), millis(row.p99Ms()),
                    millis(row.p999Ms()), millis(row.maxMs()), row.errors(),
                    row.serverMaxInFlight() == null ? "-" : row.serverMaxInFlight(),
                    hiccups(row.generatorHiccupP99Ms(), row.targetHiccupP99Ms()), row.verdict(), row.note()));
        }
        return out.toString();
    }

    /** The noise floor of both sides, generator/target, in ms. */
    private static String hiccups(double generatorMs, double targetMs) {
        return Double.isNaN(generatorMs) ? "-" : millis(generatorMs) + "/" + millis(targetMs);
    }

    private static String number(double value) {
        return String.format(Locale.ROOT, "%.0f", value);
    }

    /** Three significant figures at most, so 0.0412 and 1234.5 both stay readable. */
    static String millis(double ms) {
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
