package dev.gauntlet.runner.metrics;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class IntervalLogTest {
    private static final long MEASURE_START_EPOCH_MS = 1_780_000_000_000L;

    /**
     * A log as a generator before 2026-12-05 wrote it after a late tick: the warm-up's empty interval, then the
     * measured phase's first values stamped from inside the warm-up, then a second. The values are kept, from the
     * phase's start; the empty warm-up is not.
     */
    @Test
    void valuesStampedFromInsideTheWarmupAreKeptFromTheMeasuredPhasesStart(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("response.hlog");
        try (PrintStream out = new PrintStream(Files.newOutputStream(file))) {
            HistogramLogWriter writer = new HistogramLogWriter(out);
            writer.outputStartTime(MEASURE_START_EPOCH_MS);
            writer.setBaseTime(MEASURE_START_EPOCH_MS);
            writer.outputLegend();
            writer.outputIntervalHistogram(interval(-3_000, -500, 0));
            writer.outputIntervalHistogram(interval(-500, 1_200, 40));
            writer.outputIntervalHistogram(interval(1_200, 2_000, 80));
        }

        IntervalLog log = IntervalLog.read(file);

        assertThat(log.intervals()).hasSize(2);
        assertThat(log.intervals().get(0).offsetSec()).isZero();
        assertThat(log.intervals().get(0).lengthSec()).isCloseTo(1.2, within(1e-6));
        assertThat(log.intervals().get(1).offsetSec()).isCloseTo(1.2, within(1e-6));
        assertThat(log.total().getTotalCount()).isEqualTo(120);
    }

    private static Histogram interval(long startMs, long endMs, int values) {
        Histogram h = new Histogram(3);
        h.recordValueWithCount(1_000_000L, values);
        h.setStartTimeStamp(MEASURE_START_EPOCH_MS + startMs);
        h.setEndTimeStamp(MEASURE_START_EPOCH_MS + endMs);
        return h;
    }
}
