package dev.gauntlet.loadgen;

import dev.gauntlet.api.ErrorClass;
import dev.gauntlet.api.LoadModel;
import dev.gauntlet.api.LoadSpec;
import dev.gauntlet.api.RunDirectory.HistogramLog;
import dev.gauntlet.api.RunDirectory;
import dev.gauntlet.api.RunSummary;
import dev.gauntlet.loadgen.TestServer.Behaviour;
import dev.gauntlet.loadgen.run.Generator;
import dev.gauntlet.loadgen.split.MultiProcess;
import org.HdrHistogram.HistogramLogReader;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * {@code errors.csv} from a real load against a server that fails some requests: one line per
 * interval of the measured phase, as {@code hiccup.hlog} has, each class's column adding up to
 * {@code summary.json}'s count of it; merged line by line over processes. The file is read here
 * with a parser of its own, not {@link dev.gauntlet.loadgen.measure.ErrorLog#read}, so the format itself is what is tested.
 */
@Tag("alone") // asserts when in the run errors were logged
@Timeout(60)
class ErrorLogIT {
    private static final String HEADER = "startSec,lengthSec,"
            + Arrays.stream(ErrorClass.values()).map(ErrorClass::name).collect(Collectors.joining(","));
    private static final String DATA_LINE = "\\d+\\.\\d{3},\\d+\\.\\d{3}(,\\d+){" + ErrorClass.values().length + "}";

    private final PrintStream progress = new PrintStream(new ByteArrayOutputStream());

    @Test
    void errorsPerSecondAddUpToTheSummaryClassByClass(@TempDir Path dir) throws Exception {
        try (TestServer server = failingServer()) {
            // Errors in the warm-up too: they must not reach the file, as they do not reach the summary.
            LoadSpec spec = LoadSpec.of(server.uri("/hello"), new LoadModel.OpenLoop(300, LoadModel.InterArrival.CONSTANT))
                    .withPhases(500, 2_500);
            RunSummary summary = Generator.run(spec, dir, progress);

            assertThat(summary.errors().get(ErrorClass.RESET)).isPositive();
            assertThat(summary.errors().get(ErrorClass.BAD_STATUS)).isPositive();
            List<String> lines = Files.readAllLines(new RunDirectory(dir).errors(), StandardCharsets.UTF_8);
            assertThat(lines.getFirst()).isEqualTo("# errors per interval of the measured phase, by class; "
                    + spec.model().describe() + " " + spec.url());
            assertThat(lines.get(1)).isEqualTo(HEADER);
            List<String> data = lines.subList(2, lines.size());
            assertThat(data).allMatch(line -> line.matches(DATA_LINE));

            // One line per interval: the hiccup log's, which holds the measured phase's intervals only.
            assertThat(data).hasSize(intervals(new RunDirectory(dir).log(HistogramLog.HICCUP))).hasSizeBetween(3, 4);
            assertThat(columnSums(data)).isEqualTo(summary.errors());
            // Counts per interval, not running totals: errors come all along, so no line holds them all.
            assertThat(data).filteredOn(line -> count(line, ErrorClass.RESET) > 0).hasSizeGreaterThanOrEqualTo(2);
            // The intervals follow one another from the measured phase's start, over the whole phase.
            double endSec = 0;
            for (String line : data) {
                assertThat(seconds(line, 0)).isEqualTo(endSec, within(1e-9));
                endSec = seconds(line, 0) + seconds(line, 1);
            }
            assertThat(endSec).isBetween(2.4, 3.5);
        }
    }

    @Test
    void processesMergeTheirErrorsLineByLine(@TempDir Path dir) throws Exception {
        try (TestServer server = failingServer()) {
            LoadSpec spec = LoadSpec.of(server.uri("/hello"), new LoadModel.OpenLoop(200, LoadModel.InterArrival.CONSTANT))
                    .toBuilder().warmupMs(200).durationMs(1_500).processes(2).build();
            RunSummary summary = MultiProcess.run(spec, dir, progress, GeneratorMain.class);

            assertThat(summary.errorCount()).isPositive();
            List<String> first = dataLines(new RunDirectory(dir.resolve("p1")).errors());
            List<String> second = dataLines(new RunDirectory(dir.resolve("p2")).errors());
            List<String> merged = dataLines(new RunDirectory(dir).errors());
            assertThat(merged).hasSize(Math.max(first.size(), second.size())).isNotEmpty();
            for (int k = 0; k < merged.size(); k++) {
                for (ErrorClass errorClass : ErrorClass.values()) {
                    assertThat(count(merged.get(k), errorClass)).as("line %d, %s", k, errorClass).isEqualTo(
                            (k < first.size() ? count(first.get(k), errorClass) : 0)
                                    + (k < second.size() ? count(second.get(k), errorClass) : 0));
                }
            }
            assertThat(columnSums(merged)).isEqualTo(summary.errors());
        }
    }

    /** Each connection's second request is reset, and every fifth request is answered 500. */
    private static TestServer failingServer() throws Exception {
        TestServer server = new TestServer(Behaviour.RESET_ON_REUSE);
        server.failEvery(5, Behaviour.WRONG_STATUS);
        return server;
    }

    private static List<String> dataLines(Path file) throws Exception {
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8).stream()
                .filter(line -> !line.startsWith("#")).toList();
        assertThat(lines.getFirst()).isEqualTo(HEADER);
        return lines.subList(1, lines.size());
    }

    private static Map<ErrorClass, Long> columnSums(List<String> data) {
        Map<ErrorClass, Long> sums = new EnumMap<>(ErrorClass.class);
        for (ErrorClass errorClass : ErrorClass.values()) {
            sums.put(errorClass, data.stream().mapToLong(line -> count(line, errorClass)).sum());
        }
        return sums;
    }

    /** The column the header gives the class: its declaration order, after the two times. */
    private static long count(String line, ErrorClass errorClass) {
        return Long.parseLong(line.split(",")[2 + errorClass.ordinal()]);
    }

    private static double seconds(String line, int column) {
        return Double.parseDouble(line.split(",")[column]);
    }

    private static int intervals(Path hlog) throws Exception {
        int intervals = 0;
        try (HistogramLogReader reader = new HistogramLogReader(hlog.toFile())) {
            while (reader.nextIntervalHistogram() != null) {
                intervals++;
            }
        }
        return intervals;
    }
}
