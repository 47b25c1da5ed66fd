package dev.gauntlet.runner.metrics;

import dev.gauntlet.api.JvmMetrics;
import dev.gauntlet.api.RunDirectory.HistogramLog;
import dev.gauntlet.api.RunDirectory;
import dev.gauntlet.api.RunJvmCosts;
import org.HdrHistogram.Histogram;

import java.io.FileNotFoundException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.ToDoubleFunction;

/**
 * Lines a run's interval logs up with both sides' GC pauses. The logs are epoch-based and so are JFR's
 * timestamps, so each interval is paired with the longest pause that overlaps it; of the worst
 * intervals, those with a pause are counted — the 2016 study's clusters of latency a GC pause apart.
 *
 * <pre>{@code
 * RunJvmCosts.PauseAlignment alignment = PauseAligner.align(runDir, targetPauses, generatorPauses);
 * }</pre>
 */
public final class PauseAligner {
    static final int WORST_INTERVALS = 10;
    private PauseAligner() {
    }

    static RunJvmCosts.PauseAlignment align(Path runDir, List<JvmMetrics.Pause> targetPauses,
                                           List<JvmMetrics.Pause> generatorPauses) throws FileNotFoundException {
        List<Histogram> response = read(new RunDirectory(runDir).log(HistogramLog.RESPONSE));
        List<Histogram> lag = read(new RunDirectory(runDir).log(HistogramLog.LAG));
        List<RunJvmCosts.IntervalPauses> intervals = new ArrayList<>();
        for (int i = 0; i < response.size(); i++) {
            Histogram interval = response.get(i);
            double startMs = interval.getStartTimeStamp();
            double endMs = interval.getEndTimeStamp();
            double lagMaxMs = i < lag.size() ? maxMs(lag.get(i)) : 0;
            intervals.add(new RunJvmCosts.IntervalPauses(startMs, endMs - startMs, maxMs(interval), lagMaxMs,
                    longestPause(targetPauses, startMs, endMs), longestPause(generatorPauses, startMs, endMs)));
        }
        return new RunJvmCosts.PauseAlignment(Math.min(WORST_INTERVALS, intervals.size()),
                worstWithPause(intervals, RunJvmCosts.IntervalPauses::responseMaxMs, RunJvmCosts.IntervalPauses::targetPauseMaxMs),
                worstWithPause(intervals, RunJvmCosts.IntervalPauses::lagMaxMs, RunJvmCosts.IntervalPauses::generatorPauseMaxMs),
                intervals);
    }

    /**
     * Of the {@value #WORST_INTERVALS} intervals worst by response time, those with a pause of either
     * side and the longest such pause; null without an alignment or an interval with responses.
     */
    public static GcInTail tail(RunJvmCosts.PauseAlignment alignment) {
        if (alignment == null) {
            return null;
        }
        List<RunJvmCosts.IntervalPauses> slowest = alignment.intervals().stream()
                .filter(interval -> interval.responseMaxMs() > 0)
                .sorted(Comparator.comparingDouble(RunJvmCosts.IntervalPauses::responseMaxMs).reversed())
                .limit(WORST_INTERVALS)
                .toList();
        if (slowest.isEmpty()) {
            return null;
        }
        return new GcInTail(slowest.size(),
                (int) slowest.stream().filter(interval -> interval.targetPauseMaxMs() > 0).count(),
                slowest.stream().mapToDouble(RunJvmCosts.IntervalPauses::targetPauseMaxMs).max().orElse(0),
                (int) slowest.stream().filter(interval -> interval.generatorPauseMaxMs() > 0).count(),
                slowest.stream().mapToDouble(RunJvmCosts.IntervalPauses::generatorPauseMaxMs).max().orElse(0));
    }

    /** Of the {@value #WORST_INTERVALS} intervals worst by {@code latency}, those with a {@code pause}. */
    private static int worstWithPause(List<RunJvmCosts.IntervalPauses> intervals, ToDoubleFunction<RunJvmCosts.IntervalPauses> latency,
                                      ToDoubleFunction<RunJvmCosts.IntervalPauses> pause) {
        return (int) intervals.stream()
                .filter(interval -> latency.applyAsDouble(interval) > 0)
                .sorted(Comparator.comparingDouble(latency).reversed())
                .limit(WORST_INTERVALS)
                .filter(interval -> pause.applyAsDouble(interval) > 0)
                .count();
    }

    /** The longest pause that overlaps [startMs, endMs), 0 when none does. */
    static double longestPause(List<JvmMetrics.Pause> pauses, double startMs, double endMs) {
        double longest = 0;
        for (JvmMetrics.Pause pause : pauses) {
            if (pause.startEpochMs() < endMs && pause.startEpochMs() + pause.durationMs() > startMs) {
                longest = Math.max(longest, pause.durationMs());
            }
        }
        return longest;
    }

    private static double maxMs(Histogram interval) {
        return interval.getTotalCount() == 0 ? 0 : interval.getMaxValue() / IntervalLog.UNITS_PER_MS;
    }

    /** The measured phase's intervals, each with its epoch timestamps. */
    private static List<Histogram> read(Path log) throws FileNotFoundException {
        IntervalLog read = IntervalLog.read(log);
        if (read == null) {
            throw new FileNotFoundException(log + " is missing");
        }
        return read.intervals().stream().map(IntervalLog.Interval::histogram).toList();
    }
}
