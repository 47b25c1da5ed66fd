package dev.gauntlet.runner.metrics;

import dev.gauntlet.api.JvmMetrics;
import jdk.jfr.Configuration;
import jdk.jfr.Recording;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Reads a real JFR recording of this JVM, made with the runner's settings, around collections it forces. */
class JvmMetricsReaderTest {

    @TempDir
    Path dir;

    @Test
    void pausesInTheMeasuredPhaseAreCountedAndEveryPauseOfTheRunIsOnTheTimeline() throws Exception {
        Path file = dir.resolve("test.jfr");
        Instant runStart;
        Instant measuredStart;
        Instant measuredEnd;
        try (Recording recording = new Recording(Configuration.getConfiguration("default"))) {
            recording.start();
            runStart = Instant.now();
            System.gc();   // in the run window, before the measured phase
            measuredStart = Instant.now();
            System.gc();
            System.gc();
            measuredEnd = Instant.now();
            recording.stop();
            recording.dump(file);
        }

        JvmMetrics metrics = JvmMetricsReader.read(file, new JvmMetricsReader.Window(runStart, measuredEnd),
                new JvmMetricsReader.Window(measuredStart, measuredEnd));

        assertThat(metrics.gcPauses().count()).isEqualTo(2);
        assertThat(metrics.gcPauses().maxMs()).isPositive();
        assertThat(metrics.gcPauses().totalMs()).isGreaterThanOrEqualTo(metrics.gcPauses().maxMs());
        assertThat(metrics.gcPauses().timeline()).hasSize(3)
                .allSatisfy(pause -> assertThat(pause.startEpochMs()).isBetween((double) runStart.toEpochMilli(),
                        (double) measuredEnd.toEpochMilli() + 1));
        assertThat(metrics.samples().heapAfterGcBytes()).as("one heap sample after each collection of the run window")
                .hasSize(3).allSatisfy(sample -> {
                    assertThat(sample.epochMs()).isBetween((double) runStart.toEpochMilli(), (double) measuredEnd.toEpochMilli() + 1);
                    assertThat(sample.value()).isPositive();
                });
        assertThat(metrics.heap().usedMaxBytes()).isPositive();
        assertThat(metrics.heap().committedMaxBytes()).isGreaterThanOrEqualTo(metrics.heap().usedMaxBytes());
        assertThat(metrics.gc()).contains("/");
        assertThat(metrics.jvmArguments()).isNotNull();
    }

    @Test
    void aWindowWithoutCollectionsHasNoPausesAndNoHeapFigures() throws Exception {
        Path file = dir.resolve("quiet.jfr");
        Instant before;
        try (Recording recording = new Recording(Configuration.getConfiguration("default"))) {
            recording.start();
            System.gc();
            before = Instant.now();
            recording.stop();
            recording.dump(file);
        }
        Instant later = before.plusSeconds(3600);

        JvmMetrics metrics = JvmMetricsReader.read(file, new JvmMetricsReader.Window(later, later.plusSeconds(1)),
                new JvmMetricsReader.Window(later, later.plusSeconds(1)));

        assertThat(metrics.gcPauses().count()).isZero();
        assertThat(metrics.gcPauses().timeline()).isEmpty();
        assertThat(metrics.heap().usedMaxBytes()).isNull();
        assertThat(metrics.samples()).isEqualTo(JvmMetrics.Samples.NONE);
        assertThat(metrics.withoutTimeline().gcPauses().timeline()).isEqualTo(List.of());
    }

    @Test
    void periodicSamplesOfTheRunWindowAreKeptInTimeOrderAndLeftOutOfTheRow() throws Exception {
        Path file = dir.resolve("periodic.jfr");
        Instant start;
        Instant end;
        try (Recording recording = new Recording()) {
            // Emitted as the recording's chunk begins and again as it ends: two samples of each, with no waiting.
            recording.enable("jdk.CPULoad").with("period", "everyChunk");
            recording.enable("jdk.JavaThreadStatistics").with("period", "everyChunk");
            start = Instant.now();
            recording.start();
            recording.stop();
            end = Instant.now();
            recording.dump(file);
        }

        JvmMetrics metrics = JvmMetricsReader.read(file, new JvmMetricsReader.Window(start, end),
                new JvmMetricsReader.Window(start, end));

        for (List<JvmMetrics.Sample> series : List.of(metrics.samples().cpuPercent(), metrics.samples().platformThreads())) {
            assertThat(series).isNotEmpty()
                    .allSatisfy(sample -> assertThat(sample.epochMs()).isBetween((double) start.toEpochMilli(), (double) end.toEpochMilli() + 1))
                    .isSortedAccordingTo(Comparator.comparingDouble(JvmMetrics.Sample::epochMs));
        }
        assertThat(metrics.samples().platformThreads()).allSatisfy(sample -> assertThat(sample.value()).isPositive());
        assertThat(metrics.withoutTimeline().samples()).isEqualTo(JvmMetrics.Samples.NONE);
    }
}
