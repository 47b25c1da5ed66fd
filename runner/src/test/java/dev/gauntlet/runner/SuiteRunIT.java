package dev.gauntlet.runner;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gauntlet.api.Json;
import dev.gauntlet.api.RunSummary;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code gauntlet run} end to end with real processes: the dummy target in its JVM, a generator JVM
 * per run, files checked as a user would read them.
 */
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

        assertThat(Main.execute("run", "--suite", suite.toString(), "--results", work.toString())).isZero();

        Path dir = onlyResultsDir();
        JsonNode environment = Json.json().readTree(dir.resolve("suite.json").toFile()).get("environment");
        assertThat(environment.get("jdk").asText()).contains("25");
        assertThat(environment.get("cpuPlan").get("mechanism").asText()).isIn("taskset", "none");
        assertThat(dir.resolve("runs/dummy/settings.json")).exists();

        List<ResultRow> rows = List.of(Json.json().readValue(dir.resolve("results.json").toFile(), ResultRow[].class));
        assertThat(rows).extracting(ResultRow::scenario).containsExactly("open", "closed", "held");
        assertThat(rows.subList(0, 2)).allSatisfy(row -> {
            assertThat(row.errors()).isZero();
            assertThat(row.requests()).isPositive();
        });
        // The open loop's self-check depends on how busy the machine is, so only the closed loop must be clean.
        assertThat(rows.get(1).note()).isEmpty();

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
    void aTargetThatDiesMidRunEndsWithCodeTwoAndKeepsWhatWasMeasured() throws Exception {
        Path suite = write("dies.yaml", """
                name: it-dies
                targets: [dummy]
                jvm: { target: [-Xmx256m], generator: [-Xmx256m] }
                scenarios:
                  - name: long
                    load: { type: open, ratePerSec: 200 }
                    warmupMs: 0
                    durationMs: 6000
                  - name: after
                    load: { type: closed, connections: 1 }
                    durationMs: 1000
                """);
        CompletableFuture<Integer> run = CompletableFuture.supplyAsync(
                () -> Main.execute("run", "--suite", suite.toString(), "--results", work.toString()));

        ProcessHandle target = awaitChild("TargetMain");
        awaitChild("GeneratorMain");
        awaitCompletedRequests(work, 100);
        target.destroyForcibly();

        assertThat(run.get(60, TimeUnit.SECONDS)).isEqualTo(2);
        Path dir = onlyResultsDir();
        List<ResultRow> rows = List.of(Json.json().readValue(dir.resolve("results.json").toFile(), ResultRow[].class));
        assertThat(rows).extracting(ResultRow::note).containsExactly("target died", "skipped: target died earlier");
        assertThat(dir.resolve("runs/dummy/target.log")).exists();
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

    /** A child JVM of this test whose command line names {@code mainClass}, once it exists. */
    private static ProcessHandle awaitChild(String mainClass) throws InterruptedException {
        for (int i = 0; i < 600; i++) {
            var child = ProcessHandle.current().descendants()
                    .filter(p -> p.info().commandLine().orElse("").contains(mainClass)).findFirst();
            if (child.isPresent()) {
                return child.get();
            }
            Thread.sleep(50);
        }
        throw new AssertionError("no child process running " + mainClass + " within 30 s");
    }

    /** Polls the target's admin /stats (its port read from the READY line in target.log) until it has served enough. */
    private static void awaitCompletedRequests(Path results, long completed) throws Exception {
        HttpClient http = HttpClient.newHttpClient();
        for (int i = 0; i < 600; i++) {
            Optional<Integer> admin = adminPort(results);
            if (admin.isPresent()) {
                String stats = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + admin.get() + "/stats")).build(),
                        HttpResponse.BodyHandlers.ofString()).body();
                if (Json.json().readTree(stats).get("completed").asLong() >= completed) {
                    return;
                }
            }
            Thread.sleep(50);
        }
        throw new AssertionError("the target did not complete " + completed + " requests within 30 s");
    }

    private static Optional<Integer> adminPort(Path results) throws IOException {
        try (Stream<Path> logs = Files.find(results, 4, (p, a) -> p.endsWith("target.log"))) {
            for (Path log : logs.toList()) {
                Matcher m = Pattern.compile("READY port=\\d+ admin=(\\d+)").matcher(Files.readString(log));
                if (m.find()) {
                    return Optional.of(Integer.parseInt(m.group(1)));
                }
            }
        }
        return Optional.empty();
    }
}
