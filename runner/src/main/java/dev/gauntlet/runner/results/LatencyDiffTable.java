package dev.gauntlet.runner.results;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The latency-diff table: one connection, one request at a time, and what each server adds to the
 * round trip of the {@code dummy} baseline. The mean is swamped by the platform's hiccups on a
 * shared machine, so the headline is the median round trip; the difference is taken round by round
 * (the suite runs the targets in alternating rounds, so drift falls on both sides of each
 * difference), its median reported with its spread, and a difference within its spread is reported
 * as none.
 *
 * <pre>{@code
 * System.out.print(LatencyDiffTable.render(store.rows()));
 * // target                    rounds  median µs  mean µs  vs dummy µs  spread µs  difference
 * // dummy                          4         91      220            -          -  baseline
 * // undertow-handler-event-loop    4        104      240          +13         ±3  +13 µs
 * }</pre>
 */
public final class LatencyDiffTable {
    static final String BASELINE = "dummy";
    private static final String FORMAT = "%-31s %6s %10s %9s %12s %10s  %s%n";
    private static final double MICROS_PER_MS = 1_000;

    private LatencyDiffTable() {
    }

    /** One target's rounds, each round's median and mean round trip in µs, keyed by round. */
    private record Target(String name, Map<Integer, Double> medianByRound, List<Double> means) {
        double median() {
            return Repetitions.median(medianByRound.values().stream().mapToDouble(Double::doubleValue).toArray());
        }
    }

    /** The median of the per-round differences and half their range, in µs. */
    private record Difference(double medianMicros, double spreadMicros) {
        boolean within() {
            return Math.abs(medianMicros) <= spreadMicros;
        }
    }

    public static String render(List<ResultRow> rows) {
        Map<String, Target> targets = new LinkedHashMap<>();
        for (ResultRow row : rows) {
            if (!row.measured()) {
                continue;
            }
            Target target = targets.computeIfAbsent(row.target(), name -> new Target(name, new LinkedHashMap<>(), new ArrayList<>()));
            target.medianByRound().put(row.repetition(), row.p50Ms() * MICROS_PER_MS);
            target.means().add(row.meanMs() * MICROS_PER_MS);
        }
        Target baseline = targets.get(BASELINE);
        StringBuilder out = new StringBuilder(String.format(Locale.ROOT, FORMAT, "target", "rounds", "median µs",
                "mean µs", "vs " + BASELINE + " µs", "spread µs", "difference"));
        List<Target> sorted = new ArrayList<>(targets.values());
        sorted.sort(Comparator.comparingDouble(Target::median));
        for (Target target : sorted) {
            Difference diff = baseline == null || target == baseline ? null : difference(target, baseline);
            out.append(String.format(Locale.ROOT, FORMAT, target.name(), target.medianByRound().size(), micros(target.median()),
                    micros(target.means().stream().mapToDouble(Double::doubleValue).average().orElse(Double.NaN)),
                    diff == null ? "-" : signed(diff.medianMicros()), diff == null ? "-" : String.format(Locale.ROOT, "±%.1f", diff.spreadMicros()),
                    verdict(target, baseline, diff)));
        }
        out.append("Round trips of one request at a time on one keep-alive connection; the difference is taken round by round"
                + " against " + BASELINE + ", and one within its spread (half the range over rounds) is reported as none.")
                .append(System.lineSeparator());
        return out.toString();
    }

    private static String verdict(Target target, Target baseline, Difference diff) {
        if (baseline == null) {
            return "no " + BASELINE + " baseline in this suite";
        }
        if (target == baseline) {
            return "baseline";
        }
        if (diff == null || Double.isNaN(diff.medianMicros())) {
            return "no round shared with the baseline";
        }
        return diff.within() ? "no difference" : signed(diff.medianMicros()) + " µs";
    }

    /** Round by round, so that what drifted between rounds cancels; only rounds both sides measured count. */
    private static Difference difference(Target target, Target baseline) {
        double[] perRound = target.medianByRound().entrySet().stream()
                .filter(e -> baseline.medianByRound().containsKey(e.getKey()))
                .mapToDouble(e -> e.getValue() - baseline.medianByRound().get(e.getKey())).toArray();
        if (perRound.length == 0) {
            return null;
        }
        double min = Arrays.stream(perRound).min().orElseThrow();
        double max = Arrays.stream(perRound).max().orElseThrow();
        return new Difference(Repetitions.median(perRound), (max - min) / 2);
    }

    private static String micros(double value) {
        return Double.isNaN(value) ? "-" : String.format(Locale.ROOT, "%.0f", value);
    }

    private static String signed(double value) {
        return String.format(Locale.ROOT, "%+.1f", value);
    }
}
