package dev.gauntlet.loadgen.measure;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BinaryOperator;

/**
 * The per-second logs of a load split over processes, merged as their lines stand: each process ticks its own
 * seconds from its own start, so line k of every file is the same second, give or take the processes' start, and the
 * merge's line k is their sum. A shorter file (a process that ended early) adds nothing to the lines it lacks.
 *
 * <pre>{@code
 * List<Interval> merged = LineByLine.sum(List.of(a, b), ErrorLog::read, (first, other) -> first.plus(other));
 * }</pre>
 */
final class LineByLine {
    private LineByLine() {
    }

    /** How a log reads: its lines, in order. */
    interface Reader<T> {
        List<T> read(Path file) throws IOException;
    }

    /** Line k of each file summed by {@code plus}, which keeps its first argument's times. */
    static <T> List<T> sum(List<Path> files, Reader<T> reader, BinaryOperator<T> plus) throws IOException {
        List<List<T>> perFile = new ArrayList<>();
        for (Path file : files) {
            perFile.add(reader.read(file));
        }
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
