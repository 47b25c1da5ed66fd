package dev.gauntlet.runner.results;

import dev.gauntlet.runner.statistics.Estimate;
import dev.gauntlet.runner.statistics.ForkMeans;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/**
 * A target × scenario's headline figures with their confidence intervals over forks ({@link ForkMeans}:
 * a fork's repetitions count as one sample), as {@code intervals.json} holds them and the tables print them.
 *
 * <pre>{@code
 * for (Intervals i : Intervals.of(store.rows(), 0.95)) {
 *     i.rate().describe();   // 40500 (95 % CI 38761–42239, 3 forks)
 * }
 * }</pre>
 *
 * @param forks the forks with a measured run
 * @param runs  the measured runs over all of them
 */
public record Intervals(String target, String scenario, int forks, int runs, Estimate rate, Estimate p50Ms,
                        Estimate p99Ms, Estimate maxMs) {

    /** One per target × scenario with a measured run, in the rows' order. */
    public static List<Intervals> of(List<ResultRow> rows, double confidence) {
        Map<List<String>, List<ResultRow>> byCase = new LinkedHashMap<>();
        for (ResultRow row : rows) {
            if (row.measured()) {
                byCase.computeIfAbsent(List.of(row.target(), row.scenario()), k -> new ArrayList<>()).add(row);
            }
        }
        List<Intervals> intervals = new ArrayList<>();
        byCase.forEach((key, runs) -> intervals.add(new Intervals(key.get(0), key.get(1),
                (int) runs.stream().mapToInt(ResultRow::fork).distinct().count(), runs.size(),
                estimate(runs, ResultRow::achievedRatePerSec, confidence), estimate(runs, ResultRow::p50Ms, confidence),
                estimate(runs, ResultRow::p99Ms, confidence), estimate(runs, ResultRow::maxMs, confidence))));
        return intervals;
    }

    private static Estimate estimate(List<ResultRow> runs, ToDoubleFunction<ResultRow> figure, double confidence) {
        return Estimate.of(ForkMeans.of(runs, ResultRow::fork, figure), confidence);
    }
}
