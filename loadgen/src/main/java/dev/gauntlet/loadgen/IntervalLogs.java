package dev.gauntlet.loadgen;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogWriter;

import java.io.FileNotFoundException;
import java.io.FileOutputStream;
import java.io.PrintStream;
import java.nio.file.Path;

/**
 * The per-interval HdrHistogram logs of a run ({@code response.hlog}, {@code service.hlog},
 * {@code lag.hlog}, and the generator's {@code hiccup.hlog}), in HdrHistogram's own format, values
 * in nanoseconds. Each interval is
 * flushed as it is written, so a run that dies keeps what it measured.
 */
final class IntervalLogs implements AutoCloseable {
    static final String RESPONSE = "response.hlog";
    static final String SERVICE = "service.hlog";
    static final String LAG = "lag.hlog";
    static final String HICCUP = "hiccup.hlog";
    /** Written by {@link TargetHiccups} from the target's admin port, not by this class. */
    static final String TARGET_HICCUP = "target-hiccup.hlog";

    private final HistogramLogWriter response;
    private final HistogramLogWriter service;
    private final HistogramLogWriter lag;
    private final HistogramLogWriter hiccup;

    IntervalLogs(Path directory, long startEpochMs, String description) {
        response = open(directory.resolve(RESPONSE), startEpochMs, "response time from the intended start, ns; " + description);
        service = open(directory.resolve(SERVICE), startEpochMs, "service time from the actual send, ns; " + description);
        lag = open(directory.resolve(LAG), startEpochMs, "schedule lag (actual send - intended start), ns; " + description);
        hiccup = open(directory.resolve(HICCUP), startEpochMs, "platform hiccups seen by the generator "
                + "(oversleep of a 1 ms sleep), ns; " + description);
    }

    void write(Histogram responseInterval, Histogram serviceInterval, Histogram lagInterval) {
        response.outputIntervalHistogram(responseInterval);
        service.outputIntervalHistogram(serviceInterval);
        lag.outputIntervalHistogram(lagInterval);
    }

    void writeHiccups(Histogram hiccupInterval) {
        hiccup.outputIntervalHistogram(hiccupInterval);
    }

    @Override
    public void close() {
        response.close();
        service.close();
        lag.close();
        hiccup.close();
    }

    /** One log on its own, for merged results. */
    static final class Single implements AutoCloseable {
        private final HistogramLogWriter writer;

        Single(Path file, long startEpochMs, String description) {
            writer = open(file, startEpochMs, description);
        }

        void write(Histogram interval) {
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
