package dev.gauntlet.hiccup;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogWriter;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * A hiccup meter whose per-second intervals are kept in memory and handed out as an HdrHistogram
 * interval log: how a process that writes no files of its own (a target) reports its noise floor
 * for a window another process chooses.
 *
 * <pre>{@code
 * HiccupLog log = HiccupLog.start();
 * log.reset();                       // at the start of the window (the target: POST /stats/reset)
 * String hlog = log.text("target");  // at its end: every interval since, the current one included
 * }</pre>
 *
 * <p>Thread-safe. At most an hour of intervals is kept; older ones are dropped first.
 */
public final class HiccupLog implements AutoCloseable {
    static final int MAX_INTERVALS = 3_600;
    private static final long INTERVAL_MS = 1_000;

    private final HiccupMeter meter;
    private final ScheduledExecutorService sampler = Executors.newSingleThreadScheduledExecutor(
            Thread.ofPlatform().daemon().name("gauntlet-hiccup-log").factory());
    private final Deque<Interval> intervals = new ArrayDeque<>();
    private long windowStartEpochMs;
    private long intervalStartEpochMs;

    private record Interval(long startEpochMs, long endEpochMs, Histogram histogramNs) {
    }

    private HiccupLog(HiccupMeter meter) {
        this.meter = meter;
        reset();
        sampler.scheduleAtFixedRate(this::sample, INTERVAL_MS, INTERVAL_MS, TimeUnit.MILLISECONDS);
    }

    public static HiccupLog start() {
        return new HiccupLog(HiccupMeter.start());
    }

    /** Forgets every interval: the window starts now. */
    public synchronized void reset() {
        meter.reset();
        intervals.clear();
        windowStartEpochMs = System.currentTimeMillis();
        intervalStartEpochMs = windowStartEpochMs;
    }

    /** The window so far as an HdrHistogram interval log (values in ns), the interval in progress included. */
    public synchronized String text(String comment) {
        sample();
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (PrintStream out = new PrintStream(bytes, false, StandardCharsets.UTF_8)) {
            HistogramLogWriter writer = new HistogramLogWriter(out);
            writer.outputComment("platform hiccups (oversleep of a 1 ms sleep), ns; " + comment);
            writer.outputLogFormatVersion();
            writer.outputStartTime(windowStartEpochMs);
            writer.setBaseTime(windowStartEpochMs);
            writer.outputLegend();
            for (Interval interval : intervals) {
                Histogram h = interval.histogramNs();
                h.setStartTimeStamp(interval.startEpochMs());
                h.setEndTimeStamp(interval.endEpochMs());
                writer.outputIntervalHistogram(h);
            }
        }
        return bytes.toString(StandardCharsets.UTF_8);
    }

    @Override
    public void close() {
        sampler.shutdownNow();
        meter.close();
    }

    private synchronized void sample() {
        long nowEpochMs = System.currentTimeMillis();
        // The meter reuses its interval histogram: each kept interval is a copy.
        intervals.addLast(new Interval(intervalStartEpochMs, nowEpochMs, meter.intervalHistogram().copy()));
        intervalStartEpochMs = nowEpochMs;
        if (intervals.size() > MAX_INTERVALS) {
            intervals.removeFirst();
        }
    }
}
