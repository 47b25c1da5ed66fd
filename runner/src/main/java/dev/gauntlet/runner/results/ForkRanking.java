package dev.gauntlet.runner.results;

import dev.gauntlet.api.LoadModel;
import dev.gauntlet.runner.statistics.Contrast;
import dev.gauntlet.runner.statistics.Estimate;
import dev.gauntlet.runner.statistics.ForkMeans;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/**
 * The targets of one scenario ranked by a figure's mean over their forks, where only a resolved
 * difference separates two ranks: going down the order, a target starts a new rank when it differs
 * from the first of the rank above at the confidence level ({@link Contrast#resolved()}), and shares that
 * rank otherwise. Each place says how it stands to the one above: "a is 12 % faster than b (95 % CI
 * 8–16 %)" or "no difference detectable".
 *
 * <pre>{@code
 * for (ForkRanking ranking : ForkRanking.of(rows, ResultRow::achievedRatePerSec, Contrast.Direction.HIGHER_IS_BETTER, 0.95)) {
 *     ranking.places().forEach(p -> System.out.println(p.rank() + " " + p.target() + " " + p.standing()));
 * }
 * }</pre>
 */
public record ForkRanking(String scenario, List<Place> places) {
    /**
     * @param rank      1 for the best and every target not resolved from it; a later rank is the place's position
     * @param figure    the figure's mean over the target's forks, with its interval
     * @param fromAbove the place above against this one; null for the first
     * @param standing  how it stands to the place above, as a sentence; empty for the first
     */
    public record Place(int rank, String target, Estimate figure, Contrast fromAbove, String standing) {
    }

    /** The ranking's figure for a load ranked by {@code by}: a row's p99, rate or requests held at once. */
    public static ToDoubleFunction<ResultRow> figure(LoadModel.RankedBy by) {
        return switch (by) {
            case P99 -> ResultRow::p99Ms;
            case RATE -> ResultRow::achievedRatePerSec;
            case HELD -> row -> row.serverMaxInFlight() == null ? Double.NaN : row.serverMaxInFlight();
        };
    }

    /**
     * How {@code better}, ranked above, stands to {@code worse}: "a is 12 % faster than b (95 % CI 8–16 %)" for a rate,
     * "quicker" for a time, or "no difference detectable (...)".
     */
    public static String sentence(Contrast contrast, String better, String worse, Contrast.Direction direction) {
        return contrast.describe(better, worse, direction,
                direction == Contrast.Direction.HIGHER_IS_BETTER ? "faster" : "quicker", "slower");
    }

    /** Which way {@code by} is better: a time lower, a rate or a count held higher. */
    public static Contrast.Direction direction(LoadModel.RankedBy by) {
        return by == LoadModel.RankedBy.P99 ? Contrast.Direction.LOWER_IS_BETTER : Contrast.Direction.HIGHER_IS_BETTER;
    }

    /** One ranking per scenario of the measured rows, in the rows' order of scenarios. */
    public static List<ForkRanking> of(List<ResultRow> rows, ToDoubleFunction<ResultRow> figure,
                                       Contrast.Direction direction, double confidence) {
        Map<String, Map<String, double[]>> byScenario = new LinkedHashMap<>();
        Map<List<String>, List<ResultRow>> byCase = new LinkedHashMap<>();
        for (ResultRow row : rows) {
            if (row.measured()) {
                byCase.computeIfAbsent(List.of(row.scenario(), row.target()), k -> new ArrayList<>()).add(row);
            }
        }
        byCase.forEach((key, runs) -> byScenario.computeIfAbsent(key.get(0), s -> new LinkedHashMap<>())
                .put(key.get(1), ForkMeans.of(runs, ResultRow::fork, figure)));
        List<ForkRanking> rankings = new ArrayList<>();
        byScenario.forEach((scenario, samples) -> rankings.add(rank(scenario, samples, direction, confidence)));
        return rankings;
    }

    private static ForkRanking rank(String scenario, Map<String, double[]> samples, Contrast.Direction direction,
                                    double confidence) {
        Comparator<Map.Entry<String, Estimate>> best = Comparator.comparingDouble(e -> e.getValue().mean());
        if (direction == Contrast.Direction.HIGHER_IS_BETTER) {
            best = best.reversed();
        }
        List<Map.Entry<String, Estimate>> order = samples.entrySet().stream()
                .map(e -> Map.entry(e.getKey(), Estimate.of(e.getValue(), confidence))).sorted(best).toList();
        List<Place> places = new ArrayList<>();
        String leader = null;
        int rank = 0;
        for (int i = 0; i < order.size(); i++) {
            String target = order.get(i).getKey();
            if (leader == null) {
                leader = target;
                rank = 1;
                places.add(new Place(rank, target, order.get(i).getValue(), null, ""));
                continue;
            }
            String above = order.get(i - 1).getKey();
            Contrast fromLeader = Contrast.of(samples.get(leader), samples.get(target), confidence);
            if (fromLeader.resolved()) {
                leader = target;
                rank = i + 1;
            }
            Contrast fromAbove = Contrast.of(samples.get(above), samples.get(target), confidence);
            places.add(new Place(rank, target, order.get(i).getValue(), fromAbove,
                    sentence(fromAbove, above, target, direction)));
        }
        return new ForkRanking(scenario, List.copyOf(places));
    }
}
