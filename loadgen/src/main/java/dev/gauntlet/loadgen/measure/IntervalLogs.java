package dev.gauntlet.loadgen.measure;

import dev.gauntlet.api.ErrorClass;
import dev.gauntlet.api.RunDirectory.HistogramLog;
import dev.gauntlet.api.RunDirectory;
import dev.gauntlet.loadgen.failure.GeneratorException;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogWriter;

import java.io.FileNotFoundException;
import java.io.FileOutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Map;

/**
 * The per-interval logs of a run: the HdrHistogram logs ({@code response.hlog}, {@code service.hlog},
 * {@code lag.hlog}, and the generator's {@code hiccup.hlog}), in HdrHistogram's own format, values
 * in nanoseconds, and the errors by class ({@code errors.csv}, an {@link ErrorLog}), each where
 * {@link RunDirectory} puts it ({@link TargetWatch} writes the target's {@code target-hiccup.hlog}).
 * Each interval is flushed as it is written, so a run that dies keeps what it measured.
 */
public final class IntervalLogs implements AutoCloseable {
    private final HistogramLogWriter response;
    private final HistogramLogWriter service;
    private final HistogramLogWriter lag;
    private final HistogramLogWriter hiccup;
    private final ErrorLog errors;
    private final long startEpochMs;

    public IntervalLogs(Path directory, long startEpochMs, String description) {
        this.startEpochMs = startEpochMs;
        RunDirectory run = new RunDirectory(directory);
        response = open(run.log(HistogramLog.RESPONSE), startEpochMs, "response time from the intended start, ns; " + description);
        service = open(run.log(HistogramLog.SERVICE), startEpochMs, "service time from the actual send, ns; " + description);
        lag = open(run.log(HistogramLog.LAG), startEpochMs, "schedule lag (actual send - intended start), ns; " + description);
        hiccup = open(run.log(HistogramLog.HICCUP), startEpochMs, "platform hiccups seen by the generator "
                + "(oversleep of a 1 ms sleep), ns; " + description);
        errors = new ErrorLog(run.errors(), description);
    }

    /**
     * One interval of the measured phase. Its values are all the phase's (warm-up requests are recorded apart), but
     * the first one's recorder began before the phase, perhaps by more than a second when the tick at the phase's
     * start came late: it is placed at the phase's start, where a reader of the log looks for the measured phase.
     */
    public void write(Histogram responseInterval, Histogram serviceInterval, Histogram lagInterval) {
        for (Histogram interval : new Histogram[] {responseInterval, serviceInterval, lagInterval}) {
            interval.setStartTimeStamp(Math.max(interval.getStartTimeStamp(), startEpochMs));
        }
        response.outputIntervalHistogram(responseInterval);
        service.outputIntervalHistogram(serviceInterval);
        lag.outputIntervalHistogram(lagInterval);
    }

    public void writeHiccups(Histogram hiccupInterval) {
        hiccup.outputIntervalHistogram(hiccupInterval);
    }

    /** The errors counted in one interval of the measured phase, its start in seconds from the phase's start. */
    public void writeErrors(double startSec, double lengthSec, Map<ErrorClass, Long> intervalErrors) {
        errors.write(startSec, lengthSec, intervalErrors);
    }

    @Override
    public void close() {
        response.close();
        service.close();
        lag.close();
        hiccup.close();
        errors.close();
    }

    /** One log on its own, for merged results. */
    public static final class Single implements AutoCloseable {
        private final HistogramLogWriter writer;

        public Single(Path file, long startEpochMs, String description) {
            writer = open(file, startEpochMs, description);
        }

        public void write(Histogram interval) {
            writer.outputIntervalHistogram(interval);
        }

        @Override
        public void close() {
            writer.close();
        }
    }

    private static HistogramLogWriter open(Path file, long startEpochMs, String comment) {
        try {
            HistogramLogWriter writer = new HistogramLogWriter(new PrintStream(new FileOutputStream(file.toFile()), true));
            writer.outputComment(comment);
            writer.outputLogFormatVersion();
            writer.outputStartTime(startEpochMs);
            writer.setBaseTime(startEpochMs);
            writer.outputLegend();
            return writer;
        } catch (FileNotFoundException e) {
            throw new GeneratorException("cannot write " + file + ": " + e.getMessage());
        }
    }
}
