package dev.gauntlet.runner.cli;

import dev.gauntlet.api.Percentiles;
import dev.gauntlet.api.Verdict;
import dev.gauntlet.runner.Cli.Result;
import dev.gauntlet.runner.metrics.PlatformCalibration;
import dev.gauntlet.runner.report.JunitFile;
import dev.gauntlet.runner.results.Capacities;
import dev.gauntlet.runner.results.ResultRow;
import dev.gauntlet.runner.results.ResultsStore;
import dev.gauntlet.runner.suite.RunPlan;
import dev.gauntlet.runner.suite.Suite;
import dev.gauntlet.runner.suite.SuiteLoader;
import dev.gauntlet.runner.suite.SuiteScaling;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import static dev.gauntlet.runner.Cli.cli;
import static dev.gauntlet.runner.results.StudyRows.judged;
import static dev.gauntlet.runner.results.StudyRows.row;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code gauntlet compare}'s summary and exit code on results directories written here: by the runner's own
 * {@link ResultsStore} from rows as a run makes them, or by hand (suite.json and results.json only, as an interrupted
 * suite leaves them). The real suites' pages are checked in a browser by {@code ReportIT}.
 */
class CompareCommandTest {
    private static final String THRESHOLDS = "p99=+10%,errors=+0,rate=-5%";
    private static final Suite THROUGHPUT = SuiteLoader.parse("""
            name: throughput
            targets: [jetty-handler-sync, netty-event-loop, dummy]
            scenarios:
              - name: open
                load: { type: open, ratePerSec: 20000 }
                durationMs: 10000
            """.getBytes(StandardCharsets.UTF_8), "test suite");
    private static final Suite.Scenario OPEN = THROUGHPUT.scenarios().getFirst();

    @TempDir
    Path dir;

    @Test
    void aRunWhoseTargetDiedFailsTheGateThoughEveryThresholdHolds() {
        Path base = stored("base", ok("jetty-handler-sync", 1), ok("netty-event-loop", 1));
        Path now = stored("new", ok("jetty-handler-sync", 1),
                judged(row("netty-event-loop", "open", 1, 9000, 3, 40, 5000), null, "target died (exit 137)"));

        Result result = cli("compare", base.toString(), now.toString(), "--fail-on", THRESHOLDS);

        assertThat(result.code()).as(result.err()).isEqualTo(CompareCommand.THRESHOLD_FAILED);
        assertThat(result.out()).contains("thresholds " + THRESHOLDS + ": all hold", "rows: 1 failed, 0 allowed",
                "  FAILED netty-event-loop · open #1: failed in NEW: target died (exit 137)", "gate: FAILED (exit 3)");
        assertThat(result.out().lines().filter(l -> l.startsWith("  FAILED ")).count()).as("the one row that failed").isEqualTo(1);
    }

    @Test
    void rowsMissingFromNewOrTurnedFromOkFailTheGateUnlessAllowedAndRowsNewInNewPass() {
        Path base = stored("base", ok("jetty-handler-sync", 1), ok("jetty-handler-sync", 2),
                ok("netty-event-loop", 1), ok("netty-event-loop", 2));
        Path now = stored("new", ok("jetty-handler-sync", 1),
                judged(row("jetty-handler-sync", "open", 2, 20000, 3, 10, 0), Verdict.TARGET_OVERLOADED, "connections piled up"),
                ok("netty-event-loop", 1), ok("dummy", 1));

        Result strict = cli("compare", base.toString(), now.toString(), "--fail-on", THRESHOLDS);
        Result relaxed = cli("compare", base.toString(), now.toString(), "--fail-on", THRESHOLDS,
                "--allow-missing", "--allow-verdict", "platform-noisy,target-overloaded");

        assertThat(strict.code()).as(strict.err()).isEqualTo(CompareCommand.THRESHOLD_FAILED);
        assertThat(strict.out()).contains("rows: 2 failed, 0 allowed",
                "  FAILED jetty-handler-sync · open #2: verdict ok → target-overloaded (connections piled up)",
                "  FAILED netty-event-loop · open #2: missing from NEW", "not compared: dummy · open: only in NEW");
        assertThat(strict.out()).doesNotContain("FAILED dummy");
        assertThat(relaxed.code()).as(relaxed.err()).isZero();
        assertThat(relaxed.out()).contains("rows: 0 failed, 2 allowed",
                "  allowed jetty-handler-sync · open #2: verdict ok → target-overloaded (connections piled up)"
                        + " (allowed by --allow-verdict target-overloaded)",
                "  allowed netty-event-loop · open #2: missing from NEW (allowed by --allow-missing)", "gate: passed");
    }

    @Test
    void theSameRowsPassAndAFailedRowIsNeverAllowed() throws Exception {
        Path base = stored("base", ok("jetty-handler-sync", 1), ok("netty-event-loop", 1));
        Path same = stored("same", ok("jetty-handler-sync", 1), ok("netty-event-loop", 1));
        Path died = stored("died", ResultRow.failed("jetty-handler-sync", new RunPlan.Run(OPEN, 1, 1), "target died (exit 1)"),
                ResultRow.failed("netty-event-loop", new RunPlan.Run(OPEN, 1, 1), "skipped: target died earlier"));

        Result passing = cli("compare", base.toString(), same.toString(), "--fail-on", THRESHOLDS);
        Result failing = cli("compare", base.toString(), died.toString(), "--fail-on", THRESHOLDS, "--allow-missing",
                "--allow-verdict", "target-overloaded");

        assertThat(passing.code()).as(passing.err()).isZero();
        assertThat(passing.out()).contains("thresholds " + THRESHOLDS + ": all hold",
                "rows: every row of BASE is in NEW, none failed or turned from ok", "gate: passed");
        assertThat(failing.code()).as("nothing in common is no bad input when every run of NEW failed: " + failing.err())
                .isEqualTo(CompareCommand.THRESHOLD_FAILED);
        assertThat(failing.out()).contains("FAILED jetty-handler-sync · open #1: failed in NEW: target died (exit 1)",
                "FAILED netty-event-loop · open #1: failed in NEW: skipped: target died earlier");
        assertThat(Files.readString(died.resolve(CompareCommand.FILE_NAME)))
                .containsPattern("\"scenario\"\\s*:\\s*\"open\",\\s*\"run\"\\s*:\\s*\"#1\",\\s*\"kind\"\\s*:\\s*\"FAILED\",\\s*"
                        + "\"change\"\\s*:\\s*\"failed in NEW: target died \\(exit 1\\)\"");
    }

    @Test
    void aRelaxationWithoutAGateOrOfAnUnknownVerdictIsOneLineAndExitCodeTwo() {
        Path base = stored("base", ok("jetty-handler-sync", 1));
        for (List<String> flags : List.of(List.of("--allow-missing"), List.of("--fail-on", "p99=+10%", "--allow-verdict", "fast"),
                List.of("--fail-on", "p99=+10%", "--allow-verdict", "ok"))) {
            List<String> args = new ArrayList<>(List.of("compare", base.toString(), base.toString()));
            args.addAll(flags);
            Result result = cli(args.toArray(String[]::new));
            assertThat(result.code()).as(String.join(" ", flags)).isEqualTo(2);
            assertThat(result.err().strip().lines()).as(result.err()).hasSize(1);
        }
    }

    /**
     * Every target × scenario of either side is one line of the summary and one entry of the page, compared or not and
     * why: a dozen generator-limited on both sides, one only in BASE, one only in NEW, one whose target died in NEW,
     * and one not-steady in NEW, which is compared with its caveat.
     */
    @Test
    void everyTargetAndScenarioOfEitherSideIsListedOnStdoutAndInThePageWithWhyItIsNotCompared() throws Exception {
        int generatorLimited = 12;
        List<String> both = IntStream.range(0, generatorLimited).mapToObj(i -> rowJson("c" + i, "generator-limited", "")).toList();
        Path base = handWritten("base", both, rowJson("a", "ok", ""), rowJson("gone", "ok", ""), rowJson("died", "ok", ""),
                rowJson("drifts", "ok", ""));
        Path now = handWritten("new", both, rowJson("a", "ok", ""), rowJson("died", "-", "target did not start"),
                rowJson("drifts", "not-steady", "rate/s drifted by 30 %"), rowJson("fresh", "ok", ""));
        StringWriter out = new StringWriter();

        int exit = new CommandLine(new GauntletCommand()).setOut(new PrintWriter(out, true))
                .execute("compare", base.toString(), now.toString());

        assertThat(exit).isZero();
        assertThat(out.toString()).contains("every target × scenario of either side: 2 compared, 15 not\n",
                "  compared: a · s (BASE 1 ok; NEW 1 ok)\n",
                "  compared: drifts · s: not-steady in 1 of 1 run of NEW (BASE 1 ok; NEW 1 not-steady)\n",
                "  not compared: died · s: no run of NEW whose figures compare (BASE 1 ok; NEW 1 failed (target did not start))\n",
                "  not compared: gone · s: only in BASE (BASE 1 ok; NEW none)\n",
                "  not compared: fresh · s: only in NEW (BASE none; NEW 1 ok)\n",
                "  not compared: c11 · s: no run of either side whose figures compare (BASE 1 generator-limited; NEW 1 generator-limited)\n");
        assertThat(out.toString().lines().filter(l -> l.startsWith("  compared: ") || l.startsWith("  not compared: ")))
                .as("each target × scenario once").hasSize(generatorLimited + 5).doesNotHaveDuplicates();
        String page = Files.readString(now.resolve("compare.html"));
        for (String target : List.of("a", "gone", "died", "drifts", "fresh", "c0", "c11")) {
            assertThat(page).containsPattern("\\{\\s*\"target\"\\s*:\\s*\"" + target + "\",\\s*\"scenario\"\\s*:\\s*\"s\",\\s*\"base\"");
        }
        assertThat(page).containsPattern("\"caveat\"\\s*:\\s*\"not-steady in 1 of 1 run of NEW\"");
    }

    /** A not-steady run's figures are the target's, of a moving target: compared and judged, the caveat named. */
    @Test
    void notSteadyRunsAreComparedAndJudgedWithTheirCaveatNamed() {
        Path base = stored("base", ok("jetty-handler-sync", 1));
        Path now = stored("new", judged(row("jetty-handler-sync", OPEN.name(), 1, 20000, 3, 20, 0), Verdict.NOT_STEADY, "rate drifted"));

        Result result = cli("compare", base.toString(), now.toString(), "--fail-on", "p99=+10%", "--allow-verdict", "not-steady");

        assertThat(result.code()).as(result.err()).isEqualTo(CompareCommand.THRESHOLD_FAILED);
        String caveat = "not-steady in 1 of 1 run of NEW";
        assertThat(result.out()).contains("  compared: jetty-handler-sync · open: " + caveat,
                "  FAILED jetty-handler-sync · open: p99 10 → 20 ms (+100.0 %, no interval: one fork a side), limit p99=+10% (" + caveat + ")",
                "  allowed jetty-handler-sync · open #1: verdict ok → not-steady (rate drifted) (allowed by --allow-verdict not-steady)");
        assertThat(result.out().lines().filter(l -> l.contains(" p99 ") && l.contains("+100.0 %"))).as("the notable change")
                .anyMatch(l -> l.endsWith("; " + caveat));
    }

    /**
     * The gate's result as JUnit XML, parsed as a CI reporter parses it: a test case per target × scenario compared,
     * per threshold judged on it and per row the gate judged, each failure's message the line the terminal printed
     * after FAILED; a change within the noise passes and says so; written though the gate failed.
     */
    @Test
    void junitHoldsEveryCheckOfTheGateWithTheTerminalsLinesAndIsWrittenWhenTheGateFails() throws Exception {
        List<ResultRow> baseRows = new ArrayList<>();
        List<ResultRow> newRows = new ArrayList<>();
        // jetty's forks: p99 10, 20, 30 ms against 25, 24, 26: +25 %, within the noise.
        for (int fork = 1; fork <= 3; fork++) {
            baseRows.add(row("jetty-handler-sync", OPEN.name(), fork, 1, 20000, 3, 10 * fork, 0));
            newRows.add(row("jetty-handler-sync", OPEN.name(), fork, 1, 20000, 3, 23 + fork, 0));
        }
        baseRows.addAll(List.of(ok("netty-event-loop", 1), ok("netty-event-loop", 2), ok("dummy", 1)));
        newRows.addAll(List.of(row("netty-event-loop", OPEN.name(), 1, 20000, 3, 20, 0),
                judged(row("dummy", OPEN.name(), 1, 0, 0, 0, 0), null, "target died (exit 137)")));
        Path base = stored("base", baseRows.toArray(ResultRow[]::new));
        Path now = stored("new", newRows.toArray(ResultRow[]::new));
        Path xml = dir.resolve("reports/gauntlet-compare.xml");
        Files.createDirectories(xml.getParent());

        Result result = cli("compare", base.toString(), now.toString(), "--fail-on", "p99=+10%,errors=+0", "--junit", xml.toString());

        assertThat(result.code()).as(result.err()).isEqualTo(CompareCommand.THRESHOLD_FAILED);
        assertThat(result.out()).contains("junit: " + xml);
        JunitFile junit = JunitFile.read(xml);
        assertCountsAgree(junit);
        assertThat(junit.attributes()).containsEntry("name", "gauntlet compare");
        assertThat(junit.properties()).containsEntry("thresholds", "p99=+10%,errors=+0").containsEntry("gate", "FAILED")
                .containsEntry("base", base.toString()).containsEntry("new", now.toString());
        List<String> terminalFailures = result.out().lines().filter(l -> l.startsWith("  FAILED "))
                .map(l -> l.substring("  FAILED ".length())).toList();
        assertThat(terminalFailures).hasSize(3);
        assertThat(junit.failed()).extracting(JunitFile.TestCase::failure).containsExactlyInAnyOrderElementsOf(terminalFailures);
        assertThat(junit.testCase("netty-event-loop · open", "p99=+10%").failure())
                .startsWith("netty-event-loop · open: p99 10 → 20 ms (+100.0 %");
        assertThat(junit.testCase("netty-event-loop · open", "row #2").failure()).isEqualTo("netty-event-loop · open #2: missing from NEW");
        assertThat(junit.testCase("dummy · open", "row #1").failure()).isEqualTo("dummy · open #1: failed in NEW: target died (exit 137)");
        JunitFile.TestCase withinNoise = junit.testCase("jetty-handler-sync · open", "p99=+10%");
        assertThat(withinNoise.failure()).isNull();
        assertThat(withinNoise.out()).startsWith("within the noise, not failed: jetty-handler-sync · open: p99 20 → 25 ms (+25.0 %, 95 % CI -");
        assertThat(junit.testCase("jetty-handler-sync · open", "errors=+0").out()).startsWith("holds: jetty-handler-sync · open: errors 0 → 0");
        assertThat(junit.testCase("jetty-handler-sync · open", "compared").out()).contains("p99 20 → 25 (+25.0 %, within the noise)");
        assertThat(junit.testCase("dummy · open", "compared").skipped()).isEqualTo("not compared: dummy · open: no run of NEW whose"
                + " figures compare (BASE 1 ok; NEW 1 failed (target died (exit 137)))");
        assertThat(junit.testCase("hosts", "capacity").out()).startsWith("capacity not recorded in BASE and NEW");
    }

    /**
     * Without --fail-on there is no gate and the exit code is 0; the JUnit file passes each target × scenario compared
     * and fails each row of NEW that failed or went missing (a verdict turned from ok is no failure without a gate).
     * A note holding markup and a control character reads back, the latter as U+FFFD.
     */
    @Test
    void withoutAGateJunitFailsOnlyTheRowsNewLostWhileTheExitCodeStaysZero() throws Exception {
        Path base = stored("base", ok("jetty-handler-sync", 1), ok("jetty-handler-sync", 2), ok("netty-event-loop", 1), ok("dummy", 1));
        Path now = stored("new", ok("jetty-handler-sync", 1),
                judged(ok("jetty-handler-sync", 2), Verdict.TARGET_OVERLOADED, "connections piled up"),
                judged(row("netty-event-loop", OPEN.name(), 1, 0, 0, 0, 0), null, "died: <exit 137> & \"killed\"\u0007"));
        Path xml = dir.resolve("compare.xml");

        Result result = cli("compare", base.toString(), now.toString(), "--junit", xml.toString());

        assertThat(result.code()).as(result.err()).isZero();
        JunitFile junit = JunitFile.read(xml);
        assertCountsAgree(junit);
        assertThat(junit.properties()).containsEntry("gate", "none").containsEntry("thresholds", "none");
        assertThat(junit.failed()).extracting(JunitFile.TestCase::failure).containsExactly(
                "dummy · open #1: missing from NEW", "netty-event-loop · open #1: failed in NEW: died: <exit 137> & \"killed\"\uFFFD");
        assertThat(junit.testCase("jetty-handler-sync · open", "compared").failure()).isNull();
        assertThat(junit.testCase("jetty-handler-sync · open", "compared").out())
                .startsWith("jetty-handler-sync · open: compared on 1 of 2 runs of NEW (BASE 2 ok; NEW 1 ok, 1 target-overloaded)");
        assertThat(junit.skipped()).extracting(JunitFile.TestCase::classname).containsExactly("netty-event-loop · open", "dummy · open");
        assertThat(junit.testCases()).noneMatch(c -> c.name().contains("="));
    }

    @Test
    void aJunitFileThatCannotBeWrittenIsOneLineAndExitCodeTwo() {
        Path base = stored("base", ok("jetty-handler-sync", 1));
        Path now = stored("new", ok("jetty-handler-sync", 1));
        for (Path junit : List.of(dir.resolve("no-such-dir/compare.xml"), dir)) {
            Result result = cli("compare", base.toString(), now.toString(), "--fail-on", "p99=+10%", "--junit", junit.toString());
            assertThat(result.code()).as(result.err()).isEqualTo(2);
            assertThat(result.err().strip().lines()).as(result.err()).singleElement().asString()
                    .startsWith("gauntlet: --junit: cannot write " + junit + ": ").doesNotContain("Exception");
        }
    }

    /** The JUnit file's counts are those of its test cases, as a CI reporter that trusts either would show them. */
    private static void assertCountsAgree(JunitFile junit) {
        assertThat(junit.root()).isEqualTo("testsuite");
        assertThat(junit.attributes()).containsEntry("tests", Integer.toString(junit.testCases().size()))
                .containsEntry("failures", Integer.toString(junit.failed().size()))
                .containsEntry("skipped", Integer.toString(junit.skipped().size())).containsEntry("errors", "0");
    }

    @Test
    void runsOnHostsOfDifferentCapacityAreSaidToBeSoFirstAndNoThresholdIsJudged() throws Exception {
        double[] quiet = Capacities.QUIET;
        Path base = stored("base", calibrated(quiet, quiet), ok("jetty-handler-sync", 1));
        // p99 10 → 20 ms: a threshold of +10 % would fail on one host.
        ResultRow slower = row("jetty-handler-sync", OPEN.name(), 1, 20000, 3, 20, 0);
        Path slowerHost = stored("slower-host", calibrated(Capacities.times(quiet, 0.75), quiet), slower);
        Path sameHost = stored("same-host", calibrated(quiet, quiet), slower);

        Result differ = cli("compare", base.toString(), slowerHost.toString(), "--fail-on", THRESHOLDS);
        Result same = cli("compare", base.toString(), sameHost.toString(), "--fail-on", THRESHOLDS);

        assertThat(differ.code()).as(differ.err()).isEqualTo(CompareCommand.THRESHOLD_FAILED);
        String hostsDiffer = "hosts differ: the target CPUs' capacity 1,880 → 1,410 (-25 %, 95 % CI -26 to -24 %) beyond its"
                + " noise; the changes below are the machine's as much as the targets', none is called a regression";
        assertThat(differ.out().lines().findFirst()).contains(hostsDiffer);
        assertThat(differ.out()).contains("thresholds " + THRESHOLDS + ": not judged, the hosts differ",
                "gate: FAILED (exit 3): the hosts differ; compare runs made on one host");
        assertThat(differ.out().lines().skip(1)).as("nothing below the first line is called a failure or a regression")
                .noneMatch(l -> l.contains("regression") || l.startsWith("  FAILED") || l.startsWith("  within the noise"));
        assertThat(Files.readString(slowerHost.resolve(CompareCommand.FILE_NAME))).contains(hostsDiffer);
        assertThat(same.code()).as(same.err()).isEqualTo(CompareCommand.THRESHOLD_FAILED);
        assertThat(same.out().lines().findFirst().orElseThrow()).startsWith("hosts alike: the target CPUs' capacity 1,880 → 1,880 (+0 %, ");
        assertThat(same.out()).doesNotContain("hosts differ", "capacity not recorded").contains("thresholds " + THRESHOLDS
                + ": 1 failed", "  FAILED jetty-handler-sync · open: p99 10 → 20 ms (+100.0 %, no interval: one fork a side),"
                + " limit p99=+10%", "gate: FAILED (exit 3)\n");
    }

    @Test
    void aSideWithoutCapacityIsOneLineAndJudgedAsBefore() {
        Path base = stored("base", ok("jetty-handler-sync", 1));
        Path now = stored("new", calibrated(Capacities.QUIET, Capacities.QUIET),
                row("jetty-handler-sync", OPEN.name(), 1, 20000, 3, 20, 0));

        Result result = cli("compare", base.toString(), now.toString(), "--fail-on", THRESHOLDS);

        assertThat(result.code()).as(result.err()).isEqualTo(CompareCommand.THRESHOLD_FAILED);
        assertThat(result.out().lines().findFirst()).contains("capacity not recorded in BASE: the hosts cannot be compared");
        assertThat(result.out()).contains("  FAILED jetty-handler-sync · open: p99 ", "gate: FAILED (exit 3)\n");
    }

    /** A row judged ok with the same figures on both sides: 20,000 requests/s, p99 10 ms, no errors. */
    private static ResultRow ok(String target, int repetition) {
        return row(target, OPEN.name(), repetition, 20000, 3, 10, 0);
    }

    /** A results directory of the throughput suite written by the runner's own store, holding {@code rows}. */
    private Path stored(String name, ResultRow... rows) {
        return stored(name, "not calibrated in this test", rows);
    }

    /** The same, with {@code platform} as the calibration's figures ({@code PlatformFloor}) or why there are none. */
    private Path stored(String name, Object platform, ResultRow... rows) {
        ResultsStore store = ResultsStore.create(dir.resolve(name), THROUGHPUT, new SuiteScaling.Fitted(THROUGHPUT, 1, List.of()),
                null, platform);
        for (ResultRow row : rows) {
            store.add(row);
        }
        return store.dir();
    }

    /** A calibration's figures as the runner records them, with these per-second capacities and no other figure. */
    private static PlatformCalibration.PlatformFloor calibrated(double[] targetIndexes, double[] generatorIndexes) {
        return new PlatformCalibration.PlatformFloor(10, "0", Percentiles.EMPTY, "1", Percentiles.EMPTY, "loopback",
                Percentiles.EMPTY, null, Capacities.level(targetIndexes), Capacities.level(generatorIndexes));
    }

    /** A results directory written by hand (suite.json and results.json only, as an interrupted suite leaves them). */
    private Path handWritten(String name, List<String> rowsJson, String... more) throws Exception {
        Path resultsDir = Files.createDirectories(dir.resolve(name));
        Files.writeString(resultsDir.resolve("suite.json"), "{\"suite\": {\"name\": \"t\"}}");
        List<String> rows = new ArrayList<>(rowsJson);
        rows.addAll(List.of(more));
        Files.writeString(resultsDir.resolve("results.json"), rows.stream().collect(Collectors.joining(",", "[", "]")));
        return resultsDir;
    }

    private static String rowJson(String target, String verdict, String note) {
        return """
                {"target": "%s", "scenario": "s", "repetition": 1, "verdict": "%s", "note": "%s", "p50Ms": 1, "p99Ms": 2,
                 "p999Ms": 3, "maxMs": 4, "errors": 0, "achievedRatePerSec": 100}""".formatted(target, verdict, note);
    }
}
