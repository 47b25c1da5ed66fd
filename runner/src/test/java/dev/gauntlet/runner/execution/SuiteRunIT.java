package dev.gauntlet.runner.execution;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gauntlet.api.Json;
import dev.gauntlet.api.RunSummary;
import dev.gauntlet.runner.Main;
import dev.gauntlet.runner.results.ResultRow;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogReader;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code gauntlet run} end to end with real processes: the dummy target in its JVM, a generator JVM
 * per run, files checked as a user would read them.
 */
@Tag("alone") // asserts the achieved rate and the warm-up's length
class SuiteRunIT {
    private static final long WAIT_MS = 50;
    private static final double RATE_PER_SEC = 400;
    /** The generator records nanoseconds in its interval logs. */
    private static final double HLOG_UNITS_PER_MS = 1_000_000.0;

    @TempDir
    Path work;

    @Test
    void aSuiteWritesItsResultsAndEveryRequestIsAccountedFor() throws Exception {
        Path suite = write("ok.yaml", """
                name: it-ok
                targets: [dummy]
                jvm: { target: [-Xmx256m], generator: [-Xmx256m] }
                scenarios:
                  - name: open
                    load: { type: open, ratePerSec: %s, interArrival: CONSTANT }
                    waitMs: %d
                    warmupMs: 1000
                    steady: { maxMs: 8000, windows: 2 }
                    durationMs: 4000
                  - name: closed
                    load: { type: closed, connections: 4 }
                    warmupMs: 500
                    durationMs: 2000
                  - name: held
                    load: { type: max-concurrency, requests: 300 }
                    waitMs: 10000
                    warmupMs: 500
                    durationMs: 2000
                """.formatted(RATE_PER_SEC, WAIT_MS));

        assertThat(Main.execute("run", "--suite", suite.toString(), "--results", work.toString(), "--no-calibration")).isZero();

        Path dir = onlyResultsDir();
        assertThat(Json.json().readTree(dir.resolve("suite.json").toFile()).path("platform").path("skipped").asText())
                .isEqualTo("--no-calibration");
        JsonNode environment = Json.json().readTree(dir.resolve("suite.json").toFile()).get("environment");
        assertThat(environment.get("jdk").asText()).contains("25");
        assertThat(environment.get("isolation").get("target").get("mechanism").asText()).isIn("taskset", "none");
        assertThat(dir.resolve("runs/dummy/isolation.json")).content().contains("\"cpusAllowed\"");
        assertThat(dir.resolve("runs/dummy/settings.json")).exists();

        List<ResultRow> rows = List.of(Json.json().readValue(dir.resolve("results.json").toFile(), ResultRow[].class));
        assertThat(rows).extracting(ResultRow::scenario).containsExactly("open", "closed", "held");
        assertThat(rows.subList(0, 2)).allSatisfy(row -> {
            assertThat(row.errors()).isZero();
            assertThat(row.requests()).isPositive();
        });
        // Every measured row carries a verdict; which one depends on how busy the machine is.
        assertThat(rows).extracting(ResultRow::verdictLabel).allMatch(v -> List.of("ok", "platform-noisy", "target-overloaded",
                "generator-limited", "not-steady").contains(v));
        // The open loop warmed up until steady, 1 to 8 s, judging the target's JIT from its admin port.
        assertThat(rows.getFirst().warmup().seconds()).isBetween(1.0, 8.5);
        assertThat(rows.getFirst().warmup().settled()).isNotNull();
        assertThat(rows.get(1).warmup().settled()).as("a fixed warm-up is not judged").isNull();
        RunSummary.Steadiness steadiness = summary(dir.resolve("runs/dummy/open/1")).steadiness();
        assertThat(steadiness.ruleText()).contains("at least 1 s, at most 8 s");
        assertThat(steadiness.warmup()).isNotEmpty().allSatisfy(window -> assertThat(window.targetJitQueued()).isNotNegative());

        RunSummary open = summary(dir.resolve("runs/dummy/open/1"));
        assertThat(open.completed() + open.errorCount()).as("every request sent is answered or an error").isEqualTo(open.sent());
        assertThat(open.achievedRatePerSec()).isCloseTo(RATE_PER_SEC, org.assertj.core.data.Percentage.withPercentage(3));
        assertThat(minRecorded(dir.resolve("runs/dummy/open/1/response.hlog"))).as("shortest response, ms")
                .isGreaterThanOrEqualTo(WAIT_MS);
        assertThat(open.responseTime().p50Ms()).isGreaterThanOrEqualTo(WAIT_MS);

        RunSummary closed = summary(dir.resolve("runs/dummy/closed/1"));
        assertThat(closed.completed()).isEqualTo(closed.sent()).isPositive();

        RunSummary held = summary(dir.resolve("runs/dummy/held/1"));
        assertThat(held.concurrency().held()).as("requests held at the end").isEqualTo(300);
        assertThat(held.concurrency().serverStarted()).as("requests the target started, from its /stats").isEqualTo(300);
        assertThat(rows.get(2).serverMaxInFlight()).isGreaterThanOrEqualTo(300);
    }

    @Test
    void aTargetThatStopsAnsweringWhileItLivesIsReplacedOnceForItsNextScenario() throws Exception {
        Path suite = longThenAfter("it-freezes", 3000, "generator: { responseTimeoutMs: 1000 }");
        ProcessHandle[] frozen = new ProcessHandle[1];
        try {
            int exit = runDoingToTheTargetInTheFirstRun(suite, target -> {
                // Alive but answering nothing, on either port: what a server whose loop is stuck looks like from outside.
                frozen[0] = target;
                assertThat(new ProcessBuilder("kill", "-STOP", Long.toString(target.pid())).start().waitFor()).isZero();
            });
            assertThat(exit).isEqualTo(2);
        } finally {
            if (frozen[0] != null) {
                frozen[0].destroyForcibly();
            }
        }
        assertThat(frozen[0].isAlive()).as("the frozen target was stopped").isFalse();
        List<ResultRow> rows = List.of(Json.json().readValue(onlyResultsDir().resolve("results.json").toFile(), ResultRow[].class));
        assertThat(rows).extracting(ResultRow::scenario).containsExactly("long", "after");
        assertThat(rows.get(1).note()).startsWith("target restarted after it stopped answering in long");
        assertThat(rows.get(1).requests()).as("the new target served the next scenario").isPositive();
    }

    @Test
    void aTargetThatDiesIsStartedAgainOnceForItsNextScenarioAndTheRunEndsWithCodeTwo() throws Exception {
        Path suite = longThenAfter("it-dies", 6000, "");

        assertThat(runDoingToTheTargetInTheFirstRun(suite, ProcessHandle::destroyForcibly)).isEqualTo(2);

        Path dir = onlyResultsDir();
        List<ResultRow> rows = List.of(Json.json().readValue(dir.resolve("results.json").toFile(), ResultRow[].class));
        assertThat(rows).extracting(ResultRow::note).first().isEqualTo("target died");
        assertThat(rows.get(1).note()).startsWith("target restarted after it died in long");
        assertThat(rows.get(1).requests()).as("the restarted target measured").isPositive();
        assertThat(dir.resolve("runs/dummy/target.log")).exists();
        assertThat(dir.resolve("runs/dummy/target-2.log")).as("the second JVM's own log").content().contains("READY");
    }

    /**
     * A suite of two scenarios on the dummy target: {@code long}, an open loop, then {@code after}, a short closed one.
     * {@code after} runs on a target started again, with neither its JIT nor the generator's warmed: its first second
     * answered 31–76 requests on a quiet host and none on a slow one (CI, 2026-12-06), so it measures 3 s.
     */
    private Path longThenAfter(String name, long longMs, String longGenerator) throws IOException {
        return write(name + ".yaml", """
                name: %s
                targets: [dummy]
                jvm: { target: [-Xmx256m], generator: [-Xmx256m, -Dgauntlet.jitWarmup=false] }
                scenarios:
                  - name: long
                    load: { type: open, ratePerSec: 200 }
                    warmupMs: 0
                    durationMs: %d
                    %s
                  - name: after
                    load: { type: closed, connections: 1 }
                    durationMs: 3000
                """.formatted(name, longMs, longGenerator));
    }

    private interface TargetAction {
        void apply(ProcessHandle target) throws Exception;
    }

    /** Runs {@code suite}, does {@code action} to its target as the first run starts, and returns the run's exit code. */
    private int runDoingToTheTargetInTheFirstRun(Path suite, TargetAction action) throws Exception {
        PrintStream stderr = System.err;
        LineSignal runStarted = new LineSignal(stderr, "dummy · long #1");
        System.setErr(new PrintStream(runStarted, true, StandardCharsets.UTF_8));
        try {
            CompletableFuture<Integer> run = CompletableFuture.supplyAsync(
                    () -> Main.execute("run", "--suite", suite.toString(), "--results", work.toString(), "--no-calibration"));
            // The runner prints the run's progress line once the target is READY, just before the generator starts.
            assertThat(runStarted.await(60, TimeUnit.SECONDS)).as("progress line of the first run").isTrue();
            action.apply(childRunning("TargetMain"));
            return run.get(90, TimeUnit.SECONDS);
        } finally {
            System.setErr(stderr);
        }
    }

    private Path write(String name, String yaml) throws IOException {
        return Files.writeString(work.resolve(name), yaml);
    }

    private Path onlyResultsDir() throws IOException {
        try (Stream<Path> dirs = Files.list(work)) {
            List<Path> found = dirs.filter(Files::isDirectory).toList();
            assertThat(found).hasSize(1);
            return found.getFirst();
        }
    }

    private static RunSummary summary(Path runDir) throws IOException {
        return Json.json().readValue(runDir.resolve("summary.json").toFile(), RunSummary.class);
    }

    /** The smallest value in an interval log, in ms, read with HdrHistogram's own reader. */
    private static double minRecorded(Path hlog) throws IOException {
        HistogramLogReader reader = new HistogramLogReader(new File(hlog.toString()));
        Histogram all = new Histogram(3);
        for (var interval = reader.nextIntervalHistogram(); interval != null; interval = reader.nextIntervalHistogram()) {
            all.add((Histogram) interval);
        }
        assertThat(all.getTotalCount()).as("values in %s", hlog).isPositive();
        return all.getMinValue() / HLOG_UNITS_PER_MS;
    }

    /** The child JVM of this test whose command line names {@code mainClass}. */
    private static ProcessHandle childRunning(String mainClass) {
        return ProcessHandle.current().descendants()
                .filter(p -> FullCommandLine.of(p).contains(mainClass)).findFirst()
                .orElseThrow(() -> new AssertionError("no child process runs " + mainClass));
    }

    /** Passes output through and opens a latch at the first line that contains {@code text}. */
    private static final class LineSignal extends OutputStream {
        private final OutputStream through;
        private final String text;
        private final CountDownLatch seen = new CountDownLatch(1);
        private final ByteArrayOutputStream line = new ByteArrayOutputStream();

        LineSignal(OutputStream through, String text) {
            this.through = through;
            this.text = text;
        }

        @Override
        public synchronized void write(int b) throws IOException {
            through.write(b);
            if (b != '\n') {
                line.write(b);
                return;
            }
            if (line.toString(StandardCharsets.UTF_8).contains(text)) {
                seen.countDown();
            }
            line.reset();
        }

        boolean await(long timeout, TimeUnit unit) throws InterruptedException {
            return seen.await(timeout, unit);
        }
    }
}
