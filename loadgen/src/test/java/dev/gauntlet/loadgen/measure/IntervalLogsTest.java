package dev.gauntlet.loadgen.measure;

import dev.gauntlet.api.RunDirectory;
import dev.gauntlet.api.RunDirectory.HistogramLog;
import org.HdrHistogram.EncodableHistogram;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

class IntervalLogsTest {
    private static final long MEASURE_START_EPOCH_MS = 1_780_000_000_000L;

    /**
     * The measured phase's first interval, sampled by a tick that came 1.2 s late from a recorder begun in the
     * warm-up: its values are the measured phase's, so the log places it at the phase's start, not before it,
     * where a reader of the measured phase would drop them.
     */
    @Test
    void anIntervalBegunInTheWarmupIsPlacedAtTheMeasuredPhasesStart(@TempDir Path dir) throws Exception {
        try (IntervalLogs logs = new IntervalLogs(dir, MEASURE_START_EPOCH_MS, "open loop 100/s")) {
            logs.write(interval(-500, 1_200, 40), interval(-500, 1_200, 40), interval(-500, 1_200, 40));
            logs.write(interval(1_200, 2_000, 80), interval(1_200, 2_000, 80), interval(1_200, 2_000, 80));
        }

        for (HistogramLog kind : new HistogramLog[] {HistogramLog.RESPONSE, HistogramLog.SERVICE, HistogramLog.LAG}) {
            try (HistogramLogReader reader = new HistogramLogReader(new RunDirectory(dir).log(kind).toString())) {
                EncodableHistogram first = reader.nextIntervalHistogram();
                assertThat(first.getStartTimeStamp()).as(kind.id()).isEqualTo(MEASURE_START_EPOCH_MS);
                assertThat(first.getEndTimeStamp()).as(kind.id()).isEqualTo(MEASURE_START_EPOCH_MS + 1_200);
                assertThat(((Histogram) first).getTotalCount()).isEqualTo(40);
                EncodableHistogram second = reader.nextIntervalHistogram();
                assertThat(second.getStartTimeStamp()).as("a later interval keeps its start")
                        .isEqualTo(MEASURE_START_EPOCH_MS + 1_200);
            }
        }
    }

    private static Histogram interval(long startMs, long endMs, int values) {
        Histogram h = new Histogram(3);
        h.recordValueWithCount(1_000_000L, values);
        h.setStartTimeStamp(MEASURE_START_EPOCH_MS + startMs);
        h.setEndTimeStamp(MEASURE_START_EPOCH_MS + endMs);
        return h;
    }
}
