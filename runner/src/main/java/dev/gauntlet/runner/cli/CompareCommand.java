package dev.gauntlet.runner.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gauntlet.api.Json;
import dev.gauntlet.api.Numbers;
import dev.gauntlet.runner.base.UserError;
import dev.gauntlet.runner.report.CompareJunit;
import dev.gauntlet.runner.report.HtmlPage;
import dev.gauntlet.runner.report.ReportData;
import dev.gauntlet.runner.report.ReportWriter;
import dev.gauntlet.runner.results.Comparison;
import dev.gauntlet.runner.results.FailOn;
import dev.gauntlet.runner.results.HostDifference;
import dev.gauntlet.runner.results.RowChange;
import dev.gauntlet.runner.site.Trends;
import dev.gauntlet.runner.statistics.Contrast;
import dev.gauntlet.runner.statistics.Estimate;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;

/**
 * {@code gauntlet compare BASE... NEW [--fail-on ...]}: a summary on stdout, {@code compare.html}, and an exit
 * code for CI: 0 the gate passes, {@value #THRESHOLD_FAILED} a threshold does not hold or a row failed, went missing
 * or turned from ok ({@link FailOn}), the hosts' capacity differs ({@link HostDifference}), or with {@code change} a
 * figure's trend ends in a change for the worse at NEW ({@link Trends}); 2 bad input. The thresholds and rows are
 * judged between NEW and the BASE given last; with more than one BASE each figure's history over all of them is said
 * too, and drawn on {@code trend.html} beside the page.
 */
@Command(name = "compare", mixinStandardHelpOptions = true,
        description = "Compare results directories: NEW against the BASE before it (a summary, NEW/compare.html), each"
                + " figure's trend over every BASE given (NEW/trend.html), and with --fail-on a gate for CI.",
        footer = {"", "Exit codes: 0 no gate or it passes; 3 the gate failed (listed); 2 bad input.",
                "Every target × scenario of either side is listed, compared or not and why.",
                "Rows judged ok, platform-noisy, not-steady (named beside each change: a",
                "moving target's figures) or client-limited are compared; target-overloaded,",
                "generator-limited and failed rows are listed, not compared.",
                "With --fail-on the gate fails closed: a threshold that does not hold fails it,",
                "when its change is beyond the noise (its interval over forks excludes no change;",
                "with one fork a side the change alone is judged), and so does a row",
                "(target · scenario #repetition) that failed in NEW, a row",
                "of BASE missing from NEW, or a row whose verdict turned from ok. Rows only",
                "in NEW are listed and pass.",
                "Each suite's calibration records its CPUs' capacity. When the target's or the",
                "generator's differs between BASE and NEW beyond its noise, and by 5 %% or more,",
                "the first line says the hosts differ, no threshold is judged, and the gate",
                "fails (exit 3): compare runs made on one host.",
                "With more than one BASE (oldest first, in the order they ran), each figure's",
                "history is printed and drawn on trend.html beside the page, its changes beyond",
                "the noise marked as ./gauntlet site marks them; --fail-on change fails the gate",
                "when a history ends in a change for the worse at NEW (it may stand alone, or",
                "beside thresholds: p99=+10%%,change). The thresholds still judge NEW against",
                "the BASE given last.",
                "--junit FILE writes the same as JUnit XML, even when the gate fails: one",
                "testsuite \"gauntlet compare\", test cases named TARGET · SCENARIO and what was",
                "checked: \"compared\" (skipped when not compared, with why), each threshold",
                "(\"p99=+10%%\": a failure beyond the limit and the noise, a pass that says",
                "\"within the noise\" otherwise), \"row #N\" for each row the gate judged (a",
                "failure unless allowed), and \"hosts · capacity\". Without --fail-on the exit",
                "code stays 0, yet each row of NEW that failed or went missing is a failure,",
                "as the page lists them: a run that died is no pass to a test reporter.",
                "", "Examples:",
                "  ./gauntlet compare results/quick-A results/quick-B",
                "  ./gauntlet compare BASE NEW --fail-on p99=+10%%,errors=+0,rate=-5%%",
                "      p50 p99 p999 max (ms) and errors may grow by at most the limit,",
                "      rate (achieved requests/s) and held (requests held at once, max",
                "      concurrency) may fall by at most it; %% is of BASE",
                "  ./gauntlet compare results/quick-1 results/quick-2 results/quick-3 NEW \\",
                "      --fail-on change",
                "      fails when a figure of NEW left the level of the runs before it, for",
                "      the worse, beyond their noise (runs made with --forks 3 or more)",
                "  ./gauntlet compare BASE NEW --fail-on p99=+10%% --allow-missing \\",
                "      --allow-verdict platform-noisy",
                "      NEW ran fewer rows, on a CI machine whose noise may mark runs",
                "      platform-noisy: both are listed, neither fails the gate",
                "  ./gauntlet compare BASE NEW --fail-on rate=-5%% --confidence 0.99",
                "      runs made with --forks 5: a fall of the rate fails only when",
                "      its 99 %% interval excludes no change",
                "  ./gauntlet compare BASE NEW --fail-on p99=+10%%,errors=+0 \\",
                "      --junit target/gauntlet-compare.xml",
                "      for CI: Jenkins' junit step, GitLab's artifacts:reports:junit or a",
                "      GitHub test-report action reads the file; the exit code still gates",
                "  ./gauntlet compare BASE NEW --junit target/gauntlet-compare.xml",
                "      no gate, exit 0: each target × scenario a test case, and a target",
                "      that died in NEW a failing one"})
public final class CompareCommand implements Callable<Integer> {
    public static final int THRESHOLD_FAILED = 3;
    public static final String FILE_NAME = "compare.html";
    public static final String TREND_FILE_NAME = "trend.html";

    @Parameters(arity = "2..*", paramLabel = "BASE... NEW",
            description = "results directories in the order they ran: NEW, the last, is judged against the BASE before it;"
                    + " earlier ones make each figure's history")
    List<Path> dirs;
    private Path baseDir;
    private Path newDir;

    @Option(names = "--fail-on", paramLabel = "THRESHOLDS",
            description = "such as p99=+10%%,errors=+0,rate=-5%%, and change: a trend's change for the worse at NEW (default: none)")
    String failOn;

    @Option(names = "--allow-missing", description = "rows of BASE missing from NEW pass the gate (still listed)")
    boolean allowMissing;

    @Option(names = "--allow-verdict", split = ",", paramLabel = "VERDICT",
            description = "a row may turn from ok to these verdicts and pass the gate (still listed), such as platform-noisy")
    List<String> allowedVerdicts = List.of();

    @Option(names = "--confidence", paramLabel = "LEVEL",
            description = "the level of each change's interval over forks and of the hosts' capacity test, above 0 and below 1"
                    + " (default: 0.95)")
    double confidence = Estimate.DEFAULT_CONFIDENCE;

    @Option(names = "--output", paramLabel = "FILE", description = "where the page goes (default: NEW/compare.html)")
    Path output;

    @Option(names = "--junit", paramLabel = "FILE",
            description = "also write the result as JUnit XML for a CI test reporter, the gate failing or not; without"
                    + " --fail-on the rows NEW lost (failed or missing) are its failures, the exit code 0 (default: none)")
    Path junit;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        FailOn thresholds = (failOn == null ? FailOn.none() : FailOn.parse(failOn)).allowing(allowMissing, allowedVerdicts);
        if (!(confidence > 0 && confidence < 1)) {
            throw new UserError("--confidence must be above 0 and below 1, such as 0.95 or 0.99, got " + confidence);
        }
        baseDir = dirs.get(dirs.size() - 2);
        newDir = dirs.getLast();
        ObjectNode base = ReportData.read(baseDir);
        ObjectNode now = ReportData.read(newDir);
        Optional<Trends> trends = dirs.size() > 2 || thresholds.onChange() ? Optional.of(Trends.of(dirs)) : Optional.empty();
        List<Trends.WorseAtNew> trendFailures = thresholds.onChange() ? trends.orElseThrow().worseAtNew() : List.of();
        HostDifference hosts = HostDifference.of(base.path("platform"), now.path("platform"), confidence);
        Comparison judged = Comparison.of(base.path("rows"), now.path("rows"), thresholds, confidence);
        Comparison comparison = hosts.differ() ? judged.withoutThresholds() : judged;
        // Fails closed: on hosts that differ no threshold can be judged, so the gate cannot pass.
        boolean passes = comparison.passes() && trendFailures.isEmpty() && !(hosts.differ() && thresholds.gates());
        // Nothing to compare is bad input, unless the gate has rows to fail on: NEW whose every run failed must exit 3.
        if (comparison.deltas().isEmpty() && comparison.passes()) {
            throw new UserError("BASE and NEW have no target × scenario with figures in common ("
                    + comparison.targetScenarios().stream().map(Object::toString).collect(Collectors.joining("; ")) + ")");
        }
        Path pageFile = output != null ? output : newDir.resolve(FILE_NAME);
        ObjectNode data = pageData(base, now, comparison, thresholds, passes);
        trendFailures.forEach(failure -> data.withArray("failures").add("trend: " + failure));
        Optional<Path> trendPage = trends.filter(t -> t.runs() > 2).map(t -> ReportWriter.writePage(
                pageFile.resolveSibling(TREND_FILE_NAME), HtmlPage.render(HtmlPage.Template.SITE, "gauntlet trend", t.page(
                        pageFile.resolveSibling(TREND_FILE_NAME)))));
        trendPage.ifPresent(file -> data.put("trendPage", TREND_FILE_NAME));
        hosts.line().ifPresent(line -> data.put("hosts", line));
        data.put("hostsDiffer", hosts.differ());
        data.put("baseReport", reportLink(pageFile, baseDir));
        data.put("newReport", reportLink(pageFile, newDir));
        Optional<String> sameRun = sameRun(base, now);
        sameRun.ifPresent(reason -> data.put("sameRun", reason));
        Path page = ReportWriter.writePage(pageFile, HtmlPage.render("gauntlet compare", data));
        Optional<String> sameRunWarning = sameRun.map(reason -> "warning: " + reason
                + ": the comparison proves nothing; pass two different results directories");
        if (junit != null) {
            List<RowChange> rows = thresholds.gates() ? comparison.rowChanges() : RowChange.lost(base.path("rows"), now.path("rows"));
            List<CompareJunit.TestCase> cases = new ArrayList<>(CompareJunit.testCases(comparison, rows, hosts, thresholds.gates()));
            trendFailures.forEach(worse -> cases.add(new CompareJunit.TestCase(worse.figure(), FailOn.CHANGE,
                    CompareJunit.Result.FAILED, worse.toString(), "")));
            new CompareJunit(junitProperties(thresholds, passes), sameRunWarning.stream().toList(), cases).write(junit);
        }
        PrintWriter out = spec.commandLine().getOut();
        // Said first, where a reader of the terminal sees them: every change below is zero by construction, or the
        // machine's as much as the targets' (one run is on one host, so never both).
        sameRunWarning.ifPresent(out::println);
        hosts.line().ifPresent(out::println);
        trends.filter(t -> t.runs() > 2).ifPresent(t -> {
            out.println("trend over " + t.runs() + " runs, oldest first:");
            t.lines().forEach(line -> out.println("  " + line));
        });
        printSummary(out, comparison, thresholds, hosts, trendFailures, passes);
        out.println("page: " + page);
        trendPage.ifPresent(file -> out.println("trend: " + file));
        if (junit != null) {
            out.println("junit: " + junit);
        }
        return passes ? 0 : THRESHOLD_FAILED;
    }

    /** What the JUnit file says of the whole comparison: both sides, the thresholds and the gate's answer. */
    private Map<String, String> junitProperties(FailOn thresholds, boolean passes) {
        Map<String, String> properties = new LinkedHashMap<>();
        properties.put("base", baseDir.toString());
        properties.put("new", newDir.toString());
        properties.put("thresholds", thresholds.gates() ? thresholds.toString() : "none");
        properties.put("confidence", String.valueOf(confidence));
        properties.put("gate", !thresholds.gates() ? "none" : passes ? "passed" : "FAILED");
        return properties;
    }

    private void printSummary(PrintWriter out, Comparison comparison, FailOn thresholds, HostDifference hosts,
                              List<Trends.WorseAtNew> trendFailures, boolean passes) {
        out.printf("compare: BASE %s%n         NEW  %s%n", baseDir, newDir);
        var notable = comparison.notable();
        String notablePercent = Numbers.figure(Comparison.NOTABLE_PERCENT);
        out.println(notable.isEmpty() ? "no figure moved by " + notablePercent + " % or more"
                : "notable changes (" + notablePercent + " % or more), largest first:");
        for (Comparison.Delta d : notable) {
            out.printf(Locale.ROOT, "  %-40s %-6s %10s → %-10s %s  %s%n", d.target() + " · " + d.scenario(), d.metric(),
                    Numbers.figure(d.base()), Numbers.figure(d.now()),
                    Double.isNaN(d.percent()) ? "" : String.format(Locale.ROOT, "%+.1f %%", d.percent()), noise(d.change())
                            + (d.caveat().isEmpty() ? "" : "; " + d.caveat()));
        }
        List<Comparison.TargetScenario> targetScenarios = comparison.targetScenarios();
        long compared = targetScenarios.stream().filter(Comparison.TargetScenario::compared).count();
        out.println("every target × scenario of either side: " + compared + " compared, " + (targetScenarios.size() - compared) + " not");
        targetScenarios.forEach(ts -> out.println((ts.compared() ? "  compared: " : "  not compared: ") + ts));
        if (!thresholds.gates()) {
            return;
        }
        if (thresholds.onChange()) {
            out.println(trendFailures.isEmpty() ? "change: no figure's trend ends in a change for the worse at NEW"
                    : "change: " + trendFailures.size() + " figure" + (trendFailures.size() == 1 ? "" : "s")
                    + " changed for the worse at NEW");
            trendFailures.forEach(f -> out.println("  FAILED trend: " + f));
        }
        if (!thresholds.thresholds().isEmpty()) {
            if (hosts.differ()) {
                out.println("thresholds " + thresholds + ": not judged, the hosts differ");
            } else if (comparison.failures().isEmpty()) {
                out.println("thresholds " + thresholds + ": all hold" + (comparison.withinNoise().isEmpty() ? ""
                        : " beyond the noise"));
            } else {
                out.println("thresholds " + thresholds + ": " + comparison.failures().size() + " failed");
                comparison.failures().forEach(f -> out.println("  FAILED " + f));
            }
        }
        comparison.withinNoise().forEach(w -> out.println("  within the noise, not failed: " + w));
        List<RowChange> failing = comparison.rowChanges().stream().filter(RowChange::failsGate).toList();
        out.println(comparison.rowChanges().isEmpty() ? "rows: every row of BASE is in NEW, none failed or turned from ok"
                : "rows: " + failing.size() + " failed, " + (comparison.rowChanges().size() - failing.size()) + " allowed");
        comparison.rowChanges().forEach(c -> out.println((c.failsGate() ? "  FAILED " : "  allowed ") + c));
        out.println(passes ? "gate: passed" : "gate: FAILED (exit " + THRESHOLD_FAILED + ")"
                + (hosts.differ() ? ": the hosts differ; compare runs made on one host" : ""));
    }

    /** What the forks say of a change: its interval and whether it is beyond the noise. */
    private static String noise(Contrast change) {
        if (!change.bounded()) {
            return "(no interval: one fork a side; ./gauntlet run --forks N gives one)";
        }
        return String.format(Locale.ROOT, "(%s CI %+.1f–%+.1f %%: %s)", Estimate.level(change.confidence()),
                change.percentLow(), change.percentHigh(), change.resolved() ? "beyond the noise" : "within the noise");
    }

    /** Where the page links to a side's report.html: relative to the page, so the pair still links when moved together. */
    private static String reportLink(Path page, Path resultsDir) {
        Path from = page.toAbsolutePath().normalize().getParent();
        return from.relativize(resultsDir.toAbsolutePath().normalize().resolve(ReportWriter.FILE_NAME)).toString();
    }

    /** Why BASE and NEW are one run, when they are: a comparison of a run with itself passes and proves nothing. */
    private static Optional<String> sameRun(ObjectNode base, ObjectNode now) {
        if (base.path("dir").equals(now.path("dir"))) {
            return Optional.of("BASE and NEW are the same results directory");
        }
        if (base.path("rows").equals(now.path("rows"))) {
            return Optional.of("BASE and NEW have identical rows: one run copied, or the same results twice");
        }
        return Optional.empty();
    }

    /** Both sides' report data without their timelines: the page overlays the percentile curves only. */
    private static ObjectNode pageData(ObjectNode base, ObjectNode now, Comparison comparison, FailOn thresholds, boolean passes) {
        for (ObjectNode side : new ObjectNode[] {base, now}) {
            side.withArray("runs").forEach(run -> ((ObjectNode) run).remove("timeline"));
        }
        ObjectNode data = Json.json().createObjectNode();
        data.put("kind", "compare");
        data.put("generatedAt", Instant.now().toString());
        data.set("base", base);
        data.set("new", now);
        data.put("thresholds", thresholds.gates() ? thresholds.toString() : null);
        data.put("gated", thresholds.gates());
        data.put("passes", passes);
        data.put("notablePercent", Comparison.NOTABLE_PERCENT);
        data.set("deltas", Json.json().valueToTree(comparison.deltas()));
        data.set("failures", Json.json().valueToTree(comparison.failures()));
        data.set("withinNoise", Json.json().valueToTree(comparison.withinNoise()));
        data.set("rowChanges", Json.json().valueToTree(comparison.rowChanges()));
        data.set("notCompared", Json.json().valueToTree(comparison.notCompared()));
        data.set("targetScenarios", Json.json().valueToTree(comparison.targetScenarios()));
        return data;
    }
}
