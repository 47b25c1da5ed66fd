package dev.gauntlet.loadgen.measure;

import java.util.ArrayList;
import java.util.List;
import java.util.function.BinaryOperator;

/**
 * The per-second logs of a load split over processes, merged as their lines stand: each process ticks its own
 * seconds from its own start, so line k of every file is the same second, give or take the processes' start, and the
 * merge's line k is their sum. A shorter file (a process that ended early) adds nothing to the lines it lacks.
 *
 * <pre>{@code
 * List<Interval> merged = LineByLine.sum(List.of(read(a), read(b)), (first, other) -> first.plus(other));
 * }</pre>
 */
final class LineByLine {
    private LineByLine() {
    }

    /** Line k of each list summed by {@code plus}, which keeps its first argument's times. */
    static <T> List<T> sum(List<List<T>> perFile, BinaryOperator<T> plus) {
        int lines = perFile.stream().mapToInt(List::size).max().orElse(0);
        List<T> merged = new ArrayList<>(lines);
        for (int k = 0; k < lines; k++) {
            T sum = null;
            for (List<T> intervals : perFile) {
                if (k < intervals.size()) {
                    sum = sum == null ? intervals.get(k) : plus.apply(sum, intervals.get(k));
                }
            }
            merged.add(sum);
        }
        return merged;
    }
}
