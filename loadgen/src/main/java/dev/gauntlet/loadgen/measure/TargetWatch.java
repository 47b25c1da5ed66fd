package dev.gauntlet.loadgen.measure;

import dev.gauntlet.api.Percentiles;
import dev.gauntlet.api.RunDirectory;
import dev.gauntlet.api.RunDirectory.HistogramLog;
import dev.gauntlet.api.RunSummary;
import dev.gauntlet.hiccup.CapacityLog;
import dev.gauntlet.hiccup.JitActivity;
import org.HdrHistogram.EncodableHistogram;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogReader;

import java.io.ByteArrayInputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * What the generator learns about the measured phase from a Gauntlet target's admin port: how
 * much of its CPUs the target used, the platform's hiccups as the target saw them
 * ({@code target-hiccup.hlog}), and its CPUs' capacity second by second.
 *
 * <pre>{@code
 * TargetWatch watch = new TargetWatch(admin, true, System.err);
 * watch.measureStarts();                                // resets the target's counts, notes its CPU time
 * TargetWatch.Figures figures = watch.finish(measureStartEpochMs, runDir);
 * }</pre>
 */
public final class TargetWatch {
    private final AdminClient admin;
    private final boolean resetStats;
    private final PrintStream progress;
    private volatile RunSummary.ServerStats atStart;
    /** The target's JIT activity as last fetched by {@link #pollJit}; null while unknown. */
    private volatile JitActivity.Snapshot jit;

    /** The target's side of a run; each figure is unknown (null or empty) when the target does not say. */
    /** @param cpuUsPerRequest its CPU time over the measured phase per request it completed then, µs; null when unknown */
    public record Figures(Percentiles hiccups, Double cpuPercent, Double cpuUsPerRequest, List<CapacityLog.Second> capacity) {
        public static final Figures UNKNOWN = new Figures(Percentiles.EMPTY, null, null, List.of());
    }

    /**
     * @param resetStats whether the measured phase starts the target's counts again (its maximum in flight
     *                   then covers the measured phase only); max concurrency reads them at its burst instead
     * @param progress   where a refused reset is said
     */
    public TargetWatch(AdminClient admin, boolean resetStats, PrintStream progress) {
        this.admin = admin;
        this.resetStats = resetStats;
        this.progress = progress;
        // One call now, before the run, the way measureStarts makes it: the first virtual thread, HTTP call and
        // JSON mapping of the process load and compile their classes on the generator's CPUs, and at the
        // measured phase's start that took the engine's CPU for tens of milliseconds, queueing requests.
        Thread first = Thread.ofVirtual().start(this::fetchJit);
        try {
            first.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Fetches the target's JIT activity, waiting {@code waitMs} for it at most (the interval ticker,
     * once a second of the warm-up: a slow admin port must not hold up its ticks); {@link #jit} has
     * it once it arrives.
     */
    public void pollJit(long waitMs) {
        Thread poll = Thread.ofVirtual().start(this::fetchJit);
        try {
            poll.join(waitMs);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void fetchJit() {
        JitActivity.Snapshot fetched = admin.jit();
        if (fetched != null) {
            jit = fetched;
        }
    }

    /** The target's JIT activity as last fetched; null while unknown or when the target does not say. */
    public JitActivity.Snapshot jit() {
        return jit;
    }

    /** At the start of the measured phase: on a virtual thread of its own, not to hold up the caller. */
    public void measureStarts() {
        Thread.ofVirtual().start(() -> atStart = resetStats ? resetOrRead() : admin.get());
    }

    /**
     * A refused reset is said, not passed over: the target's counts then cover more than the
     * measured phase. Its CPU time still counts from here, read instead.
     */
    private RunSummary.ServerStats resetOrRead() {
        try {
            return admin.resetStats();
        } catch (AdminClient.ResetRefused e) {
            progress.println("gauntlet load: warning: " + e.getMessage() + "; its counts are not the measured phase's alone");
            return admin.get();
        }
    }

    public Figures finish(long measureStartEpochMs, Path outputDir) {
        RunSummary.ServerStats start = atStart;
        RunSummary.ServerStats end = admin.get();
        String capacity = admin.capacityLog();
        return new Figures(hiccups(measureStartEpochMs, outputDir),
                start == null || end == null ? null : end.cpuPercentSince(start),
                start == null || end == null ? null : RunSummary.CpuPerRequest.of(
                        TimeUnit.MILLISECONDS.toNanos(end.cpuMs() - start.cpuMs()), end.completed() - start.completed()),
                capacity == null ? List.of() : CapacityLog.parse(capacity));
    }

    /** The target's hiccup log cut to the intervals that end after the measured phase began. */
    private Percentiles hiccups(long measureStartEpochMs, Path outputDir) {
        String log = admin.hiccupLog();
        if (log == null) {
            return Percentiles.EMPTY;
        }
        Histogram total = LatencyRecorder.newHistogram();
        HistogramLogReader reader = new HistogramLogReader(new ByteArrayInputStream(log.getBytes(StandardCharsets.UTF_8)));
        IntervalLogs.Single out = outputDir == null ? null
                : new IntervalLogs.Single(new RunDirectory(outputDir).log(HistogramLog.TARGET_HICCUP), measureStartEpochMs,
                "platform hiccups seen by the target (oversleep of a 1 ms sleep), ns; from its admin /hiccup");
        try {
            for (EncodableHistogram h = reader.nextIntervalHistogram(); h != null; h = reader.nextIntervalHistogram()) {
                if (h.getEndTimeStamp() > measureStartEpochMs && h instanceof Histogram interval) {
                    total.add(interval);
                    if (out != null) {
                        out.write(interval);
                    }
                }
            }
        } catch (RuntimeException notAHiccupLog) {
            // An admin port that is not a Gauntlet target's: its noise floor stays unknown.
            return Percentiles.EMPTY;
        } finally {
            if (out != null) {
                out.close();
            }
        }
        return LatencyRecorder.percentiles(total);
    }
}
