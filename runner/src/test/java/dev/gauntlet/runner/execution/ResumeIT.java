package dev.gauntlet.runner.execution;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gauntlet.api.Json;
import dev.gauntlet.runner.GauntletCli;
import dev.gauntlet.runner.Main;
import dev.gauntlet.runner.Signals;
import dev.gauntlet.runner.report.ReportWriter;
import dev.gauntlet.runner.results.ResultRow;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code ./gauntlet run --resume}: a real runner process stopped mid-suite, then resumed; the rows
 * equal an uninterrupted run's, none duplicated, and what was measured before is kept as it was.
 * A resume on another setup than the recorded one is refused, and at another commit only allowed when asked.
 */
class ResumeIT {
    private static final String SUITE = """
            name: it-resume
            targets: [dummy, jdk-httpserver-sync]
            jvm: { target: [-Xmx256m], generator: [-Xmx256m, -Dgauntlet.jitWarmup=false] }
            scenarios:
              - name: warm
                warmUp: true
                load: { type: closed, connections: 2 }
                durationMs: 500
              - name: one
                load: { type: closed, connections: 1 }
                durationMs: 500
              - name: two
                load: { type: closed, connections: 2 }
                durationMs: 500
            """;
    private static final List<String> EVERY_RUN = List.of(
            "dummy/one/1", "dummy/two/1", "jdk-httpserver-sync/one/1", "jdk-httpserver-sync/two/1");

    /** The progress line of a measured run, such as {@code [3/8] dummy · two: 1234 requests, ...}. */
    private static final Pattern MEASURED_RUN = Pattern.compile("^\\[\\d+/\\d+\\] \\S+ . \\S+: ");

    @TempDir
    Path work;

    /** The runner process's stderr, line by line. */
    private final List<String> stderr = new CopyOnWriteArrayList<>();
    private Thread stderrReader;

    @Test
    void aSuiteStoppedMidwayAndResumedHasEveryRowOnce() throws Exception {
        Path suite = Files.writeString(work.resolve("resume.yaml"), SUITE);
        Path results = work.resolve("results");

        Process runner = gauntlet("run", "--suite", suite.toString(), "--results", results.toString(), "--no-calibration");
        // Stopped after the first target's rows: the resume starts the second target afresh.
        CountDownLatch twoRowsStored = runsRecorded(runner, 2);
        assertThat(twoRowsStored.await(120, TimeUnit.SECONDS)).as("progress lines of two measured runs").isTrue();
        List<ProcessHandle> children = runner.descendants().toList();
        Signals.send("TERM", runner.pid());
        assertThat(runner.waitFor(30, TimeUnit.SECONDS)).as("the runner stops on SIGTERM").isTrue();
        assertThat(children).as("the runner's target and generator JVMs").noneMatch(ProcessHandle::isAlive);
        assertThat(stderrReader.join(Duration.ofSeconds(10))).as("its stderr read to the end").isTrue();
        Path dir = onlyResultsDir(results);
        List<ResultRow> before = measuredRows(dir);
        assertThat(before.size()).as("rows measured before the stop").isBetween(2, EVERY_RUN.size() - 1);
        assertThat(rows(dir)).as("no row for the run the stop cut short").isEqualTo(before);
        assertThat(dir.resolve(ReportWriter.FILE_NAME)).as("the report of the runs measured before the stop").isRegularFile();
        assertThat(stderr).as("the runner's last words").anyMatch(line -> line.equals("gauntlet: interrupted; the runs measured"
                + " so far are in " + dir + "; ./gauntlet run --resume " + dir + " measures the rest"));

        assertThat(Main.execute("run", "--resume", dir.toString())).isZero();

        List<ResultRow> after = rows(dir);
        assertThat(after).extracting(row -> row.target() + "/" + row.scenario() + "/" + row.repetition())
                .containsExactlyElementsOf(EVERY_RUN);
        assertThat(after).allMatch(ResultRow::measured);
        assertThat(after).as("rows measured before the stop are kept as they were").containsAll(before);
    }

    @Test
    void resumeRefusesOptionsThatWouldChangeTheSuiteAndDirectoriesThatAreNotResults() throws Exception {
        assertThat(Main.execute("run", "--resume", work.toString(), "--targets", "dummy")).isEqualTo(2);
        assertThat(Main.execute("run", "--resume", work.toString())).isEqualTo(2);
    }

    @Test
    void resumeRefusesAnotherNetworkOrJdkAndAnotherCommitUnlessAllowedWhichTheRowsThenSay() throws Exception {
        Path suite = Files.writeString(work.resolve("small.yaml"), """
                name: it-resume-setup
                targets: [dummy]
                repetitions: 2
                jvm: { target: [-Xmx256m], generator: [-Xmx256m, -Dgauntlet.jitWarmup=false] }
                scenarios:
                  - name: one
                    load: { type: closed, connections: 1 }
                    durationMs: 500
                """);
        Path results = work.resolve("results");
        assertThat(Main.execute("run", "--suite", suite.toString(), "--results", results.toString(), "--no-calibration")).isZero();
        Path dir = onlyResultsDir(results);
        // As if the suite had been stopped after its first run.
        ResultRow first = rows(dir).getFirst();
        Json.json().writeValue(dir.resolve("results.json").toFile(), List.of(first));
        Path suiteJson = dir.resolve("suite.json");
        ObjectNode recorded = (ObjectNode) Json.json().readTree(suiteJson.toFile());
        ObjectNode environment = (ObjectNode) recorded.get("environment");
        String jdk = environment.get("jdk").asText();
        String commit = environment.get("gitCommit").asText();

        GauntletCli.Finished network = resume(dir, "--network", "netns");
        assertThat(network.exitCode()).isEqualTo(2);
        assertThat(network.stderr()).containsExactly("gauntlet: " + dir + " was measured with --network loopback: --resume"
                + " continues it so; drop --network netns");

        environment.put("jdk", "Other 21.0.2+13");
        Json.json().writeValue(suiteJson.toFile(), recorded);
        GauntletCli.Finished otherJdk = resume(dir);
        assertThat(otherJdk.exitCode()).isEqualTo(2);
        assertThat(otherJdk.stderr()).containsExactly("gauntlet: cannot resume " + dir + " on another setup: the JDK was"
                + " Other 21.0.2+13, now " + jdk + "; resume it where it began, or start a new suite");

        String otherCommit = "0123456789abcdef0123456789abcdef01234567";
        environment.put("jdk", jdk);
        environment.put("gitCommit", otherCommit);
        Json.json().writeValue(suiteJson.toFile(), recorded);
        GauntletCli.Finished otherCommitRefused = resume(dir);
        assertThat(otherCommitRefused.exitCode()).isEqualTo(2);
        assertThat(otherCommitRefused.stderr()).containsExactly("gauntlet: " + dir + " was measured at commit " + otherCommit
                + ", this checkout is at " + commit + ": check that commit out to resume, or pass --allow-commit-change"
                + " to mix the two (the rows say which is which)");
        assertThat(rows(dir)).as("nothing measured by a refused resume").containsExactly(first);

        GauntletCli.Finished allowed = resume(dir, "--allow-commit-change");
        assertThat(allowed.exitCode()).isZero();
        assertThat(allowed.stderr()).contains("gauntlet: " + dir + " was measured at commit " + otherCommit
                + "; the runs measured now are at " + commit + " (--allow-commit-change), and their rows say so");
        List<ResultRow> after = rows(dir);
        assertThat(after).hasSize(2).startsWith(first);
        assertThat(after.get(1).note()).startsWith("commit " + commit + " (resumed)");
        JsonNode resumes = Json.json().readTree(suiteJson.toFile()).path("resumes");
        assertThat(resumes).as("only the resume that ran is recorded").hasSize(1);
        assertThat(resumes.get(0).path("gitCommit").asText()).isEqualTo(commit);
    }

    private static GauntletCli.Finished resume(Path dir, String... options) throws Exception {
        List<String> args = new ArrayList<>(List.of("run", "--resume", dir.toString()));
        args.addAll(List.of(options));
        return GauntletCli.run(Duration.ofSeconds(120), args.toArray(String[]::new));
    }

    private static Process gauntlet(String... args) throws IOException {
        return GauntletCli.command(args).redirectOutput(ProcessBuilder.Redirect.INHERIT).start();
    }

    /**
     * Opens once the runner has printed {@code count} lines of measured runs, which it prints
     * right after each row is stored; passes its stderr through and keeps it.
     */
    private CountDownLatch runsRecorded(Process runner, int count) {
        CountDownLatch recorded = new CountDownLatch(count);
        stderrReader = Thread.ofVirtual().start(() -> {
            try (BufferedReader err = new BufferedReader(new InputStreamReader(runner.getErrorStream(), StandardCharsets.UTF_8))) {
                for (String line; (line = err.readLine()) != null; ) {
                    System.err.println(line);
                    stderr.add(line);
                    if (MEASURED_RUN.matcher(line).find()) {
                        recorded.countDown();
                    }
                }
            } catch (IOException e) {
                // The pipe closes when the runner is gone.
            }
        });
        return recorded;
    }

    private static Path onlyResultsDir(Path results) throws IOException {
        try (Stream<Path> dirs = Files.list(results)) {
            List<Path> found = dirs.filter(Files::isDirectory).toList();
            assertThat(found).hasSize(1);
            return found.getFirst();
        }
    }

    private static List<ResultRow> rows(Path dir) throws IOException {
        return List.of(Json.json().readValue(dir.resolve("results.json").toFile(), ResultRow[].class));
    }

    private static List<ResultRow> measuredRows(Path dir) throws IOException {
        return rows(dir).stream().filter(ResultRow::measured).toList();
    }
}
