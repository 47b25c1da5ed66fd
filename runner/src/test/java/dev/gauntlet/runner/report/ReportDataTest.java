package dev.gauntlet.runner.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gauntlet.api.BytesTransferred;
import dev.gauntlet.api.ErrorClass;
import dev.gauntlet.api.ErrorKind;
import dev.gauntlet.api.Json;
import dev.gauntlet.api.ResultsDirectory;
import dev.gauntlet.api.RunDirectory;
import dev.gauntlet.loadgen.measure.TrafficLog;
import dev.gauntlet.runner.Cli.Result;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static dev.gauntlet.runner.Cli.cli;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * A run's JVM costs as the report and {@code compare} read them: from {@code jvm.json}, or, in a results directory
 * written before the runner wrote one, from {@code summary.json}'s {@code jvm}. The fixture is such a directory, one
 * run of a real suite (its recordings left out, which the report never reads). And the figures over forks the page
 * shows, on results directories written here of rows alone: the intervals and the headline's decision per case.
 */
class ReportDataTest {
    private static final String WRITTEN_BEFORE = "written-before-jvm-json";
    private static final String RUN = "runs/netty-event-loop/overhead/1";

    @TempDir
    Path work;

    @Test
    void aRunWrittenBeforeJvmJsonHasItsJvmCostsFromSummaryJson() throws Exception {
        JsonNode run = ReportData.read(fixture()).path("runs").path(0);

        assertThat(run.path("jvm").path("target").path("gc").asText()).isEqualTo("G1New/G1Old");
        assertThat(run.path("jvm").path("generator").path("gc").asText()).isEqualTo("G1New/G1Old");
        assertThat(run.path("jvm").path("target").path("gcPauses").has("timeline")).as("the pauses go to gc").isFalse();
        assertThat(run.path("gc").path("target")).as("the target's pauses, on the timeline").hasSize(2);
        assertThat(run.path("samples").path("target").path("platformThreads")).hasSize(10);
        assertThat(run.path("jvm").path("notes")).isEmpty();
    }

    @Test
    void theSameRunWithItsJvmCostsInJvmJsonReadsTheSame() throws Exception {
        Path before = fixture();
        Path today = inTodaysLayout(before, work.resolve("today"));

        ObjectNode runBefore = (ObjectNode) ReportData.read(before).path("runs").path(0);
        ObjectNode runToday = (ObjectNode) ReportData.read(today).path("runs").path(0);

        assertThat(runToday.remove("files")).contains(Json.json().getNodeFactory().textNode("jvm.json"));
        runBefore.remove("files");
        assertThat(runToday.path("jvm").path("target").isObject()).isTrue();
        assertThat(runToday).isEqualTo(runBefore);
    }

    @Test
    void compareReadsADirectoryWrittenBeforeJvmJsonBesideOneWrittenToday() throws Exception {
        Path before = copy(fixture(), work.resolve("before"));
        // The fixture's run was judged target-overloaded, whose figures compare would not compare.
        Path results = new ResultsDirectory(before).results();
        JsonNode rows = Json.json().readTree(results.toFile());
        rows.forEach(row -> ((ObjectNode) row).put("verdict", "ok"));
        Json.json().writeValue(results.toFile(), rows);
        Path today = inTodaysLayout(before, work.resolve("today"));

        Result compared = cli("compare", before.toString(), today.toString(), "--fail-on", "p99=+1%");

        assertThat(compared.code()).as(compared.out() + compared.err()).isZero();
        assertThat(compared.out()).contains("all hold");
    }

    /**
     * Each side's CPU, a share of the CPUs it was given (the fixture's target pinned to CPU 0 of 2, its generator to CPU
     * 1): in the measured phase its process's own CPU time, as summary.json has it and its evidence quotes it; its
     * busiest second and every sample JFR's load of the machine, rescaled. The GC pauses are jvm.json's measured ones.
     */
    @Test
    void eachSidesCpuIsAShareOfTheCpusItWasGivenAndItsPausesTheMeasuredPhases() throws Exception {
        JsonNode data = ReportData.read(fixture());
        JsonNode run = data.path("runs").path(0);
        JsonNode jvm = Json.json().readTree(fixture().resolve(RUN).resolve("summary.json").toFile()).path("jvm");

        assertThat(data.path("cpusGiven").path("target").asText()).isEqualTo("1 of 2 CPUs");
        JsonNode target = run.path("jvm").path("target").path("cpu");
        assertThat(target.path("measuredPercent").asDouble()).as("summary.json's targetCpuPercent").isEqualTo(51.34308058483509);
        assertThat(target.path("busiestSecondPercent").asDouble()).as("JFR's 29.2 % of two CPUs, of one")
                .isCloseTo(2 * 29.1891872882843, within(1e-9));
        assertThat(target.path("allocationMBPerSec").asDouble()).isEqualTo(44.944661458333336);
        assertThat(run.path("jvm").path("generator").path("cpu").path("measuredPercent").asDouble())
                .as("the generator's processCpuPercent").isEqualTo(64.83375271852502);
        JsonNode samples = run.path("samples").path("target");
        assertThat(samples.has("cpuPercent")).as("the machine's share is not drawn").isFalse();
        assertThat(samples.path("cpuPercentOfGiven")).hasSameSizeAs(jvm.path("target").path("samples").path("cpuPercent"));
        assertThat(samples.path("cpuPercentOfGiven").path(0).path(1).asDouble())
                .isCloseTo(2 * jvm.path("target").path("samples").path("cpuPercent").path(0).path("value").asDouble(), within(0.001));

        assertThat(run.path("jvm").path("target").path("gcPauses").path("count").asInt()).isEqualTo(1);
        assertThat(run.path("jvm").path("target").path("gcPauses").path("maxMs").asDouble()).isEqualTo(11.54689);
    }

    /** JFR's load as jvm.json names it today, a share of the machine, reads as it did before it said so. */
    @Test
    void theMachinesShareReadsUnderItsNameOfToday() throws Exception {
        Path today = inTodaysLayout(fixture(), work.resolve("today"));
        Path jvmFile = new RunDirectory(today.resolve(RUN)).jvm();
        String renamed = Files.readString(jvmFile).replace("\"maxPercent\"", "\"maxPercentOfMachine\"")
                .replace("\"cpuPercent\"", "\"cpuPercentOfMachine\"");
        assertThat(renamed).contains("maxPercentOfMachine", "cpuPercentOfMachine");
        Files.writeString(jvmFile, renamed);

        JsonNode before = ReportData.read(fixture()).path("runs").path(0);
        JsonNode run = ReportData.read(today).path("runs").path(0);

        assertThat(run.path("jvm").path("target").path("cpu")).isEqualTo(before.path("jvm").path("target").path("cpu"));
        assertThat(run.path("samples")).isEqualTo(before.path("samples"));
    }

    /**
     * What k6 and Gatling users look for, as a run written today holds it: traffic.csv as seconds after the measured
     * phase began (the warm-up's negative), the error kinds, bytes and wire timings from summary.json; a run written
     * before any of them has none, for the page to say they were not recorded.
     */
    @Test
    void trafficErrorKindsBytesAndTimingsPassToThePageAndAreAbsentFromARunWrittenBefore() throws Exception {
        Path dir = copy(fixture(), work.resolve("traffic"));
        JsonNode before = ReportData.read(dir).path("runs").path(0);
        assertThat(before.path("timeline").has("traffic")).isFalse();
        assertThat(before.path("errorKinds").isArray() || before.path("bytes").isObject() || before.path("timings").isObject())
                .as("not recorded").isFalse();

        RunDirectory run = new RunDirectory(dir.resolve(RUN));
        double warmupSec = before.path("warmupSec").asDouble();
        try (TrafficLog log = TrafficLog.create(run.traffic(), "a test's")) {
            log.write(new TrafficLog.Interval(0, 1, 7, 8L, 1_000L, 3_000L));
            log.write(new TrafficLog.Interval(warmupSec, 0.5, 3, null, null, null));
        }
        ObjectNode summary = (ObjectNode) Json.json().readTree(run.summary().toFile());
        summary.set("errorKinds", Json.json().valueToTree(List.of(
                new ErrorKind(ErrorClass.BAD_STATUS, 503, "status 503", 4, 0.25, 1.5))));
        summary.set("bytes", Json.json().valueToTree(BytesTransferred.over(2_000, 6_000, 2)));
        Json.json().writeValue(run.summary().toFile(), summary);

        JsonNode today = ReportData.read(dir).path("runs").path(0);
        JsonNode traffic = today.path("timeline").path("traffic");
        assertThat(traffic.path("t").get(0).asDouble()).isCloseTo(-warmupSec, within(1e-9));
        assertThat(traffic.path("t").get(1).asDouble()).isCloseTo(0, within(1e-9));
        assertThat(traffic.path("inFlight")).extracting(JsonNode::asLong).containsExactly(7L, 3L);
        assertThat(traffic.path("connections").get(0).asLong()).isEqualTo(8);
        assertThat(traffic.path("connections").get(1).isNull()).as("not seen by a library's engine").isTrue();
        assertThat(traffic.path("receivedPerSec").get(0).asDouble()).isEqualTo(3_000);
        assertThat(today.path("errorKinds").path(0).path("status").asInt()).isEqualTo(503);
        assertThat(today.path("errorKinds").path(0).path("message").asText()).isEqualTo("status 503");
        assertThat(today.path("bytes").path("receivedPerSec").asDouble()).isEqualTo(3_000);
        assertThat(today.path("timings").isObject()).as("not measured by a library's engine").isFalse();
    }

    /**
     * A closed loop's targets in three forks of two repetitions each, whose repetitions straddle their fork's mean:
     * netty and undertow within each other's noise, jetty a fifth slower, and a rival twice as fast that collapsed
     * (target-overloaded). No intervals.json: the directory is read as one written before there was one.
     */
    @Test
    void theHeadlinesDecisionRanksTheTargetsFiguresOverForks() throws Exception {
        Path dir = resultsDirectory(work.resolve("forked"), "closed", List.of("netty", "undertow", "jetty", "rival"),
                List.of("flood"));
        ArrayNode rows = Json.json().createArrayNode();
        forks(rows, "netty", "ok", 100_000, 101_000, 99_800);
        forks(rows, "undertow", "ok", 99_000, 100_500, 99_700);
        forks(rows, "jetty", "platform-noisy", 80_000, 81_000, 79_500);
        forks(rows, "rival", "target-overloaded", 200_000, 201_000, 199_000);
        Json.json().writeValue(new ResultsDirectory(dir).results().toFile(), rows);

        ObjectNode data = ReportData.read(dir);

        JsonNode decision = data.path("decisions").path(0);
        assertThat(decision.path("case").asText()).isEqualTo("flood");
        assertThat(decision.path("metric").asText()).as("a closed loop's own metric").isEqualTo("achievedRatePerSec");
        JsonNode places = decision.path("places");
        assertThat(places.findValuesAsText("entry")).as("the rival collapsed: not ranked")
                .containsExactly("netty", "undertow", "jetty");
        assertThat(decision.path("collapsed").findValuesAsText("entry")).containsExactly("rival");
        assertThat(decision.path("collapsed").path(0).path("forks").asText()).isEqualTo("3 of 3");
        assertThat(decision.has("references")).as("no baseline among these targets").isFalse();
        assertThat(places.findValues("rank")).extracting(JsonNode::asInt).containsExactly(1, 1, 3);
        JsonNode netty = places.path(0).path("figure");
        assertThat(netty.path("samples").asInt()).as("forks, not runs").isEqualTo(3);
        // Forks' means 100,000, 101,000 and 99,800: standard deviation 643, t(2) 4.303: ±1,597.
        assertThat(netty.path("mean").asDouble()).isCloseTo(100_266.7, within(0.1));
        assertThat(netty.path("high").asDouble() - netty.path("mean").asDouble()).isCloseTo(1_597, within(1.0));
        assertThat(places.path(1).path("standing").asText()).startsWith("no difference detectable (95 % CI");
        assertThat(places.path(2).path("standing").asText()).startsWith("undertow is 24.4 % faster than jetty (95 % CI");
        assertThat(decision.path("separation").asText()).as("the leader against the second rank")
                .startsWith("netty is 25.1 % faster than jetty (95 % CI 23.1–27.1 %)");
        assertThat(places.path(2).path("verdicts").get(0).asText()).isEqualTo("platform-noisy");

        JsonNode spread = data.path("spreads").path(0);
        assertThat(spread.path("target").asText()).isEqualTo("netty");
        assertThat(spread.path("metric").asText()).as("a closed loop's spread is of its rate").isEqualTo("achievedRatePerSec");
        assertThat(spread.path("values")).hasSize(6);
        assertThat(spread.path("min").asDouble()).isEqualTo(99_300);
        assertThat(spread.path("max").asDouble()).isEqualTo(101_500);
        // Repetitions 99,500 100,500 100,500 101,500 99,300 100,300: mean 100,266.7, sample standard deviation 794.1.
        assertThat(spread.path("cvPercent").asDouble()).isCloseTo(0.7920, within(0.0005));

        JsonNode intervals = data.path("intervals");
        assertThat(intervals.findValuesAsText("target")).as("computed from every measured row")
                .containsExactly("netty", "undertow", "jetty", "rival");
        assertThat(intervals.path(0).path("forks").asInt()).isEqualTo(3);
        assertThat(intervals.path(0).path("runs").asInt()).isEqualTo(6);
        assertThat(intervals.path(0).path("rate").path("mean").asDouble()).isCloseTo(100_266.7, within(0.1));
    }

    /**
     * An open loop run in one fork: ranked by p99, lower first, and nobody set apart, since there is no interval; a run
     * that completed nothing has no p99 to rank, and having collapsed is listed as such. intervals.json, where there is one, is what the page gets.
     */
    @Test
    void inOneForkNoDifferenceIsResolvedAndIntervalsJsonIsReadAsWritten() throws Exception {
        Path dir = resultsDirectory(work.resolve("one-fork"), "open", List.of("netty", "jetty", "idle"), List.of("flood"));
        ArrayNode rows = Json.json().createArrayNode();
        rows.add(row("netty", 1, 1, "ok", 1_000).put("p99Ms", 12.5));
        rows.add(row("jetty", 1, 1, "ok", 1_000).put("p99Ms", 8.25));
        rows.add(row("idle", 1, 1, "target-overloaded", 0).put("p99Ms", "NaN").put("requests", 0));
        rows.forEach(row -> ((ObjectNode) row).remove("fork"));
        Json.json().writeValue(new ResultsDirectory(dir).results().toFile(), rows);
        ArrayNode written = Json.json().createArrayNode();
        written.addObject().put("target", "as written");
        Json.json().writeValue(new ResultsDirectory(dir).intervals().toFile(), written);

        ObjectNode data = ReportData.read(dir);

        JsonNode places = data.path("decisions").path(0).path("places");
        assertThat(data.path("decisions").path(0).path("metric").asText()).isEqualTo("p99Ms");
        assertThat(places.findValuesAsText("entry")).containsExactly("jetty", "netty");
        assertThat(places.findValues("rank")).extracting(JsonNode::asInt).containsExactly(1, 1);
        JsonNode collapsed = data.path("decisions").path(0).path("collapsed");
        assertThat(collapsed.findValuesAsText("entry")).as("a collapse that answered nothing, listed without a figure")
                .containsExactly("idle");
        assertThat(collapsed.path(0).has("figure")).isFalse();
        assertThat(places.path(0).path("figure").path("samples").asInt()).isEqualTo(1);
        assertThat(places.path(1).path("standing").asText()).startsWith("no interval: jetty has 1 fork, netty 1");
        assertThat(data.path("decisions").path(0).has("separation")).as("one rank, nothing set apart").isFalse();
        assertThat(data.path("intervals")).isEqualTo(written);
        assertThat(data.path("runs").findValues("fork")).as("a row written before forks is fork 1")
                .extracting(JsonNode::asInt).containsOnly(1);
    }

    /**
     * The server suite's overhead case over three forks: the baseline quickest, netty's p99 generator-limited (a bound:
     * at most its figure) ahead of spring's, and vertx generator-limited behind spring. The baseline is the reference,
     * netty the best at most its figure, and vertx ranked below spring with its bound said, not decided against it.
     */
    @Test
    void aBaselineIsTheReferenceAndAGeneratorLimitedFigureRanksAsABound() throws Exception {
        Path dir = resultsDirectory(work.resolve("bounds"), "open", List.of("dummy", "netty", "spring", "vertx", "undertow"),
                List.of("flood"));
        ArrayNode rows = Json.json().createArrayNode();
        p99s(rows, "dummy", "ok", 1.0);
        p99s(rows, "netty", "generator-limited", 366);
        p99s(rows, "spring", "ok", 900);
        p99s(rows, "vertx", "generator-limited", 2_000);
        p99s(rows, "undertow", "ok", 5_000);
        Json.json().writeValue(new ResultsDirectory(dir).results().toFile(), rows);

        JsonNode decision = ReportData.read(dir).path("decisions").path(0);

        assertThat(decision.path("references").findValuesAsText("entry")).containsExactly("dummy");
        JsonNode places = decision.path("places");
        assertThat(places.findValuesAsText("entry")).containsExactly("netty", "spring", "vertx", "undertow");
        assertThat(places.findValues("rank")).extracting(JsonNode::asInt).containsExactly(1, 2, 3, 4);
        assertThat(places.path(0).path("bound").asText()).isEqualTo("at most");
        assertThat(places.path(2).path("bound").asText()).isEqualTo("at most");
        assertThat(places.path(1).has("bound")).isFalse();
        assertThat(decision.path("separation").asText()).startsWith("netty is ").contains("quicker than spring");
    }

    /**
     * One fork, no interval: the leader at p99 104 ms, and beside it b at 105 ms within the machine's noise floor
     * (hiccups p99 1.4 ms), d whose repetitions (103 and 121 ms) straddle the leader's, and c (108 and 112 ms) which
     * neither ties. The baseline's 103 ms is quicker than all and still no leader.
     */
    @Test
    void inOneForkTheLeadersTiesAreTheNoiseFloorAndTheRepetitionsRanges() throws Exception {
        Path dir = resultsDirectory(work.resolve("ties"), "open", List.of("dummy", "a", "b", "c", "d"), List.of("flood"));
        ObjectNode suite = (ObjectNode) Json.json().readTree(new ResultsDirectory(dir).suite().toFile());
        suite.putObject("platform").putObject("targetHiccups").put("p99Ms", 1.4);
        Json.json().writeValue(new ResultsDirectory(dir).suite().toFile(), suite);
        ArrayNode rows = Json.json().createArrayNode();
        rows.add(row("dummy", 1, 1, "ok", 500).put("p99Ms", 103.0));
        rows.add(row("a", 1, 1, "ok", 500).put("p99Ms", 104.0));
        rows.add(row("b", 1, 1, "ok", 500).put("p99Ms", 105.0));
        rows.add(row("c", 1, 1, "ok", 500).put("p99Ms", 108.0));
        rows.add(row("c", 1, 2, "ok", 500).put("p99Ms", 112.0));
        rows.add(row("d", 1, 1, "ok", 500).put("p99Ms", 103.0));
        rows.add(row("d", 1, 2, "ok", 500).put("p99Ms", 121.0));
        Json.json().writeValue(new ResultsDirectory(dir).results().toFile(), rows);

        JsonNode decision = ReportData.read(dir).path("decisions").path(0);

        assertThat(decision.path("places").findValuesAsText("entry")).containsExactly("a", "b", "c", "d");
        JsonNode ties = decision.path("ties");
        assertThat(ties.findValuesAsText("entry")).containsExactly("b", "d");
        assertThat(ties.path(0).path("why").asText()).isEqualTo("within the machine's noise floor (its hiccups' p99, 1.4 ms)");
        assertThat(ties.path(1).path("why").asText()).isEqualTo("their repetitions' ranges overlap");
    }

    /**
     * latency-diff's answer is each target's difference to the baseline's median round trip, fork by fork: undertow's
     * forks 13, 13.5 and 13 µs above dummy's.
     */
    @Test
    void aLatencyDiffsDecisionHoldsWhatEachTargetAddsToTheBaseline() throws Exception {
        Path dir = resultsDirectory(work.resolve("latency-diff"), "closed", List.of("dummy", "undertow"), List.of("flood"));
        ObjectNode suite = (ObjectNode) Json.json().readTree(new ResultsDirectory(dir).suite().toFile());
        ((ObjectNode) suite.path("suite")).put("table", "latency-diff");
        Json.json().writeValue(new ResultsDirectory(dir).suite().toFile(), suite);
        ArrayNode rows = Json.json().createArrayNode();
        double[] dummy = {0.090, 0.091, 0.092};
        double[] undertow = {0.103, 0.1045, 0.105};
        for (int fork = 1; fork <= 3; fork++) {
            rows.add(row("dummy", fork, 1, "ok", 10_000).put("p50Ms", dummy[fork - 1]));
            rows.add(row("undertow", fork, 1, "ok", 9_000).put("p50Ms", undertow[fork - 1]));
        }
        Json.json().writeValue(new ResultsDirectory(dir).results().toFile(), rows);

        JsonNode differences = ReportData.read(dir).path("decisions").path(0).path("differences");

        assertThat(differences.findValuesAsText("entry")).containsExactly("undertow");
        JsonNode micros = differences.path(0).path("micros");
        assertThat(micros.path("difference").asDouble()).isCloseTo(13.17, within(0.01));
        assertThat(micros.path("low").asDouble()).isPositive().isLessThan(13.17);
        assertThat(micros.path("samplesA").asInt()).isEqualTo(3);
    }

    /** In a study of clients a case's entries are its clients, and a client's own limit is the figure under study. */
    @Test
    void aClientStudysDecisionRanksTheClientsOfACase() throws Exception {
        Path dir = resultsDirectory(work.resolve("clients"), "closed", List.of("dummy"),
                List.of("flood.jdk-virtual", "flood.apache"));
        ArrayNode rows = Json.json().createArrayNode();
        for (int fork = 1; fork <= 2; fork++) {
            rows.add(row("dummy", fork, 1, "client-limited", 5_000 + fork).put("scenario", "flood.jdk-virtual").put("client", "jdk-virtual"));
            rows.add(row("dummy", fork, 1, "ok", 9_000 + fork).put("scenario", "flood.apache").put("client", "apache"));
        }
        Json.json().writeValue(new ResultsDirectory(dir).results().toFile(), rows);

        JsonNode decisions = ReportData.read(dir).path("decisions");

        assertThat(decisions.findValuesAsText("case")).containsExactly("flood");
        assertThat(decisions.path(0).path("places").findValuesAsText("entry")).containsExactly("apache", "jdk-virtual");
        assertThat(decisions.path(0).path("places").path(1).path("standing").asText()).startsWith("apache is ");
    }

    /** A results directory of these targets and scenarios, every load of {@code loadType}; no rows yet. */
    private static Path resultsDirectory(Path dir, String loadType, List<String> targets, List<String> scenarios)
            throws IOException {
        Files.createDirectories(dir);
        ObjectNode suite = Json.json().createObjectNode();
        ObjectNode definition = suite.putObject("suite").put("name", "forked");
        targets.forEach(definition.putArray("targets")::add);
        ArrayNode definitions = definition.putArray("scenarios");
        // Each load whole, as a suite.json holds it: its model is read to learn what it is ranked by.
        scenarios.forEach(name -> {
            ObjectNode load = definitions.addObject().put("name", name).putObject("load").put("type", loadType);
            switch (loadType) {
                case "open" -> load.put("ratePerSec", 100);
                case "closed" -> load.put("connections", 10);
                default -> load.put("requests", 100);
            }
        });
        Json.json().writeValue(new ResultsDirectory(dir).suite().toFile(), suite);
        return dir;
    }

    /** A target's forks, two repetitions each, which straddle the fork's rate: only the fork's mean is a sample. */
    private static void forks(ArrayNode rows, String target, String verdict, double... ratesPerSec) {
        for (int fork = 1; fork <= ratesPerSec.length; fork++) {
            rows.add(row(target, fork, 1, verdict, ratesPerSec[fork - 1] - 500));
            rows.add(row(target, fork, 2, verdict, ratesPerSec[fork - 1] + 500));
        }
    }

    /** A target's three forks of an open loop, their p99s within a percent of {@code p99Ms}. */
    private static void p99s(ArrayNode rows, String target, String verdict, double p99Ms) {
        for (int fork = 1; fork <= 3; fork++) {
            rows.add(row(target, fork, 1, verdict, 500).put("p99Ms", p99Ms * (0.99 + 0.01 * fork)));
        }
    }

    private static ObjectNode row(String target, int fork, int repetition, String verdict, double ratePerSec) {
        return Json.json().createObjectNode().put("target", target).put("scenario", "flood").put("fork", fork)
                .put("repetition", repetition).put("requests", (long) ratePerSec * 10).put("achievedRatePerSec", ratePerSec)
                .put("p50Ms", 1.0).put("p99Ms", 2.0).put("maxMs", 3.0).put("verdict", verdict).put("note", "");
    }

    private static Path fixture() throws URISyntaxException {
        return Path.of(ReportDataTest.class.getResource(WRITTEN_BEFORE).toURI());
    }

    /** A copy of {@code before} as the runner writes it now: summary.json the generator's, the JVM costs in jvm.json. */
    private static Path inTodaysLayout(Path before, Path today) throws IOException {
        copy(before, today);
        RunDirectory run = new ResultsDirectory(today).run("netty-event-loop", "overhead", 1, 1);
        assertThat(run.path()).isEqualTo(today.resolve(RUN));
        ObjectNode summary = (ObjectNode) Json.json().readTree(run.summary().toFile());
        JsonNode jvm = summary.remove("jvm");
        assertThat(jvm).as("the fixture's summary.json holds the jvm costs").isNotNull();
        Json.json().writeValue(run.summary().toFile(), summary);
        Json.json().writeValue(run.jvm().toFile(), jvm);
        return today;
    }

    /** {@code from} and everything under it, as {@code to}; ReportIT copies results directories with it too. */
    static Path copy(Path from, Path to) throws IOException {
        try (Stream<Path> files = Files.walk(from)) {
            for (Path file : files.toList()) {
                Path target = to.resolve(from.relativize(file).toString());
                if (Files.isDirectory(file)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(file, target);
                }
            }
        }
        return to;
    }
}
