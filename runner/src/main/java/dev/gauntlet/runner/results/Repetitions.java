package dev.gauntlet.runner.results;

import dev.gauntlet.api.Numbers;
import dev.gauntlet.api.SteadyRule;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;

/**
 * What the repetitions of one target × scenario say together: each figure's best and median over
 * the measured runs, and its spread as the coefficient of variation (standard deviation over mean).
 * The 2016 study reported the best of 10; the median and the spread say how far to trust it.
 *
 * <pre>{@code
 * for (Repetitions.Group group : Repetitions.of(rows)) {
 *     group.best().p99Ms();           // the lowest p99 of the repetitions
 *     group.spread().p99Ms();         // 0.04: p99 varied by 4 % of its mean
 * }
 * }</pre>
 */
public final class Repetitions {
    private Repetitions() {
    }

    /** The figures the table aggregates; one run's, or a best, median or spread over runs. */
    record Figures(double requests, double achievedRatePerSec, double meanMs, double p50Ms, double p99Ms, double p999Ms,
                   double maxMs, double errors, double serverMaxInFlight) {
    }

    /**
     * @param runs      the measured repetitions
     * @param spread    each figure's coefficient of variation (a fraction; 0 when the mean is 0)
     * @param unsteady  why the repetitions disagree beyond the tolerance of the scenario's steady rule (rate/s, or a
     *                  median latency above the platform's range); null when they agree
     */
    record Group(String target, String scenario, int runs, Figures best, Figures median, Figures spread, String unsteady) {
    }

    /** Below this median, a p50's spread over repetitions is the platform's, not the target's: no verdict on it. */
    static final double PLATFORM_RANGE_MS = 10;

    /** One group per target × scenario with at least two measured runs, in the rows' order. */
    static List<Group> of(List<ResultRow> rows) {
        Map<List<String>, List<ResultRow>> byCase = new LinkedHashMap<>();
        for (ResultRow row : rows) {
            if (row.measured()) {
                byCase.computeIfAbsent(List.of(row.target(), row.scenario()), k -> new ArrayList<>()).add(row);
            }
        }
        List<Group> groups = new ArrayList<>();
        byCase.forEach((key, runs) -> {
            if (runs.size() >= 2) {
                Figures median = aggregate(runs, Repetitions::median);
                Figures spread = aggregate(runs, Repetitions::coefficientOfVariation);
                groups.add(new Group(key.get(0), key.get(1), runs.size(), best(runs), median, spread,
                        unsteady(runs, median, spread)));
            }
        });
        return groups;
    }

    /**
     * Why repetitions that should agree do not: the rate's spread, or the median latency's where it is
     * above the platform's range, beyond the tolerance of the scenario's steady rule.
     */
    private static String unsteady(List<ResultRow> runs, Figures median, Figures spread) {
        double tolerancePercent = runs.stream().map(ResultRow::warmup).filter(Objects::nonNull)
                .mapToDouble(ResultRow.Warmup::tolerancePercent).findFirst().orElse(SteadyRule.DEFAULT_TOLERANCE_PERCENT);
        double tolerance = tolerancePercent / 100;
        if (spread.achievedRatePerSec() > tolerance) {
            return String.format(Locale.ROOT, "rate/s varied by %.0f %% (cv) over %d repetitions, beyond the %s %% "
                    + "tolerance", 100 * spread.achievedRatePerSec(), runs.size(), Numbers.compact(tolerancePercent));
        }
        if (median.p50Ms() >= PLATFORM_RANGE_MS && spread.p50Ms() > tolerance) {
            return String.format(Locale.ROOT, "p50 varied by %.0f %% (cv) over %d repetitions, beyond the %s %% "
                    + "tolerance", 100 * spread.p50Ms(), runs.size(), Numbers.compact(tolerancePercent));
        }
        return null;
    }

    /** Less is better for times and errors, more for requests, rate and requests the server took on. */
    private static Figures best(List<ResultRow> runs) {
        return new Figures(max(runs, ResultRow::requests), max(runs, ResultRow::achievedRatePerSec), min(runs, ResultRow::meanMs),
                min(runs, ResultRow::p50Ms), min(runs, ResultRow::p99Ms), min(runs, ResultRow::p999Ms), min(runs, ResultRow::maxMs),
                min(runs, ResultRow::errors), max(runs, Repetitions::inFlight));
    }

    private static Figures aggregate(List<ResultRow> runs, Function<double[], Double> statistic) {
        return new Figures(statistic.apply(values(runs, ResultRow::requests)),
                statistic.apply(values(runs, ResultRow::achievedRatePerSec)), statistic.apply(values(runs, ResultRow::meanMs)),
                statistic.apply(values(runs, ResultRow::p50Ms)), statistic.apply(values(runs, ResultRow::p99Ms)),
                statistic.apply(values(runs, ResultRow::p999Ms)), statistic.apply(values(runs, ResultRow::maxMs)),
                statistic.apply(values(runs, ResultRow::errors)), statistic.apply(values(runs, Repetitions::inFlight)));
    }

    private static double inFlight(ResultRow row) {
        return row.serverMaxInFlight() == null ? Double.NaN : row.serverMaxInFlight();
    }

    private static double[] values(List<ResultRow> runs, ToDoubleFunction<ResultRow> figure) {
        return runs.stream().mapToDouble(figure).filter(v -> !Double.isNaN(v)).toArray();
    }

    private static double min(List<ResultRow> runs, ToDoubleFunction<ResultRow> figure) {
        return Arrays.stream(values(runs, figure)).min().orElse(Double.NaN);
    }

    private static double max(List<ResultRow> runs, ToDoubleFunction<ResultRow> figure) {
        return Arrays.stream(values(runs, figure)).max().orElse(Double.NaN);
    }

    static double median(double[] values) {
        if (values.length == 0) {
            return Double.NaN;
        }
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int mid = sorted.length / 2;
        return sorted.length % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
    }

    /** The sample standard deviation over the mean; 0 for figures that are all 0. */
    static double coefficientOfVariation(double[] values) {
        if (values.length < 2) {
            return Double.NaN;
        }
        double mean = Arrays.stream(values).average().orElseThrow();
        if (mean == 0) {
            return 0;
        }
        double squares = Arrays.stream(values).map(v -> (v - mean) * (v - mean)).sum();
        return Math.sqrt(squares / (values.length - 1)) / Math.abs(mean);
    }
}
