package dev.gauntlet.runner.statistics;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.ToDoubleFunction;
import java.util.function.ToIntFunction;

/**
 * The samples an interval is made of: one per fork, the mean of its repetitions. Repetitions share their
 * fork's JVM, its JIT decisions and its heap, so they are not independent of one another: treated as samples
 * of their own they would narrow the interval by what forks would have shown. Nested this way, a fork of
 * three repetitions counts once, its mean steadier than one run's.
 *
 * <pre>{@code
 * double[] samples = ForkMeans.of(rows, ResultRow::fork, ResultRow::achievedRatePerSec);
 * Estimate rate = Estimate.of(samples, 0.95);
 * }</pre>
 */
public final class ForkMeans {
    private ForkMeans() {
    }

    /** Each fork's mean of {@code figure} over its runs, in fork order; a run without the figure (NaN) is left out. */
    public static <T> double[] of(List<T> runs, ToIntFunction<T> fork, ToDoubleFunction<T> figure) {
        Map<Integer, List<Double>> byFork = new TreeMap<>();
        for (T run : runs) {
            double value = figure.applyAsDouble(run);
            if (!Double.isNaN(value)) {
                byFork.computeIfAbsent(fork.applyAsInt(run), f -> new ArrayList<>()).add(value);
            }
        }
        return byFork.values().stream()
                .mapToDouble(values -> values.stream().mapToDouble(Double::doubleValue).average().orElseThrow())
                .toArray();
    }
}
