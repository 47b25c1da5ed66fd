package dev.gauntlet.loadgen.measure;

import dev.gauntlet.api.Capacity;
import dev.gauntlet.api.RunDirectory;
import dev.gauntlet.hiccup.CapacityLog;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;

/**
 * Both roles' capacity logs lined up with the measured phase's one-second windows: a window's index
 * is the mean of the log's seconds that overlap it, each weighted by how much. Written whole, both
 * roles and every second, to the run's {@code capacity.csv} for a reader to check.
 *
 * <pre>{@code
 * Capacity capacity = new CapacityCourse(targetSeconds, generatorLog.seconds(), windowStartsEpochMs).write(runDir);
 * }</pre>
 *
 * @param windowStartsEpochMs when each whole window of the measured phase began, in order
 */
public record CapacityCourse(List<CapacityLog.Second> target, List<CapacityLog.Second> generator,
                             List<Long> windowStartsEpochMs) {
    private static final long WINDOW_MS = 1_000;

    public CapacityCourse {
        target = List.copyOf(target);
        generator = List.copyOf(generator);
        windowStartsEpochMs = List.copyOf(windowStartsEpochMs);
    }

    /** The summary's figures: each role's index per window and its shares over the measured phase. */
    public Capacity capacity() {
        return new Capacity(course(target), course(generator));
    }

    /** Writes {@code capacity.csv} into {@code runDir} (nothing without one) and returns {@link #capacity()}. */
    public Capacity write(Path runDir) {
        if (runDir != null) {
            StringBuilder csv = new StringBuilder("role,startEpochMs,endEpochMs,probeUs,stolenShare,foreignShare,index\n");
            append(csv, "target", target);
            append(csv, "generator", generator);
            try {
                Files.writeString(new RunDirectory(runDir).capacity(), csv);
            } catch (IOException e) {
                // The figures still go into the summary; the file is evidence, not the result.
            }
        }
        return capacity();
    }

    private Capacity.Course course(List<CapacityLog.Second> seconds) {
        if (seconds.isEmpty() || windowStartsEpochMs.isEmpty()) {
            return Capacity.Course.UNKNOWN;
        }
        List<Double> perWindow = windowStartsEpochMs.stream().map(from -> weighted(seconds, from, from + WINDOW_MS,
                CapacityLog.Second::index)).toList();
        long from = windowStartsEpochMs.getFirst();
        long to = windowStartsEpochMs.getLast() + WINDOW_MS;
        return new Capacity.Course(perWindow, weighted(seconds, from, to, CapacityLog.Second::stolenShare),
                weighted(seconds, from, to, CapacityLog.Second::foreignShare));
    }

    /** The mean of {@code figure} over the seconds overlapping {@code fromMs} to {@code toMs}, by overlap; 0 when none. */
    private static double weighted(List<CapacityLog.Second> seconds, long fromMs, long toMs,
                                   ToDoubleFunction<CapacityLog.Second> figure) {
        double sum = 0;
        double weight = 0;
        for (CapacityLog.Second s : seconds) {
            long overlap = Math.min(toMs, s.endEpochMs()) - Math.max(fromMs, s.startEpochMs());
            if (overlap > 0) {
                sum += overlap * figure.applyAsDouble(s);
                weight += overlap;
            }
        }
        return weight == 0 ? 0 : sum / weight;
    }

    private static void append(StringBuilder csv, String role, List<CapacityLog.Second> seconds) {
        for (CapacityLog.Second s : seconds) {
            csv.append(String.format(Locale.ROOT, "%s,%d,%d,%.1f,%.4f,%.4f,%.1f%n", role, s.startEpochMs(), s.endEpochMs(),
                    s.probeUs(), s.stolenShare(), s.foreignShare(), s.index()));
        }
    }
}
