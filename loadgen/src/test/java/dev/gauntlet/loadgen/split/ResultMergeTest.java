package dev.gauntlet.loadgen.split;

import dev.gauntlet.api.ErrorClass;
import dev.gauntlet.api.LoadModel;
import dev.gauntlet.api.LoadSpec;
import dev.gauntlet.api.RunDirectory.HistogramLog;
import dev.gauntlet.api.RunDirectory;
import dev.gauntlet.api.RunSummary;
import dev.gauntlet.api.Verdict;
import dev.gauntlet.loadgen.measure.ErrorLog;
import dev.gauntlet.loadgen.measure.IntervalLogs;
import dev.gauntlet.loadgen.measure.LatencyRecorder;
import dev.gauntlet.loadgen.measure.LatencyRecorderTest;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;

class ResultMergeTest {
    private static final URI URL = URI.create("http://127.0.0.1:1/hello");

    @Test
    void mergedHistogramsEqualTheSumOfTheProcessesLosslessly(@TempDir Path dir) throws Exception {
        LoadSpec spec = LoadSpec.of(URL, new LoadModel.ClosedLoop(4)).toBuilder().processes(3).build();
        List<Path> childDirs = new ArrayList<>();
        Histogram expectedResponse = LatencyRecorder.newHistogram();
        long expectedCompleted = 0;
        SplittableRandom random = new SplittableRandom(3);
        for (int child = 0; child < 3; child++) {
            Path childDir = Files.createDirectories(dir.resolve("p" + (child + 1)));
            LatencyRecorder recorder = new LatencyRecorder();
            long completed = 0;
            try (IntervalLogs logs = new IntervalLogs(childDir, 1_700_000_000_000L, "child")) {
                for (int interval = 0; interval < 4 + child; interval++) {
                    for (int i = 0; i < 500; i++) {
                        long ns = 1 + random.nextLong(2_000_000_000L);
                        recorder.recordResponse(0, ns / 2, ns);
                        recorder.recordLag(random.nextLong(10_000));
                        expectedResponse.recordValue(ns);
                        completed++;
                    }
                    recorder.sampleInterval(logs);
                }
            }
            expectedCompleted += completed;
            new RunDirectory(childDir).writeSummary(summary(spec, completed, child));
            childDirs.add(childDir);
        }

        RunSummary merged = ResultMerge.merge(spec, childDirs, dir);

        assertThat(merged.completed()).isEqualTo(expectedCompleted);
        assertThat(merged.errors().get(ErrorClass.RESET)).isEqualTo(0 + 1 + 2);
        assertThat(merged.processes()).isEqualTo(3);
        assertThat(merged.responseTime()).isEqualTo(LatencyRecorder.percentiles(expectedResponse));
        Histogram readBack = LatencyRecorderTest.sumOfIntervals(new RunDirectory(dir).log(HistogramLog.RESPONSE), 6);
        assertThat(readBack).isEqualTo(expectedResponse);
        assertThat(merged.verdict()).isEqualTo(Verdict.OK);
        assertThat(new RunDirectory(dir).log(HistogramLog.TARGET_HICCUP)).as("no process read the target's log").doesNotExist();
    }

    @Test
    void theTargetsHiccupLogIsTheFirstProcessThatReadIt(@TempDir Path dir) throws Exception {
        LoadSpec spec = LoadSpec.of(URL, new LoadModel.ClosedLoop(2)).toBuilder().processes(2).build();
        List<Path> childDirs = new ArrayList<>();
        for (int child = 0; child < 2; child++) {
            Path childDir = Files.createDirectories(dir.resolve("p" + (child + 1)));
            try (IntervalLogs logs = new IntervalLogs(childDir, 1_700_000_000_000L, "child")) {
                new LatencyRecorder().sampleInterval(logs);
            }
            new RunDirectory(childDir).writeSummary(summary(spec, 0, 0));
            childDirs.add(childDir);
        }
        Files.writeString(new RunDirectory(childDirs.get(1)).log(HistogramLog.TARGET_HICCUP), "second's\n");

        ResultMerge.merge(spec, childDirs, dir);

        assertThat(new RunDirectory(dir).log(HistogramLog.TARGET_HICCUP)).hasContent("second's");
    }

    @Test
    void mergedErrorsAreTheProcessesLinesSummedAndAMissingFileAddsNothing(@TempDir Path dir) throws Exception {
        LoadSpec spec = LoadSpec.of(URL, new LoadModel.ClosedLoop(3)).toBuilder().processes(3).build();
        List<Map<ErrorClass, Long>> firstChild = List.of(
                Map.of(ErrorClass.RESET, 3L), Map.of(), Map.of(ErrorClass.BAD_STATUS, 2L, ErrorClass.NO_THREAD, 1L));
        List<Map<ErrorClass, Long>> secondChild = List.of(Map.of(ErrorClass.RESET, 4L), Map.of(ErrorClass.REFUSED, 5L));
        List<Path> childDirs = List.of(dir.resolve("p1"), dir.resolve("p2"), dir.resolve("p3"));
        for (Path childDir : childDirs) {
            Files.createDirectories(childDir);
            new RunDirectory(childDir).writeSummary(summary(spec, 10, 0));
        }
        try (IntervalLogs logs = new IntervalLogs(childDirs.get(0), 1_700_000_000_000L, "child 1")) {
            logs.writeErrors(0, 1.001, firstChild.get(0));
            logs.writeErrors(1.001, 0.999, firstChild.get(1));
            logs.writeErrors(2.0, 0.25, firstChild.get(2));
        }
        try (IntervalLogs logs = new IntervalLogs(childDirs.get(1), 1_700_000_000_000L, "child 2")) {
            logs.writeErrors(0, 1.002, secondChild.get(0));
            logs.writeErrors(1.002, 0.998, secondChild.get(1));
        }
        // The third is a generator from before errors.csv, or one that died before writing it.
        new IntervalLogs(childDirs.get(2), 1_700_000_000_000L, "child 3").close();
        Files.delete(new RunDirectory(childDirs.get(2)).errors());

        ResultMerge.merge(spec, childDirs, dir);

        assertThat(Files.readString(new RunDirectory(dir).errors())).isEqualTo(String.join("\n",
                "# errors per interval of the measured phase, by class; merged from 3 generator processes",
                "startSec,lengthSec," + String.join(",", Arrays.stream(ErrorClass.values()).map(ErrorClass::name).toList()),
                csvLine("0.000,1.001", Map.of(ErrorClass.RESET, 7L)),
                csvLine("1.001,0.999", Map.of(ErrorClass.REFUSED, 5L)),
                csvLine("2.000,0.250", Map.of(ErrorClass.BAD_STATUS, 2L, ErrorClass.NO_THREAD, 1L)), ""));
        assertThat(ErrorLog.read(new RunDirectory(dir).errors())).extracting(ErrorLog.Interval::startSec)
                .containsExactly(0.0, 1.001, 2.0);
    }

    /** An errors.csv line as the report reads it: the times, then every class's count in declaration order. */
    private static String csvLine(String times, Map<ErrorClass, Long> errors) {
        StringBuilder line = new StringBuilder(times);
        for (ErrorClass errorClass : ErrorClass.values()) {
            line.append(',').append(errors.getOrDefault(errorClass, 0L));
        }
        return line.toString();
    }

    private static RunSummary summary(LoadSpec spec, long completed, int resets) {
        Map<ErrorClass, Long> errors = new EnumMap<>(ErrorClass.class);
        for (ErrorClass errorClass : ErrorClass.values()) {
            errors.put(errorClass, errorClass == ErrorClass.RESET ? (long) resets : 0L);
        }
        return RunSummary.builder().spec(spec).startedAt(Instant.now()).measuredSec(5.0).scheduled(completed + resets)
                .sent(completed + resets).completed(completed).errors(errors).achievedRatePerSec(completed / 5.0)
                .connectionsOpened(4).generatorCost(new RunSummary.GeneratorCost(100, 1 << 20, 7, 20, 1, 30))
                .connectionsPeak(4).connectionsLimit(4).build();
    }
}
