package dev.gauntlet.runner.metrics;

import org.HdrHistogram.EncodableHistogram;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogReader;

import java.io.FileNotFoundException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * One HdrHistogram interval log of a run ({@code response.hlog}, {@code service.hlog}, {@code lag.hlog}), read
 * with HdrHistogram's own reader, its values in nanoseconds:
 *
 * <pre>
 * IntervalLog log = IntervalLog.read(run.log(RunDirectory.HistogramLog.RESPONSE));
 * for (IntervalLog.Interval i : log.intervals()) { ... i.offsetSec() ... i.histogram().getValueAtPercentile(99) }
 * Histogram all = log.total();
 * </pre>
 *
 * The generator starts the log at the measured phase's start (its {@code StartTime}) and may write the warm-up as
 * one empty interval before it; only the measured intervals are kept. A generator before 2026-12-05 could stamp the
 * measured phase's first interval from inside the warm-up (a late tick): its values are the measured phase's, so it
 * is kept, placed at the phase's start.
 *
 * @param startEpochMs the measured phase's start, the log's {@code StartTime}
 * @param intervals    the measured phase's intervals, one a second, in order
 */
public record IntervalLog(double startEpochMs, List<Interval> intervals) {
    /** The generator records nanoseconds. */
    public static final double UNITS_PER_MS = 1_000_000.0;

    /** @param offsetSec the interval's start, in seconds after the measured phase's start */
    public record Interval(double offsetSec, double lengthSec, Histogram histogram) {
    }

    /** The log at {@code file}; null when the run wrote none. */
    public static IntervalLog read(Path file) {
        if (!Files.isRegularFile(file)) {
            return null;
        }
        try (HistogramLogReader reader = new HistogramLogReader(file.toString())) {
            List<Interval> intervals = new ArrayList<>();
            for (EncodableHistogram h = reader.nextIntervalHistogram(); h != null; h = reader.nextIntervalHistogram()) {
                // Relative to the log's StartTime whatever the reader makes of the header's base time.
                double offsetSec = (h.getStartTimeStamp() / 1000.0) - reader.getStartTimeSec();
                double endSec = (h.getEndTimeStamp() / 1000.0) - reader.getStartTimeSec();
                if (!(h instanceof Histogram histogram) || endSec <= 0
                        || (offsetSec < 0 && histogram.getTotalCount() == 0)) {
                    continue;
                }
                double startSec = Math.max(offsetSec, 0);
                intervals.add(new Interval(startSec, endSec - startSec, histogram));
            }
            return new IntervalLog(reader.getStartTimeSec() * 1000.0, List.copyOf(intervals));
        } catch (FileNotFoundException e) {
            return null;
        }
    }

    /** Every measured interval added up: HdrHistogram's addition is exact. */
    public Histogram total() {
        Histogram all = new Histogram(3);
        intervals.forEach(i -> all.add(i.histogram()));
        return all;
    }
}
