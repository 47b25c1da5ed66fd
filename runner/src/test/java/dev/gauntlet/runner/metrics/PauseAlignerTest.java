package dev.gauntlet.runner.metrics;

import dev.gauntlet.api.JvmMetrics;
import dev.gauntlet.api.RunJvmCosts;
import dev.gauntlet.runner.results.ResultRow;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.FileOutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class PauseAlignerTest {
    private static final long START_EPOCH_MS = 1_700_000_000_000L;
    private static final long NS_PER_MS = 1_000_000;

    @TempDir
    Path runDir;

    @Test
    void eachIntervalIsPairedWithTheLongestPauseThatOverlapsIt() throws Exception {
        // 12 one-second intervals; response max i ms in interval i, so intervals 2..11 are the ten worst.
        writeLog("response.hlog", i -> (i + 1) * NS_PER_MS);
        writeLog("lag.hlog", i -> i == 0 ? 50 * NS_PER_MS : NS_PER_MS);
        List<JvmMetrics.Pause> target = List.of(
                pause(11_500, 20), pause(11_600, 35),   // both in the worst interval: the longer counts
                pause(10_990, 30),                      // from interval 10 into 11
                pause(0, 5));                           // in the first interval, not among the worst
        List<JvmMetrics.Pause> generator = List.of(pause(100, 40));

        RunJvmCosts.PauseAlignment alignment = PauseAligner.align(runDir, target, generator);

        assertThat(alignment.intervals()).hasSize(12);
        assertThat(alignment.intervals().get(11).targetPauseMaxMs()).isEqualTo(35);
        assertThat(alignment.intervals().get(10).targetPauseMaxMs()).isEqualTo(30);
        assertThat(alignment.intervals().get(11).responseMaxMs()).isCloseTo(12, org.assertj.core.data.Offset.offset(0.1));
        assertThat(alignment.intervals().get(0).generatorPauseMaxMs()).isEqualTo(40);
        assertThat(alignment.worstIntervals()).isEqualTo(10);
        assertThat(alignment.worstResponseWithTargetPause()).isEqualTo(2);
        assertThat(alignment.worstLagWithGeneratorPause()).isEqualTo(1);
        // The tail by response time: the generator's pause fell in the first interval, not among the ten slowest.
        GcInTail tail = PauseAligner.tail(alignment);
        assertThat(tail).isEqualTo(new GcInTail(10, 2, 35, 0, 0));
        // Beside them, each side's pauses of the measured phase as its JVM's figures count them.
        assertThat(tail.describe(new JvmMetrics.GcPauses(4, 90, 35, target), new JvmMetrics.GcPauses(1, 40, 40, generator)))
                .isEqualTo("of the 10 slowest seconds, 2 held a target GC pause (up to 35.0 ms; the measured phase's target GC "
                        + "pauses: 4, longest 35.0 ms), none held a generator GC pause (the measured phase's generator GC pauses: "
                        + "1, longest 40.0 ms)");
        assertThat(tail.describe(null, null)).as("JVMs not recorded")
                .isEqualTo("of the 10 slowest seconds, 2 held a target GC pause (up to 35.0 ms), none held a generator GC pause");
    }

    @Test
    void noPausesNoMatches() throws Exception {
        writeLog("response.hlog", i -> 10 * NS_PER_MS);
        writeLog("lag.hlog", i -> NS_PER_MS);

        RunJvmCosts.PauseAlignment alignment = PauseAligner.align(runDir, List.of(), List.of());

        assertThat(alignment.worstResponseWithTargetPause()).isZero();
        assertThat(alignment.worstLagWithGeneratorPause()).isZero();
        assertThat(alignment.intervals()).allSatisfy(interval -> assertThat(interval.targetPauseMaxMs()).isZero());
    }

    private static JvmMetrics.Pause pause(long offsetMs, double durationMs) {
        return new JvmMetrics.Pause(START_EPOCH_MS + offsetMs, durationMs, "Pause Young");
    }

    private void writeLog(String name, java.util.function.IntToLongFunction valueNs) throws Exception {
        try (PrintStream out = new PrintStream(new FileOutputStream(runDir.resolve(name).toFile()))) {
            HistogramLogWriter writer = new HistogramLogWriter(out);
            writer.outputStartTime(START_EPOCH_MS);
            writer.setBaseTime(START_EPOCH_MS);
            writer.outputLegend();
            for (int i = 0; i < 12; i++) {
                Histogram interval = new Histogram(3);
                interval.recordValue(valueNs.applyAsLong(i));
                interval.setStartTimeStamp(START_EPOCH_MS + i * 1000L);
                interval.setEndTimeStamp(START_EPOCH_MS + (i + 1) * 1000L);
                writer.outputIntervalHistogram(interval);
            }
        }
    }
}
