package dev.gauntlet.loadgen.measure;

import dev.gauntlet.api.Percentiles;
import dev.gauntlet.api.RunDirectory;
import dev.gauntlet.api.RunDirectory.HistogramLog;
import org.HdrHistogram.EncodableHistogram;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import java.util.SplittableRandom;
import java.util.function.IntConsumer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

public class LatencyRecorderTest {

    @Test
    void responseTimeCountsFromTheIntendedStartAndServiceTimeFromTheSend() {
        LatencyRecorder recorder = new LatencyRecorder();
        recorder.recordResponse(1_000_000, 51_000_000, 53_000_000);
        recorder.recordLag(50_000_000);
        recorder.sampleInterval(null);
        assertThat(recorder.responseTotal().getMaxValue()).isEqualTo(recorder.responseTotal().highestEquivalentValue(52_000_000));
        assertThat(recorder.serviceTotal().getMaxValue()).isEqualTo(recorder.serviceTotal().highestEquivalentValue(2_000_000));
        assertThat(recorder.lagTotal().getMaxValue()).isEqualTo(recorder.lagTotal().highestEquivalentValue(50_000_000));
    }

    @Test
    void totalsEqualTheSumOfTheLoggedIntervalsReadBackWithHdrHistogramsReader(@TempDir Path dir) throws Exception {
        LatencyRecorder recorder = new LatencyRecorder();
        Histogram expected = LatencyRecorder.newHistogram();
        SplittableRandom random = new SplittableRandom(1);
        logIntervals(dir, recorder, 5, 1_000, i -> {
            long serviceNs = 1 + random.nextLong(100_000_000);
            recorder.recordResponse(0, 0, serviceNs);
            recorder.recordLag(i);
            expected.recordValue(serviceNs);
        });
        assertThat(recorder.responseTotal()).isEqualTo(expected);
        assertThat(recorder.serviceTotal()).isEqualTo(expected);
        assertThat(sumOfIntervals(new RunDirectory(dir).log(HistogramLog.RESPONSE), 5)).isEqualTo(expected);
        assertThat(sumOfIntervals(new RunDirectory(dir).log(HistogramLog.SERVICE), 5)).isEqualTo(expected);
        assertThat(sumOfIntervals(new RunDirectory(dir).log(HistogramLog.LAG), 5)).isEqualTo(recorder.lagTotal());
    }

    @Test
    void writersOfSeveralEnginesSumExactlyIntoOneIntervalAndTheTotals(@TempDir Path dir) throws Exception {
        LatencyRecorder recorder = new LatencyRecorder(3);
        Histogram expected = LatencyRecorder.newHistogram();
        SplittableRandom random = new SplittableRandom(2);
        logIntervals(dir, recorder, 4, 3_000, i -> {
            long responseNs = 1 + random.nextLong(50_000_000);
            recorder.writer(i % 3).recordResponse(0, 0, responseNs);
            expected.recordValue(responseNs);
        });
        assertThat(recorder.responseTotal()).isEqualTo(expected);
        assertThat(sumOfIntervals(new RunDirectory(dir).log(HistogramLog.RESPONSE), 4)).isEqualTo(expected);
    }

    /** {@code intervals} intervals logged to {@code dir}, in each {@code record} called for requests 0 to {@code requests}. */
    private static void logIntervals(Path dir, LatencyRecorder recorder, int intervals, int requests, IntConsumer record) {
        try (IntervalLogs logs = new IntervalLogs(dir, 1_700_000_000_000L, "test")) {
            for (int interval = 0; interval < intervals; interval++) {
                for (int i = 0; i < requests; i++) {
                    record.accept(i);
                }
                recorder.sampleInterval(logs);
            }
        }
    }

    public static Histogram sumOfIntervals(Path log, int expectedIntervals) throws Exception {
        Histogram sum = LatencyRecorder.newHistogram();
        int intervals = 0;
        try (HistogramLogReader reader = new HistogramLogReader(log.toFile())) {
            for (EncodableHistogram h = reader.nextIntervalHistogram(); h != null; h = reader.nextIntervalHistogram()) {
                sum.add((Histogram) h);
                intervals++;
            }
        }
        if (expectedIntervals >= 0) {
            assertThat(intervals).isEqualTo(expectedIntervals);
        }
        return sum;
    }

    @Test
    void valuesOutOfRangeAreClampedNotLost() {
        LatencyRecorder recorder = new LatencyRecorder();
        recorder.recordLag(-5);
        recorder.recordLag(LatencyRecorder.HIGHEST_TRACKABLE_NS * 2);
        recorder.sampleInterval(null);
        assertThat(recorder.lagTotal().getTotalCount()).isEqualTo(2);
        assertThat(recorder.lagTotal().getMinValue()).isZero();
    }

    @Test
    void percentilesAreInMilliseconds() {
        Histogram histogram = LatencyRecorder.newHistogram();
        for (long ms = 1; ms <= 100; ms++) {
            histogram.recordValue(ms * 1_000_000);
        }
        Percentiles p = LatencyRecorder.percentiles(histogram);
        assertThat(p.count()).isEqualTo(100);
        assertThat(p.p50Ms()).isCloseTo(50, within(0.1));
        assertThat(p.p99Ms()).isCloseTo(99, within(0.1));
        assertThat(p.maxMs()).isCloseTo(100, within(0.1));
        assertThat(p.meanMs()).isCloseTo(50.5, within(0.1));
        assertThat(LatencyRecorder.percentiles(LatencyRecorder.newHistogram())).isEqualTo(Percentiles.EMPTY);
    }
}
