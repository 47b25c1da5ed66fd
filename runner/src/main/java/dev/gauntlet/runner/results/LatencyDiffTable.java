package dev.gauntlet.runner.results;

import dev.gauntlet.runner.statistics.Contrast;
import dev.gauntlet.runner.statistics.Estimate;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The latency-diff table: one connection, one request at a time, and what each server adds to the
 * round trip of the {@code dummy} baseline. The mean is swamped by the platform's hiccups on a
 * shared machine, so the headline is the median round trip. Every fork starts each target afresh, in
 * turn, so a fork's drift falls on both sides of its difference: the difference is taken fork by fork
 * ({@link Contrast#paired}), and one whose interval spans 0 is reported as none detectable, with the
 * smallest difference these forks could have resolved.
 *
 * <pre>{@code
 * System.out.print(LatencyDiffTable.render(store.rows()));
 * // target                    forks  median µs  mean µs  vs dummy µs  95 % CI µs   difference
 * // dummy                         4         91      220            -          -   baseline
 * // undertow-handler-event-loop   4        104      240        +13.0  +10.1–+15.9  +13.0 µs
 * }</pre>
 */
public final class LatencyDiffTable {
    static final String BASELINE = "dummy";
    private static final String FORMAT = "%-31s %5s %10s %9s %12s %14s  %s%n";
    private static final double MICROS_PER_MS = 1_000;

    private LatencyDiffTable() {
    }

    /**
     * One target's forks: each fork's median round trip in µs (the mean of its repetitions' medians), and every
     * run's mean round trip.
     */
    private record Target(String name, Map<Integer, List<Double>> mediansByFork, List<Double> means) {
        Map<Integer, Double> byFork() {
            Map<Integer, Double> byFork = new TreeMap<>();
            mediansByFork.forEach((fork, medians) -> byFork.put(fork, average(medians)));
            return byFork;
        }

        double median() {
            return Repetitions.median(byFork().values().stream().mapToDouble(Double::doubleValue).toArray());
        }
    }

    public static String render(List<ResultRow> rows) {
        return render(rows, Estimate.DEFAULT_CONFIDENCE);
    }

    /**
     * Each target's difference to the baseline, fork by fork; empty without a baseline, and a target that shares no
     * fork with it left out.
     */
    public static Map<String, Contrast> differences(List<ResultRow> rows, double confidence) {
        Map<String, Target> targets = targets(rows);
        Target baseline = targets.get(BASELINE);
        Map<String, Contrast> differences = new LinkedHashMap<>();
        if (baseline != null) {
            targets.values().stream().filter(target -> target != baseline).forEach(target -> {
                Contrast diff = difference(target, baseline, confidence);
                if (diff != null) {
                    differences.put(target.name(), diff);
                }
            });
        }
        return differences;
    }

    /**
     * {@code target}'s difference to {@code reference}, fork by fork, as the table takes each against the baseline;
     * empty when either is absent or they share no fork.
     */
    public static Optional<Contrast> difference(List<ResultRow> rows, String target, String reference, double confidence) {
        Map<String, Target> targets = targets(rows);
        if (!targets.containsKey(target) || !targets.containsKey(reference)) {
            return Optional.empty();
        }
        return Optional.ofNullable(difference(targets.get(target), targets.get(reference), confidence));
    }

    private static Map<String, Target> targets(List<ResultRow> rows) {
        Map<String, Target> targets = new LinkedHashMap<>();
        for (ResultRow row : rows) {
            if (!row.measured()) {
                continue;
            }
            Target target = targets.computeIfAbsent(row.target(), name -> new Target(name, new TreeMap<>(), new ArrayList<>()));
            target.mediansByFork().computeIfAbsent(row.fork(), fork -> new ArrayList<>()).add(row.p50Ms() * MICROS_PER_MS);
            target.means().add(row.meanMs() * MICROS_PER_MS);
        }
        return targets;
    }

    public static String render(List<ResultRow> rows, double confidence) {
        Map<String, Target> targets = targets(rows);
        Target baseline = targets.get(BASELINE);
        String level = Estimate.level(confidence);
        StringBuilder out = new StringBuilder(String.format(Locale.ROOT, FORMAT, "target", "forks", "median µs",
                "mean µs", "vs " + BASELINE + " µs", level + " CI µs", "difference"));
        List<Target> sorted = new ArrayList<>(targets.values());
        sorted.sort(Comparator.comparingDouble(Target::median));
        for (Target target : sorted) {
            Contrast diff = baseline == null || target == baseline ? null : difference(target, baseline, confidence);
            out.append(String.format(Locale.ROOT, FORMAT, target.name(), target.mediansByFork().size(), micros(target.median()),
                    micros(average(target.means())), diff == null ? "-" : signed(diff.difference()),
                    diff == null || !diff.bounded() ? "-" : signed(diff.low()) + "–" + signed(diff.high()),
                    verdict(target, baseline, diff)));
        }
        out.append("Round trips of one request at a time on one keep-alive connection; the difference is taken fork by fork"
                + " against " + BASELINE + " (each fork starts every target afresh, in turn), with its " + level
                + " interval over forks; one whose interval spans 0 is no difference detectable.")
                .append(System.lineSeparator());
        return out.toString();
    }

    private static String verdict(Target target, Target baseline, Contrast diff) {
        if (baseline == null) {
            return "no " + BASELINE + " baseline in this suite";
        }
        if (target == baseline) {
            return "baseline";
        }
        if (diff == null) {
            return "no fork shared with the baseline";
        }
        if (!diff.bounded()) {
            return signed(diff.difference()) + " µs, from 1 fork: no interval";
        }
        return diff.resolved() ? signed(diff.difference()) + " µs"
                : String.format(Locale.ROOT, "none detectable (smallest detectable ±%.1f µs)", diff.smallestDetectable());
    }

    /** Fork by fork, so that what drifted between forks cancels; only forks both sides measured count. */
    private static Contrast difference(Target target, Target baseline, double confidence) {
        Map<Integer, Double> mine = target.byFork();
        Map<Integer, Double> theirs = baseline.byFork();
        List<Integer> shared = mine.keySet().stream().filter(theirs::containsKey).toList();
        if (shared.isEmpty()) {
            return null;
        }
        return Contrast.paired(shared.stream().mapToDouble(mine::get).toArray(),
                shared.stream().mapToDouble(theirs::get).toArray(), confidence);
    }

    private static double average(List<Double> values) {
        return values.stream().mapToDouble(Double::doubleValue).average().orElse(Double.NaN);
    }

    private static String micros(double value) {
        return Double.isNaN(value) ? "-" : String.format(Locale.ROOT, "%.0f", value);
    }

    private static String signed(double value) {
        return String.format(Locale.ROOT, "%+.1f", value);
    }
}
