package dev.gauntlet.runner.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gauntlet.api.Json;
import dev.gauntlet.runner.Cli.Result;
import dev.gauntlet.runner.GauntletCli;
import dev.gauntlet.runner.cli.CompareCommand;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static dev.gauntlet.runner.Cli.cli;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code report} and {@code compare} on two real suite runs of the dummy target, their pages opened in headless
 * Chromium with the network cut off: each marks itself rendered, every chart drew, the console stays silent.
 * Screenshots go to {@code target/report-screenshots/} for a person to look at.
 */
public class ReportIT {
    private static final Path SCREENSHOTS = Path.of("target", "report-screenshots");
    private static final Pattern HTML_TAG = Pattern.compile("<html[^>]*>");
    private static final Pattern SCRIPT_OR_STYLE = Pattern.compile("(?s)<(script|style)\\b.*?</\\1>");
    private static final Pattern OPEN_RUN = Pattern.compile("<details class=\"run\" id=\"run-[^\"]+\" open=\"\"");
    private static final Pattern CHARTS = Pattern.compile("data-charts-expected=\"(\\d+)\" data-charts-drawn=\"(\\d+)\"");

    private static final Pattern REPETITION_MAX =
            Pattern.compile("</div></td><td class=\"num\" data-value=\"[^\"]*\">[^<]*</td><td class=\"num\" data-value=\"([^\"]*)\">");
    private static final Pattern PERCENTILES_LINK =
            Pattern.compile("<a href=\"data:text/csv;charset=utf-8,([^\"]*)\" download=\"percentiles-dummy-open-1.csv\">");
    private static final Pattern CSV_LINK = Pattern.compile("<a href=\"data:text/csv;charset=utf-8,([^\"]*)\" download=\"repetitions.csv\">");
    private static final Pattern JVM_TABLE_PAUSES = Pattern.compile("GC pauses</th><td>(\\d+)[^<]*</td><td>(\\d+)");
    private static final Pattern JVM_TABLE_CPU = Pattern.compile("CPU, % of the CPUs given</th><td>([\\d.]+) %</td><td>([\\d.]+) %");
    private static final Pattern NOTE_PAUSES = Pattern.compile("GC pauses drawn: target \\d+ over the whole run; in the measured phase "
            + "(\\d+)[^;]*; generator \\d+ over the whole run; in the measured phase (\\d+)");
    private static final Pattern BANNER_PAUSES = Pattern.compile("the measured phase's target GC pauses: (\\d+).*"
            + "the measured phase's generator GC pauses: (\\d+)");
    private static final Pattern BANNER_TARGET_CPU = Pattern.compile("the target used (\\d+) % of its CPUs");
    /** A figure as the page shows it: thousands separated, or with a unit. */
    private static final Pattern FORMATTED_NUMBER = Pattern.compile("[-+]?\\d{1,3}(,\\d{3})+(\\.\\d+)?|[-+]?[\\d.]+ ?(ms|%|/s|MB)");
    /** A column of figures, by the unit in its name. */
    private static final Pattern NUMERIC_COLUMN = Pattern.compile(" (ms|%|/s)$");
    private static final Pattern Y_RANGE = Pattern.compile("data-y-min=\"([^\"]+)\" data-y-max=\"([^\"]+)\" "
            + "data-data-min=\"([^\"]+)\" data-data-max=\"([^\"]+)\" data-y-ticks=\"(\\d+)\"");
    /**
     * Marks {@code <body>} with the column headers (a table's first row, the overview matrix's scenario names aside)
     * that neither explain themselves from the glossary nor name what their row is.
     */
    private static final String UNEXPLAINED_HEADERS = """
            const naming = new Set(['run', 'runs', 'target', 'generator', 'scenario', 'metric', 'row', 'target · scenario', 'min', 'max']);
            document.body.dataset.unexplained = [...document.querySelectorAll('table:not(.matrix) tr:first-child th')]
              .filter(th => th.parentNode.cells.length > 2 || th.parentNode.querySelectorAll('th').length > 1)
              .filter(th => !th.classList.contains('term') && !naming.has(th.textContent)).map(th => th.textContent).join('|');
            """;

    @TempDir
    static Path work;
    static Path base;
    static Path changed;
    static Path byClient;
    static Path sweep;
    static Path latencyDiff;

    /**
     * BASE: an open loop and a closed loop with a 5 ms wait, and an open loop whose every request times out (its 10 ms
     * timeout against a 1 s wait: a busy generator's late timeout does not let an answer in, so no run of it completes a
     * request, whatever the machine), twice each; NEW: the closed loop with a 25 ms wait. The comparison is on the closed loop, whose verdict does not
     * depend on how busy the machine is; NEW's churn, whose warm-up cannot settle in its maximum (1.3 s for the 4
     * windows its rule judges), is never ok: its banner's evidence names the GC pauses of a target whose young
     * generation (1 MB) collects within a second. A third suite runs one open loop by two clients, a fourth sweeps two
     * levels in two forks (the dummy standing for a server under test there: no baseline), a fifth is a latency-diff
     * of the dummy and a server that spins 50 µs a request, in two forks.
     */
    @BeforeAll
    static void runSuites() throws IOException {
        base = runSuite("base", """
                name: it-report-base
                targets: [dummy]
                repetitions: 2
                jvm: { target: [-Xmx256m], generator: [-Xmx256m, -Dgauntlet.jitWarmup=false] }
                scenarios:
                  - name: open
                    load: { type: open, ratePerSec: 200, interArrival: CONSTANT }
                    waitMs: 5
                    warmupMs: 1000
                    durationMs: 3000
                  - name: closed
                    load: { type: closed, connections: 4 }
                    waitMs: 5
                    warmupMs: 500
                    durationMs: 2000
                  - name: timeouts
                    load: { type: open, ratePerSec: 50, interArrival: CONSTANT }
                    waitMs: 1000
                    warmupMs: 500
                    durationMs: 2000
                    generator: { responseTimeoutMs: 10 }
                """);
        changed = runSuite("new", """
                name: it-report-new
                targets: [dummy]
                jvm: { target: [-Xmx256m, -Xmn1m], generator: [-Xmx256m, -Dgauntlet.jitWarmup=false] }
                scenarios:
                  - name: closed
                    load: { type: closed, connections: 4 }
                    waitMs: 25
                    warmupMs: 500
                    durationMs: 2000
                  - name: churn
                    load: { type: closed, connections: 4 }
                    waitMs: 1
                    warmupMs: 300
                    steady: { maxMs: 1000, windows: 2 }
                    durationMs: 1000
                """);
        byClient = runSuite("clients", """
                name: it-report-clients
                targets: [dummy]
                clients: [jdk-platform, jdk-virtual]
                jvm: { target: [-Xmx256m], generator: [-Xmx256m, -Dgauntlet.jitWarmup=false] }
                scenarios:
                  - name: open
                    load: { type: open, ratePerSec: 100, interArrival: CONSTANT }
                    waitMs: 5
                    warmupMs: 500
                    durationMs: 1000
                """);
        sweep = runSuite("sweep", """
                name: it-report-sweep
                targets: [dummy]
                table: sweep
                forks: 2
                baselines: []
                jvm: { target: [-Xmx256m], generator: [-Xmx256m, -Dgauntlet.jitWarmup=false] }
                scenarios:
                  - { name: c1, load: { type: closed, connections: 1 }, warmupMs: 300, durationMs: 1000 }
                  - { name: c8, load: { type: closed, connections: 8 }, warmupMs: 300, durationMs: 1000 }
                """);
        latencyDiff = runSuite("latency-diff", """
                name: it-report-latency-diff
                targets: [dummy, dummy-spin-50us]
                table: latency-diff
                forks: 2
                jvm: { target: [-Xmx256m], generator: [-Xmx256m, -Dgauntlet.jitWarmup=false] }
                scenarios:
                  - { name: one-at-a-time, load: { type: closed, connections: 1 }, warmupMs: 500, durationMs: 1000 }
                """);
    }

    @Test
    void theReportOfARealSuiteDrawsEveryChartOfflineInABrowser() throws Exception {
        Result report = cli("report", base.toString());
        assertThat(report.code()).as(report.err()).isZero();
        Path html = base.resolve("report.html");
        assertThat(html).exists();
        assertThat(Files.size(html)).as("page bytes").isLessThan(2_000_000);

        // The overview switched to p99, which a closed loop times from the actual send.
        HeadlessChromium.Page page = HeadlessChromium.find().openAndRun(html.toUri(), work, UNEXPLAINED_HEADERS
                + "const metric = document.querySelector('.controls select'); metric.value = 'p99Ms';"
                + "metric.dispatchEvent(new Event('change'));");
        assertRendered(page);
        assertThat(shown(page)).contains("Gauntlet · it-report-base", "2. Overview", "3. Per scenario", "4. Per run",
                "dummy · open #2", "Repetitions", "coefficient of variation", "7. Glossary", "<dt id=\"term-sustained-s\">sustained /s</dt>");
        assertThat(shown(page)).as("section 5 drew its dots").contains("<div class=\"dots\">");
        // Every request timed out: the verdict, overloaded target or busy generator, depends on the machine.
        assertThat(shown(page)).as("a banner for each run whose verdict is not ok")
                .contains("dummy · timeouts #1</a>: ", "dummy · timeouts #2</a>: ")
                .doesNotContain("[object");
        assertThat(shown(page)).as("achieved against offered, per scenario").contains("Achieved against offered rate", "offered/s");
        assertThat(shown(page)).as("every column header a term of the glossary, or naming what the row is")
                .contains("data-unexplained=\"\"").contains("<th class=\"term\" title=\"Open loop: requests completed per second")
                .contains("<th class=\"term\" title=\"What the target answered correctly per second", "<dt id=\"term-goodput-s\">goodput /s</dt>");
        assertThat(shown(page)).as("the closed loop's times marked as timed from the actual send, and why")
                .contains("Response time from the actual send †, every target", "ms†, ", "as wrk's, and is not free of coordinated omission",
                        "<dt id=\"term-coordinated-omission\">coordinated omission</dt>", "Response time from the intended start, every target",
                        "<sup class=\"from-send\" title=\"closed loop (and max concurrency after its burst)");
        assertThat(shown(page)).as("run sections closed, their charts not drawn").contains(">open every run</button>")
                .doesNotContain("<details class=\"run\" id=\"run-dummy-open-1\" open", "Errors per second, by class");

        // Every run opened and its timelines zoomed to its second and third second: each recomputes its percentiles.
        HeadlessChromium.Page zoomed = HeadlessChromium.find().open(URI.create(html.toUri() + "#window=1,3"), work);
        assertRendered(zoomed);
        assertThat(zoomed.dom()).as("the runs that completed requests").contains("data-windows-drawn=\"4\"");
        assertThat(shown(zoomed)).as("per-second timelines of errors and of both JVMs")
                .contains("Errors per second, by class", "u-label\">response timeout<", "Heap after GC", "target platform",
                        "generator platform", "CPU, % of the CPUs each process was given", "; in the measured phase ",
                        " (the JVM table's)")
                .doesNotContain("No errors.csv", "Not in the JFR recordings");
        assertThat(zoomed.dom()).as("the schedule lag drawn beside the response times, every chart on one y scale")
                .contains("u-label\">schedule lag<", "u-label\">lag p99<").contains("data-y-scales=\"1\"")
                .doesNotContainPattern("data-y-scales=\"(0|[2-9])\"");
        Matcher percentiles = PERCENTILES_LINK.matcher(zoomed.dom());
        assertThat(percentiles.find()).as("a run's percentile distributions to download").isTrue();
        List<String> distribution = URLDecoder.decode(percentiles.group(1), StandardCharsets.UTF_8).lines().toList();
        assertThat(distribution.getFirst()).isEqualTo("percentile,response ms,service ms,schedule lag ms");
        assertThat(distribution.get(1)).as("the lowest level, p0").startsWith("0,");
        assertThat(distribution).as("levels up to the maximum of 600 requests").hasSizeGreaterThan(40);
        HeadlessChromium.find().screenshot(html, SCREENSHOTS.resolve("report.png"), work);
        assertThat(SCREENSHOTS.resolve("report.png")).isNotEmptyFile();
    }

    /**
     * Each JVM figure is one value wherever it shows: a run's GC pauses of the measured phase (count) and its CPU as a
     * share of the CPUs each process was given, in its banner's evidence, its JVM table, its chart note and its
     * scenario's CSV, which hold results.json's and summary.json's figures as they are.
     */
    @Test
    void eachJvmFigureIsOneValueOnTheBannerTheJvmTableTheChartNoteAndTheCsv() throws Exception {
        assertThat(cli("report", changed.toString()).code()).isZero();
        HeadlessChromium.Page page = HeadlessChromium.find().openAndRun(changed.resolve("report.html").toUri(), work,
                "[...document.querySelectorAll('button')].find(b => b.textContent === 'open every run').click()");
        assertRendered(page);
        String shown = shown(page);
        Map<String, CsvDownloads.Csv> csvs = CsvDownloads.of(shown);
        JsonNode rows = Json.json().readTree(changed.resolve("results.json").toFile());
        for (JsonNode row : rows) {
            String scenario = row.path("scenario").asText();
            JsonNode summary = Json.json().readTree(changed.resolve("runs/dummy/" + scenario + "/1/summary.json").toFile());
            CsvDownloads.Csv jvm = csvs.get("jvm-" + scenario + ".csv");
            assertThat(jvm).as("the JVM costs of %s to download", scenario).isNotNull();
            int start = shown.indexOf("id=\"run-dummy-" + scenario + "-1\"");
            int next = shown.indexOf("<details class=\"run\"", start);
            String run = shown.substring(start, next > 0 ? next : shown.indexOf("id=\"repetitions\"", start));
            Matcher table = JVM_TABLE_PAUSES.matcher(run);
            assertThat(table.find()).as("the JVM table of %s", scenario).isTrue();
            Matcher note = NOTE_PAUSES.matcher(run);
            assertThat(note.find()).as("the chart note of %s", scenario).isTrue();
            Matcher cpu = JVM_TABLE_CPU.matcher(run);
            assertThat(cpu.find()).as("the CPU of %s's JVM table", scenario).isTrue();
            for (String side : List.of("target", "generator")) {
                int count = row.path(side + "Jvm").path("gcPauses").path("count").asInt(-1);
                int group = side.equals("target") ? 1 : 2;
                assertThat(count).as("%s's %s pauses in results.json", scenario, side).isNotNegative();
                assertThat(Integer.parseInt(jvm.field("dummy #1", side + " GC pauses"))).as("CSV").isEqualTo(count);
                assertThat(Integer.parseInt(table.group(group))).as("JVM table").isEqualTo(count);
                assertThat(Integer.parseInt(note.group(group))).as("chart note").isEqualTo(count);
                assertThat(Double.parseDouble(jvm.field("dummy #1", side + " GC longest ms")))
                        .isEqualTo(row.path(side + "Jvm").path("gcPauses").path("maxMs").asDouble());
                double share = side.equals("target") ? summary.path("targetCpuPercent").asDouble()
                        : summary.path("generatorCost").path("processCpuPercent").asDouble();
                assertThat(Double.parseDouble(jvm.field("dummy #1", side + " CPU %"))).as("CSV, as summary.json").isEqualTo(share);
                assertThat(cpu.group(group)).as("JVM table").isEqualTo(String.format(Locale.ROOT, "%.1f", share));
            }
            String evidence = row.path("note").asText();
            Matcher banner = BANNER_PAUSES.matcher(evidence);
            if (scenario.equals("churn")) {
                assertThat(row.path("verdict").asText()).isNotEqualTo("ok");
                assertThat(shown).as("churn's banner").contains("dummy · churn #1</a>: ", "evidence: " + evidence);
                assertThat(banner.find()).as("the GC pauses in %s", evidence).isTrue();
            }
            if (banner.find(0)) {
                assertThat(Integer.parseInt(banner.group(1))).as("the banner's target pauses").isEqualTo(Integer.parseInt(table.group(1)));
                assertThat(Integer.parseInt(banner.group(2))).as("the banner's generator pauses").isEqualTo(Integer.parseInt(table.group(2)));
            }
            Matcher targetShare = BANNER_TARGET_CPU.matcher(evidence);
            if (targetShare.find()) {
                assertThat(targetShare.group(1)).as("the banner's target CPU")
                        .isEqualTo(String.format(Locale.ROOT, "%.0f", Double.parseDouble(jvm.field("dummy #1", "target CPU %"))));
            }
        }
    }

    /**
     * Every CSV a page links to is data: one header row, then rows of as many fields; figures as plain numbers, at the
     * data's own precision (results.json's), without thousands separators or units, which go in the column's name; a
     * missing one empty, never '–'; a text cell whole, its links' text too.
     */
    @Test
    void everyDownloadIsOneHeaderRowAndItsFiguresAsNumbers() throws Exception {
        Path compare = work.resolve("downloads-compare.html");
        assertThat(cli("compare", base.toString(), changed.toString(), "--output", compare.toString()).code()).isZero();
        Map<String, CsvDownloads.Csv> csvs = new java.util.LinkedHashMap<>();
        for (Path resultsDir : List.of(base, sweep, byClient)) {
            assertThat(cli("report", resultsDir.toString()).code()).isZero();
            HeadlessChromium.Page page = HeadlessChromium.find().open(URI.create(resultsDir.resolve("report.html").toUri() + "#window=0,100"), work);
            assertRendered(page);
            CsvDownloads.of(shown(page)).forEach((name, csv) -> csvs.put(resultsDir.getFileName() + "/" + name, csv));
        }
        HeadlessChromium.Page comparePage = HeadlessChromium.find().open(compare.toUri(), work);
        assertRendered(comparePage);
        CsvDownloads.of(shown(comparePage)).forEach((name, csv) -> csvs.put("compare/" + name, csv));
        assertThat(csvs.keySet()).as("downloads of every kind").anyMatch(n -> n.endsWith("/headline.csv"))
                .anyMatch(n -> n.endsWith("/overview-own.csv")).anyMatch(n -> n.endsWith("/rates-open.csv"))
                .anyMatch(n -> n.endsWith("/jvm-open.csv")).anyMatch(n -> n.endsWith("/repetitions.csv"))
                .anyMatch(n -> n.contains("/percentiles-")).anyMatch(n -> n.startsWith("compare/"));

        csvs.forEach((name, csv) -> {
            assertThat(csv.rows()).as("%s: rows of as many fields as its header %s", name, csv.header())
                    .allSatisfy(row -> assertThat(row).hasSameSizeAs(csv.header()));
            assertThat(csv.rows()).as("%s: one header row", name).noneMatch(row -> row.getFirst().equals("measured by"));
            for (int col = 0; col < csv.header().size(); col++) {
                String column = csv.header().get(col);
                for (List<String> row : csv.rows()) {
                    String field = row.get(col);
                    assertThat(field).as("%s, %s", name, column).isNotEqualTo("–").doesNotMatch(FORMATTED_NUMBER);
                    if (NUMERIC_COLUMN.matcher(column).find() && !field.isEmpty()) {
                        assertThat(Double.parseDouble(field)).as("%s, %s: %s", name, column, field).isFinite();
                    }
                }
            }
        });

        JsonNode rows = Json.json().readTree(base.resolve("results.json").toFile());
        CsvDownloads.Csv rates = csvs.get(base.getFileName() + "/rates-open.csv");
        CsvDownloads.Csv overview = csvs.get(base.getFileName() + "/overview-own.csv");
        for (JsonNode row : rows) {
            if (row.path("scenario").asText().equals("open")) {
                String run = "dummy #" + row.path("repetition").asInt();
                assertThat(Double.parseDouble(rates.field(run, "achieved /s"))).as("results.json's figure")
                        .isEqualTo(row.path("achievedRatePerSec").asDouble());
            }
        }
        assertThat(overview.header()).as("each scenario's column named with its metric and unit")
                .containsExactly("target \\ scenario", "open p99 ms", "closed achieved /s", "timeouts p99 ms");
        CsvDownloads.Csv headline = csvs.get(base.getFileName() + "/headline.csv");
        assertThat(headline.column("runs")).as("a cell with links, whole").anyMatch(runs -> runs.matches(
                "\\d+ of \\d+ not ok: dummy #1 [a-z-]+, dummy #2 [a-z-]+"));
    }

    /**
     * Run sections open closed, their charts undrawn; a link to one ({@code #run-...}) opens and draws it, and printing
     * opens and draws every one.
     */
    @Test
    void aRunIsDrawnWhenLinkedToAndEveryRunWhenPrinted() throws Exception {
        Path copy = copyRepeated(base, work.resolve("linked"), 1);
        assertThat(cli("report", copy.toString()).code()).isZero();
        Path html = copy.resolve("report.html");

        HeadlessChromium.Page closed = HeadlessChromium.find().open(html.toUri(), work);
        assertRendered(closed);
        HeadlessChromium.Page linked = HeadlessChromium.find().open(URI.create(html.toUri() + "#run-dummy-closed-2"), work);
        assertRendered(linked);
        int runCharts = charts(linked) - charts(closed);
        // Its percentiles, per second latency (with the lag) and completed, threads and CPU, its response-time
        // distribution and requests in flight; heap only if a collection ran.
        assertThat(runCharts).as("charts of the one linked run").isBetween(7, 8);
        assertThat(shown(closed)).as("6 runs listed, none drawn").contains("dummy · timeouts #2")
                .doesNotContain("Heap after GC", "Schedule lag per second");

        HeadlessChromium.Page printed = HeadlessChromium.find().openAndRun(html.toUri(), work, "window.dispatchEvent(new Event('beforeprint'))");
        assertRendered(printed);
        assertThat(OPEN_RUN.matcher(shown(printed)).results().count()).as("run sections opened to print").isEqualTo(6);
        assertThat(charts(printed) - charts(closed)).as("every run's charts drawn").isGreaterThanOrEqualTo(6 * 5);
    }

    /** At 900 px and in dark colours the page fits its window (wide tables scroll within themselves) and draws. */
    @Test
    void thePageFitsNineHundredPixelsAndDrawsInDarkColours() throws Exception {
        assertThat(cli("report", base.toString()).code()).isZero();
        HeadlessChromium.Page page = HeadlessChromium.find().openAs(URI.create(base.resolve("report.html").toUri() + "#window=0,3"), work,
                new HeadlessChromium.View(900, true), """
                document.body.dataset.pageWidth = document.documentElement.scrollWidth;
                document.body.dataset.background = getComputedStyle(document.body).backgroundColor;
                """);
        assertRendered(page);
        Matcher width = Pattern.compile("data-page-width=\"(\\d+)\"").matcher(page.dom());
        assertThat(width.find()).isTrue();
        assertThat(Integer.parseInt(width.group(1))).as("the page's width, every run open").isLessThanOrEqualTo(900);
        assertThat(page.dom()).as("the dark background").contains("data-background=\"rgb(22, 25, 31)\"");
    }

    /**
     * A copy of BASE with one run's summary cut in half, as a run killed mid-write or a full disk leaves it:
     * {@code ./gauntlet report} writes the page all the same, with every other run, and names the file it could
     * not read on stderr and on the page, which still draws.
     */
    @Test
    void aTruncatedSummaryCostsTheReportOnlyThatRunAndIsNamed() throws Exception {
        Path dir = copyRepeated(base, work.resolve("truncated"), 1);
        Path broken = dir.resolve("runs/dummy/open/1/summary.json");
        String summary = Files.readString(broken);
        // Cut after a comma, so that the reader meets the end of the input rather than half a number.
        Files.writeString(broken, summary.substring(0, summary.lastIndexOf(',', summary.length() / 2) + 1));

        GauntletCli.Finished report = GauntletCli.run(Duration.ofSeconds(60), "report", dir.toString());

        assertThat(report.exitCode()).isZero();
        assertThat(report.stdout()).containsExactly(dir.resolve(ReportWriter.FILE_NAME).toString());
        assertThat(report.stderr()).singleElement().asString()
                .startsWith("gauntlet: report: cannot read " + broken + " (Unexpected end-of-input")
                .endsWith("); the page leaves it out and names it");
        HeadlessChromium.Page page = HeadlessChromium.find().open(dir.resolve(ReportWriter.FILE_NAME).toUri(), work);
        assertRendered(page);
        assertThat(shown(page)).as("the broken file named, every run still listed")
                .contains("runs/dummy/open/1/summary.json", "dummy · open #2", "dummy · closed #1", "dummy · timeouts #2");
    }

    /**
     * A known answer, the server suite's overhead case in small: BASE (dummy, the baseline) with a rival whose open-loop
     * p99 is half dummy's but generator-limited, and a wreck whose p99 is a quarter of dummy's but which collapsed
     * (target-overloaded); on the closed loop the rival's rate is twice dummy's and the wreck's four times, collapsed
     * too. The headline names the rival best on both: on the open loop "at most" its p99, a bound; the wreck is
     * listed as collapsed and dummy as the reference, neither best. The overview colours neither.
     */
    @Test
    void theHeadlineNamesNoBaselineNorCollapsedTargetBestAndABoundAsOne() throws Exception {
        Path dir = copyRepeated(base, work.resolve("rival"), 1);
        ArrayNode rows = (ArrayNode) Json.json().readTree(dir.resolve("results.json").toFile());
        for (JsonNode row : rows.deepCopy()) {
            String scenario = row.path("scenario").asText();
            if (scenario.equals("timeouts")) {
                continue;
            }
            ObjectNode rival = ((ObjectNode) row.deepCopy()).put("target", "rival").put("verdict", "ok").put("note", "");
            ObjectNode wreck = ((ObjectNode) row.deepCopy()).put("target", "wreck").put("verdict", "target-overloaded")
                    .put("note", "3,200 of 4,000 requests timed out");
            if (scenario.equals("open")) {
                rival.put("p99Ms", row.path("p99Ms").asDouble() / 2).put("verdict", "generator-limited")
                        .put("note", "the engine thread ran 99 % of the measured phase");
                wreck.put("p99Ms", row.path("p99Ms").asDouble() / 4);
            } else {
                rival.put("achievedRatePerSec", row.path("achievedRatePerSec").asDouble() * 2);
                wreck.put("achievedRatePerSec", row.path("achievedRatePerSec").asDouble() * 4);
            }
            rows.add(rival);
            rows.add(wreck);
            Path runs = Path.of("runs", "%s", scenario, row.path("repetition").asText());
            copyTree(dir.resolve(runs.toString().formatted("dummy")), dir.resolve(runs.toString().formatted("rival")));
            copyTree(dir.resolve(runs.toString().formatted("dummy")), dir.resolve(runs.toString().formatted("wreck")));
        }
        for (JsonNode row : rows) {
            if (row.path("target").asText().equals("dummy") && !row.path("scenario").asText().equals("timeouts")) {
                ((ObjectNode) row).put("verdict", "ok").put("note", "");
            }
        }
        Json.json().writeValue(dir.resolve("results.json").toFile(), rows);

        assertThat(cli("report", dir.toString()).code()).isZero();
        // The repetitions table sorted by its "max" column, by a click on its header; every run opened, by a click.
        HeadlessChromium.Page page = HeadlessChromium.find().openAndRun(dir.resolve("report.html").toUri(), work,
                "[...document.querySelectorAll('#repetitions ~ .table-wrap th')].find(th => th.textContent === 'max').click();"
                        + "[...document.querySelectorAll('button')].find(b => b.textContent === 'open every run').click()");
        assertRendered(page);
        String shown = shown(page);
        String answer = shown.substring(shown.indexOf("id=\"answer\""), shown.indexOf("id=\"overview\""));
        // The best's cell carries its entry and figure for the download (data-text, data-figures).
        assertThat(answer).as("the best per scenario, on its own metric: neither the baseline nor the collapsed")
                .containsPattern("<th>open</th><td>p99 ms, lower is better</td><td [^>]*><b class=\"best\">rival</b> at most [\\d,.]+ ms "
                        + "\\(generator-limited\\)<div class=\"standing muted\">one fork: no interval; run with --forks N for one</div>"
                        + "<div class=\"standing\">collapsed, not ranked: wreck [\\d,.]+ ms "
                        + "\\(target-overloaded in 1 of 1 forks\\)</div><div class=\"standing reference\">reference: dummy [\\d,.]+ ms</div>")
                .containsPattern("<th>closed</th><td>achieved /s, higher is better</td><td [^>]*><b class=\"best\">rival</b> [\\d,.]+/s")
                .doesNotContain("<b class=\"best\">dummy</b>", "<b class=\"best\">wreck</b>");
        assertThat(shown).as("the generator-limited run's sentence")
                .contains("rival · open #1</a>: generator-limited</b> — The generator, not rival, was the bottleneck",
                        "Give the generator more CPUs");
        String overview = shown.substring(shown.indexOf("id=\"overview\""), shown.indexOf("id=\"scenarios\""));
        assertThat(overview).as("the bound hatched, the baseline the reference, the collapsed out of the colouring")
                .contains("<td class=\"num foreign\" title=\"generator-limited", "<td class=\"num reference\" title=\"ok: the baseline",
                        "<td class=\"num collapsed\" title=\"target-overloaded: collapsed");
        assertThat(overview).as("one coloured cell, the rival's closed-loop rate, the best")
                .containsOnlyOnce("class=\"num scored\"").contains("<td class=\"num scored\" title=\"100 % of the best; ok\"");

        String repetitions = shown.substring(shown.indexOf("id=\"repetitions\""), shown.indexOf("id=\"guide\""));
        List<Double> maxima = REPETITION_MAX.matcher(repetitions).results().map(m -> Double.parseDouble(m.group(1).replace(",", ""))).toList();
        assertThat(maxima).as("open and closed, of dummy, the rival and the wreck").hasSize(6).isSorted();
        Matcher csv = CSV_LINK.matcher(repetitions);
        assertThat(csv.find()).as("a CSV link in %s", repetitions).isTrue();
        assertThat(URLDecoder.decode(csv.group(1), StandardCharsets.UTF_8).lines())
                .startsWith("target · scenario,metric,each repetition,min,max,CV %").hasSize(7)
                .as("each on its scenario's own metric: a closed loop's rate, an open loop's p99")
                .anyMatch(line -> line.startsWith("rival · closed,achieved /s,")).anyMatch(line -> line.startsWith("dummy · open,p99 ms,"));

        Matcher ranges = Y_RANGE.matcher(shown);
        int logCharts = 0;
        while (ranges.find()) {
            logCharts++;
            double yMin = Double.parseDouble(ranges.group(1));
            double yMax = Double.parseDouble(ranges.group(2));
            double dataMin = Double.parseDouble(ranges.group(3));
            double dataMax = Double.parseDouble(ranges.group(4));
            assertThat(yMin).as("a log axis's foot: below its data, within a decade").isLessThanOrEqualTo(dataMin).isGreaterThan(dataMin / 10);
            assertThat(yMax).as("its top: above its data, within a decade").isGreaterThanOrEqualTo(dataMax).isLessThan(dataMax * 10);
            assertThat(Integer.parseInt(ranges.group(5))).as("labels on the log axis %s–%s", yMin, yMax).isGreaterThanOrEqualTo(3);
        }
        assertThat(logCharts).as("log charts marked").isGreaterThan(5);
    }

    /**
     * latency-diff answers its question: what each server adds to the baseline's median round trip, in µs, with its
     * interval over the forks. The known answer: a server that spins 50 µs a request adds about that much. Two short
     * forks on a shared host may not resolve it (a CI host once gave ±1,207 µs), so what must hold on any host is that
     * the interval holds the spin's cost and the words agree with the interval: a difference claimed only when the
     * interval excludes zero, and then one of at least 25 µs (the spin less what a fork's noise takes off).
     */
    @Test
    void latencyDiffsHeadlineIsTheMicrosecondsEachServerAdds() throws Exception {
        String shown = reportAsDrawn(latencyDiff);
        String answer = shown.substring(shown.indexOf("<th>one-at-a-time</th>"), shown.indexOf("id=\"overview\""));
        Matcher added = Pattern.compile("<div class=\"difference\"><b>dummy-spin-50us</b> ([−+][\\d,.]+) µs \\(95 % CI "
                + "([−+][\\d,.]+) µs to ([−+][\\d,.]+) µs, 2 forks(: no difference detectable)?").matcher(answer);
        assertThat(added.find()).as(answer).isTrue();
        double estimate = signed(added.group(1));
        double low = signed(added.group(2));
        double high = signed(added.group(3));
        assertThat(high).as("the interval's top holds the spin's 50 µs: %s", answer).isGreaterThan(25);
        if (added.group(4) != null) {
            assertThat(low).as("no difference said only of an interval that spans zero").isLessThanOrEqualTo(0);
        } else {
            assertThat(low).as("a difference claimed only of an interval that excludes zero").isGreaterThan(0);
            assertThat(estimate).as("µs the spin adds").isGreaterThan(25);
        }
        assertThat(answer).contains("<td>µs added to dummy's median round trip, lower is better</td>",
                "reference: dummy's median round trip").doesNotContain("class=\"best\"");
        assertThat(shown).as("its overview by the median round trip too, not by the rate")
                .contains("<tr class=\"measured-by\" data-caption=\"\"><th>measured by</th><td>p50 ms</td></tr>");
    }

    /** A figure as the report prints it, with a typographic minus and thousands separators. */
    private static double signed(String shown) {
        return Double.parseDouble(shown.replace("−", "-").replace(",", ""));
    }

    /** A client suite's scenarios are CASE.CLIENT: the page compares the clients within each case. */
    @Test
    void aClientSuitesReportComparesClientsWithinACase() throws Exception {
        assertThat(reportAsDrawn(byClient)).contains("2. Overview: clients × cases", "<th>client \\ case</th><th data-column=\"open p99 ms\">open</th>",
                        "<th>jdk-platform</th>", "<th>jdk-virtual</th>", "<h3>open</h3>", "Response time from the intended start, every client",
                        "u-label\">jdk-virtual<", "dummy · open.jdk-virtual #1")
                .doesNotContain("<h3>open.jdk-virtual</h3>", "<sup class=\"from-send\"")
                .as("an overview without a marked time has no footnote, nor null in its place").doesNotContain("null</div>");
    }

    /**
     * The client suite's runs judged client-limited, the client library's own limit: a blue banner each on the
     * report, which says what the verdict means, and compared like ok rows.
     */
    @Test
    void clientLimitedRowsAreBlueBannersAndCompared() throws Exception {
        Path limited = copyRepeated(byClient, work.resolve("limited"), 1);
        ArrayNode rows = (ArrayNode) Json.json().readTree(limited.resolve("results.json").toFile());
        rows.forEach(row -> ((ObjectNode) row).put("verdict", "client-limited")
                .put("note", "the generator process used 99 % of the CPUs it may use"));
        Json.json().writeValue(limited.resolve("results.json").toFile(), rows);

        assertThat(reportAsDrawn(limited)).contains("<div class=\"banner subject\"><b><a href=\"#run-dummy-open.jdk-virtual-1\">",
                ": client-limited</b> — The client library was the bottleneck, which is what a client study measures",
                "evidence: the generator process used 99 % of the CPUs it may use",
                "<dt id=\"term-client-limited\">client-limited</dt><dd>Verdict: a client library engine was the bottleneck");

        Result compared = cli("compare", byClient.toString(), limited.toString());
        assertThat(compared.code()).as(compared.err()).isZero();
        assertThat(compared.out()).as("NEW's client-limited rows compared, none listed").doesNotContain("in NEW");
    }

    /**
     * Requests the generator dropped unsent, its queue full, are a column of the scenario's run table and of its CSV,
     * explained by the glossary, only where a run dropped some; the overview offers them as a metric.
     */
    @Test
    void requestsTheGeneratorDroppedAreAColumnWhereSomeWere() throws Exception {
        Path dropping = copyRepeated(changed, work.resolve("dropping"), 1);
        ArrayNode rows = (ArrayNode) Json.json().readTree(dropping.resolve("results.json").toFile());
        rows.forEach(row -> ((ObjectNode) row).put("droppedQueueFull", 4321));
        Json.json().writeValue(dropping.resolve("results.json").toFile(), rows);

        String shown = reportAsDrawn(dropping);
        assertThat(shown).contains("<th class=\"term\" title=\"Open loop: requests of the measured phase the generator never sent",
                "dropped unsent</th>", "<td class=\"num\" data-value=\"4321\">4,321</td>", "<option value=\"droppedQueueFull\">dropped unsent</option>",
                "<dt id=\"term-dropped-unsent\">dropped unsent</dt>");
        Matcher csv = Pattern.compile("<a href=\"data:text/csv;charset=utf-8,([^\"]*)\" download=\"rates-closed.csv\">").matcher(shown);
        assertThat(csv.find()).isTrue();
        assertThat(URLDecoder.decode(csv.group(1), StandardCharsets.UTF_8).lines().toList())
                .first().asString().endsWith(",verdict,dropped unsent");
        assertThat(URLDecoder.decode(csv.group(1), StandardCharsets.UTF_8)).contains(",4321\n");

        assertThat(reportAsDrawn(changed)).as("no column where none were dropped").doesNotContain("dropped unsent</th>");
    }

    /** The sweep ran in two forks: its headline and overview give each rate's mean over them with its interval. */
    @Test
    void aSweepsReportDrawsEveryTargetAcrossTheLevels() throws Exception {
        String shown = reportAsDrawn(sweep);
        assertThat(shown).contains("<h3>Every target across the levels</h3>", "p99 response time at each level",
                "Achieved rate at each level", "u-label\">connections<", "p99: † closed loop").doesNotContain("Fewer than two levels");
        // A run of the target's with a caveat (not-steady, say) has its verdict named after the interval; a level that
        // collapsed in a fork on a busy machine names no best, so the other level is the one with an interval then.
        assertThat(shown).as("the mean over forks and its interval, per level")
                .containsPattern("<th>c[18]</th><td>achieved /s, higher is better</td><td [^>]*><b class=\"best\">dummy</b> [\\d,.]+/s "
                        + "\\(95 % CI [-\\d,.]+–[\\d,.]+, 2 forks\\)( \\([a-z, -]+\\))?</td>")
                .containsPattern("<span class=\"spread\">mean [\\d,.]+, 95 % CI [-\\d,.]+–[\\d,.]+, 2 forks</span>");
        assertThat(shown).as("each fork's runs apart").contains("dummy · c8 f2 #1", "id=\"run-dummy-c8-f2-1\"");
    }

    /**
     * A known decision over forks: the sweep with a rival twice dummy's rate at c1, and a twin of the rival within its
     * noise. The rival and the twin share the first rank, their means and intervals in the headline, which says that
     * nothing detectable sets them apart and by how much the rival is faster than dummy; its download holds each
     * figure's interval in columns of their own. Without intervals.json, as a directory written before it.
     */
    @Test
    void theHeadlineDecidesOverForks() throws Exception {
        Path dir = ReportDataTest.copy(sweep, work.resolve("forked-rival"));
        Files.delete(dir.resolve("intervals.json"));
        ArrayNode rows = (ArrayNode) Json.json().readTree(dir.resolve("results.json").toFile());
        for (int i = rows.size() - 1; i >= 0; i--) {
            ObjectNode row = (ObjectNode) rows.get(i);
            if (row.path("scenario").asText().equals("c1")) {
                // Forks' rates: dummy 1,010 and 1,020; the rival 2,030 and 2,060; the twin 2,025 and 2,045.
                int fork = row.path("fork").asInt();
                row.put("achievedRatePerSec", 1_000 + 10 * fork).put("requests", 1_000).put("verdict", "ok");
                rows.add(row.deepCopy().put("target", "rival").put("achievedRatePerSec", 2_000 + 30 * fork));
                rows.add(row.deepCopy().put("target", "twin").put("achievedRatePerSec", 2_005 + 20 * fork));
            }
        }
        Json.json().writeValue(dir.resolve("results.json").toFile(), rows);
        ReportDataTest.copy(dir.resolve("runs/dummy"), dir.resolve("runs/rival"));
        ReportDataTest.copy(dir.resolve("runs/dummy"), dir.resolve("runs/twin"));

        String shown = reportAsDrawn(dir);

        String answer = shown.substring(shown.indexOf("<th>c1</th>"), shown.indexOf("<th>c8</th>"));
        // The rival's mean 2,045 ± t(1) 12.71 × standard error 15; the twin's 2,035 ± 12.71 × 10.
        assertThat(answer).contains("<b class=\"best\">rival</b> 2,045/s (95 % CI 1,854–2,236, 2 forks) · "
                        + "<b class=\"best\">twin</b> 2,035/s (95 % CI 1,908–2,162, 2 forks)",
                "<div class=\"standing\">rival against twin: no difference detectable (95 % CI",
                "<div class=\"standing\">rival is 101 % faster than dummy (95 % CI")
                .doesNotContain("one fork");
        Matcher csv = Pattern.compile("<a href=\"data:text/csv;charset=utf-8,([^\"]*)\" download=\"headline.csv\">").matcher(shown);
        assertThat(csv.find()).isTrue();
        assertThat(URLDecoder.decode(csv.group(1), StandardCharsets.UTF_8).lines())
                .startsWith("scenario,measured by,best,best mean,best low,best high,best forks,runs")
                .anyMatch(line -> line.matches("c1,\"achieved /s, higher is better\",rival / twin,2045 / 2035,"
                        + "1854\\.[\\d]+ / 1907\\.[\\d]+,2235\\.[\\d]+ / 2162\\.[\\d]+,2 / 2,.*"));
    }

    @Test
    void compareExitsByItsThresholdsAndItsPageDraws() throws Exception {
        Result failing = cli("compare", base.toString(), changed.toString(), "--fail-on", "p50=+10%,errors=+0");
        assertThat(failing.code()).as(failing.err()).isEqualTo(CompareCommand.THRESHOLD_FAILED);
        assertThat(failing.out()).contains("FAILED dummy · closed: p50", "not compared: dummy · open: only in BASE");

        // NEW ran one scenario once: the others are missing, which the gate fails unless told to let them through.
        assertThat(failing.out()).contains("FAILED dummy · open #1: missing from NEW", "FAILED dummy · closed #2: missing from NEW");
        // Thresholds and verdicts that hold whatever this busy machine made of NEW's figures: the gate's letting through is checked.
        Result holding = cli("compare", base.toString(), changed.toString(), "--fail-on", "p50=+10000%,rate=-100%",
                "--allow-missing", "--allow-verdict", "platform-noisy,not-steady,generator-limited,target-overloaded");
        assertThat(holding.code()).as(holding.out() + holding.err()).isZero();
        assertThat(holding.out()).contains("all hold");

        Path html = changed.resolve(CompareCommand.FILE_NAME);
        HeadlessChromium.Page page = HeadlessChromium.find().open(html.toUri(), work);
        assertRendered(page);
        assertThat(shown(page)).as("BASE's two repetitions as a median over a band of noise; NEW's one run as it is")
                .contains("Notable changes", "BASE against NEW", "u-label\">BASE median of 2<", "u-label\">BASE highest<",
                        "u-label\">NEW<", "noise</th>", "(2 runs)</span>");
        HeadlessChromium.find().screenshot(html, SCREENSHOTS.resolve("compare.png"), work);
        assertThat(SCREENSHOTS.resolve("compare.png")).isNotEmptyFile();
    }

    /**
     * A copy of BASE in which one run failed, as when its target died: compare's page says FAIL first, and lists the
     * row with BASE's figures beside it. BASE against itself warns that it is one run.
     */
    @Test
    void compareSaysFailForADeadTargetAndWarnsOfTheSameRun() throws Exception {
        Path dead = copyRepeated(base, work.resolve("dead"), 1);
        ArrayNode rows = (ArrayNode) Json.json().readTree(dead.resolve("results.json").toFile());
        JsonNode closedBase = null;
        for (JsonNode row : rows) {
            if (row.path("scenario").asText().equals("closed") && row.path("repetition").asInt() == 1) {
                closedBase = row.deepCopy();
                ((ObjectNode) row).put("verdict", "-").put("note", "target died (exit code 137)");
            }
        }
        Json.json().writeValue(dead.resolve("results.json").toFile(), rows);
        Path html = work.resolve("dead-compare.html");

        Result compared = cli("compare", base.toString(), dead.toString(), "--fail-on", "p99=+10000%", "--output", html.toString());

        assertThat(compared.code()).as(compared.out() + compared.err()).isEqualTo(CompareCommand.THRESHOLD_FAILED);
        HeadlessChromium.Page page = HeadlessChromium.find().open(html.toUri(), work);
        assertRendered(page);
        String shown = shown(page);
        assertThat(shown.indexOf("<span class=\"gate-word\">FAIL</span>")).as("FAIL before anything else").isPositive()
                .isLessThan(shown.indexOf("<table"));
        // The suites ran with --no-calibration: no capacity to tell the hosts apart by, said on top.
        assertThat(shown.indexOf("capacity not recorded in BASE and NEW: the hosts cannot be compared")).isPositive()
                .isLessThan(shown.indexOf("<span class=\"gate-word\">FAIL</span>"));
        assertThat(shown).contains("row failed: dummy · closed #1: failed in NEW: target died (exit code 137)",
                "<td>dummy · closed #1</td><td>failed: target died (exit code 137)</td><td>" + closedBase.path("verdict").asText() + "</td>",
                "href=\"" + html.getParent().relativize(base.resolve("report.html")) + "\"")
                .doesNotContain("the same run twice");

        Path same = work.resolve("same-compare.html");
        Result sameRun = cli("compare", base.toString(), base.toString(), "--output", same.toString());
        assertThat(sameRun.code()).isZero();
        assertThat(sameRun.out()).as("said on the terminal too").startsWith("warning: BASE and NEW are the same results directory");
        HeadlessChromium.Page samePage = HeadlessChromium.find().open(same.toUri(), work);
        assertRendered(samePage);
        assertThat(shown(samePage)).contains("NO GATE", "the same run twice: </b>BASE and NEW are the same results directory");
    }

    /**
     * {@code compare --junit} on the real suites, the gate failing (NEW's closed loop waits 25 ms, not 5, and NEW ran
     * neither the open loop nor the timeouts): the file parses as XML, its counts are those of its test cases, and each
     * failure's message is a line the terminal printed after FAILED.
     */
    @Test
    void compareWritesItsGateAsJunitXmlThatAParserReads() throws Exception {
        Path xml = work.resolve("compare-junit.xml");

        Result failing = cli("compare", base.toString(), changed.toString(), "--fail-on", "p50=+10%,errors=+0",
                "--output", work.resolve("junit-compare.html").toString(), "--junit", xml.toString());

        assertThat(failing.code()).as(failing.out() + failing.err()).isEqualTo(CompareCommand.THRESHOLD_FAILED);
        JunitFile junit = JunitFile.read(xml);
        assertThat(junit.root()).isEqualTo("testsuite");
        assertThat(junit.attributes()).containsEntry("name", "gauntlet compare")
                .containsEntry("tests", Integer.toString(junit.testCases().size()))
                .containsEntry("failures", Integer.toString(junit.failed().size()))
                .containsEntry("skipped", Integer.toString(junit.skipped().size())).containsEntry("errors", "0");
        assertThat(junit.properties()).containsEntry("gate", "FAILED").containsEntry("thresholds", "p50=+10%,errors=+0");
        assertThat(junit.testCase("dummy · closed", "p50=+10%").failure()).startsWith("dummy · closed: p50 ");
        assertThat(junit.testCase("dummy · open", "row #1").failure()).isEqualTo("dummy · open #1: missing from NEW");
        assertThat(junit.testCase("dummy · timeouts", "compared").skipped()).startsWith("not compared: dummy · timeouts: only in BASE");
        List<String> printed = failing.out().lines().filter(l -> l.startsWith("  FAILED ")).map(l -> l.substring("  FAILED ".length())).toList();
        assertThat(junit.failed()).extracting(JunitFile.TestCase::failure).containsExactlyInAnyOrderElementsOf(printed);
    }

    /**
     * A real run whose target died before it was ready (a JVM flag it does not know: it exits at once) as NEW's
     * dummy, beside a rival that survived (a copy of NEW's run of the changed suite), against BASE where both ran: the
     * summary, the page's table of every target × scenario and the JUnit file each list both targets, the dead one
     * marked with why.
     */
    @Test
    void compareWhereNewsTargetDiedListsEveryTarget() throws Exception {
        Path suite = Files.writeString(work.resolve("died.yaml"), """
                name: it-report-died
                targets: [dummy]
                jvm: { target: [-Xmx256m, -XX:+GauntletNoSuchOption], generator: [-Xmx256m] }
                scenarios:
                  - name: closed
                    load: { type: closed, connections: 4 }
                    waitMs: 25
                    durationMs: 1000
                """);
        Result run = cli("run", "--suite", suite.toString(), "--results", work.resolve("died").toString(), "--no-calibration");
        assertThat(run.code()).as("a run failed: " + run.err()).isEqualTo(2);
        Path died;
        try (Stream<Path> dirs = Files.list(work.resolve("died"))) {
            died = dirs.filter(Files::isDirectory).findFirst().orElseThrow();
        }
        Path both = copyRepeated(changed, work.resolve("both-alive"), 1);
        ArrayNode baseRows = (ArrayNode) Json.json().readTree(both.resolve("results.json").toFile());
        // BASE as the dead suite would have run: its closed loop alone.
        for (int i = baseRows.size() - 1; i >= 0; i--) {
            if (!baseRows.get(i).path("scenario").asText().equals("closed")) {
                baseRows.remove(i);
            }
        }
        ArrayNode diedRows = (ArrayNode) Json.json().readTree(died.resolve("results.json").toFile());
        assertThat(diedRows).singleElement().satisfies(row -> assertThat(row.path("verdict").asText()).isEqualTo("-"));
        // Verdicts ok whatever this busy machine made of the closed loop: what is listed is under test, not the verdicts.
        ObjectNode rival = ((ObjectNode) baseRows.get(0)).put("verdict", "ok").put("note", "").deepCopy().put("target", "rival");
        baseRows.add(rival);
        diedRows.add(rival);
        Json.json().writeValue(both.resolve("results.json").toFile(), baseRows);
        Json.json().writeValue(died.resolve("results.json").toFile(), diedRows);
        for (Path side : List.of(both, died)) {
            copyTree(changed.resolve("runs/dummy/closed/1"), side.resolve("runs/rival/closed/1"));
        }
        Path html = work.resolve("died-compare.html");
        Path xml = work.resolve("died-compare.xml");

        Result compared = cli("compare", both.toString(), died.toString(), "--fail-on", "p99=+10000%", "--output", html.toString(),
                "--junit", xml.toString());

        assertThat(compared.code()).as(compared.out() + compared.err()).isEqualTo(CompareCommand.THRESHOLD_FAILED);
        String whyNot = "no run of NEW whose figures compare";
        assertThat(compared.out()).contains("every target × scenario of either side: 1 compared, 1 not",
                "  not compared: dummy · closed: " + whyNot + " (BASE 1 ok; NEW 1 failed (target did not start))",
                "  compared: rival · closed (BASE 1 ok; NEW 1 ok)", "  FAILED dummy · closed #1: failed in NEW: target did not start");
        HeadlessChromium.Page page = HeadlessChromium.find().open(html.toUri(), work);
        assertRendered(page);
        String shown = shown(page);
        String every = shown.substring(shown.indexOf("id=\"every\""), shown.indexOf("<h2", shown.indexOf("id=\"every\"")));
        assertThat(every).as("the table of every target × scenario")
                .contains("<tr class=\"muted\"><td>dummy</td><td>closed</td><td data-text=\"\">–</td><td>1 ok</td><td>1 failed "
                        + "(target did not start)</td><td class=\"num\" data-value=\"\">–</td><td data-text=\"\">–</td>"
                        + "<td data-text=\"\">–</td><td>no: " + whyNot + "</td></tr>")
                .contains("<td>rival</td><td>closed</td><td>p99</td>").contains(">compared</th>");
        assertThat(shown).as("the row NEW lost, with BASE's figures")
                .contains("<td>dummy · closed #1</td><td>failed: target did not start</td><td>ok</td>");
        JunitFile junit = JunitFile.read(xml);
        assertThat(junit.testCase("dummy · closed", "row #1").failure()).isEqualTo("dummy · closed #1: failed in NEW: target did not start");
        assertThat(junit.testCase("dummy · closed", "compared").skipped()).startsWith("not compared: dummy · closed: " + whyNot);
        assertThat(junit.testCase("rival · closed", "p99=+10000%").failure()).isNull();
    }

    @Test
    void badInputIsOneLineAndExitCodeTwo() {
        for (String[] args : List.of(
                new String[] {"report", work.resolve("missing").toString()},
                new String[] {"report", work.toString()},
                new String[] {"compare", base.toString(), changed.toString(), "--fail-on", "p99=10%"},
                new String[] {"compare", base.toString(), changed.toString(), "--fail-on", "rate=+5%"})) {
            Result result = cli(args);
            assertThat(result.code()).as(String.join(" ", args)).isEqualTo(2);
            assertThat(result.err().strip().lines()).as(result.err()).hasSize(1);
            assertThat(result.err()).startsWith("gauntlet: ");
        }
    }

    /** {@code report DIR}'s page, rendered in the browser, as drawn. */
    private static String reportAsDrawn(Path resultsDir) throws Exception {
        assertThat(cli("report", resultsDir.toString()).code()).isZero();
        HeadlessChromium.Page page = HeadlessChromium.find().open(resultsDir.resolve("report.html").toUri(), work);
        assertRendered(page);
        return shown(page);
    }

    /** The page as drawn, without its scripts and styles, which hold every text the page could show. */
    private static String shown(HeadlessChromium.Page page) {
        return SCRIPT_OR_STYLE.matcher(page.dom()).replaceAll("");
    }

    private static int charts(HeadlessChromium.Page page) {
        Matcher html = HTML_TAG.matcher(page.dom());
        assertThat(html.find()).isTrue();
        Matcher charts = CHARTS.matcher(html.group());
        assertThat(charts.find()).isTrue();
        return Integer.parseInt(charts.group(1));
    }

    /** A results directory holding {@code source}'s runs {@code times} over, as further repetitions of each. */
    private static Path copyRepeated(Path source, Path copy, int times) throws IOException {
        ArrayNode rows = (ArrayNode) Json.json().readTree(source.resolve("results.json").toFile());
        int repetitions = 0;
        for (JsonNode row : rows) {
            repetitions = Math.max(repetitions, row.path("repetition").asInt());
        }
        ArrayNode copied = Json.json().createArrayNode();
        for (int k = 0; k < times; k++) {
            for (JsonNode row : rows) {
                ObjectNode each = row.deepCopy();
                int repetition = row.path("repetition").asInt() + k * repetitions;
                each.put("repetition", repetition);
                copied.add(each);
                Path runs = Path.of("runs", row.path("target").asText(), row.path("scenario").asText());
                copyTree(source.resolve(runs).resolve(row.path("repetition").asText()),
                        copy.resolve(runs).resolve(String.valueOf(repetition)));
            }
        }
        Files.copy(source.resolve("suite.json"), copy.resolve("suite.json"));
        Json.json().writeValue(copy.resolve("results.json").toFile(), copied);
        return copy;
    }

    private static void copyTree(Path from, Path to) throws IOException {
        Files.createDirectories(to);
        try (Stream<Path> files = Files.list(from)) {
            for (Path file : files.toList()) {
                Files.copy(file, to.resolve(file.getFileName()));
            }
        }
    }

    private static void assertRendered(HeadlessChromium.Page page) {
        Matcher html = HTML_TAG.matcher(page.dom());
        assertThat(html.find()).as("an <html> tag in %s", page.dom().substring(0, Math.min(300, page.dom().length()))).isTrue();
        String marks = html.group();
        assertThat(marks).as("the page marks itself rendered").contains("data-rendered=\"true\"").doesNotContain("data-render-error");
        Matcher charts = CHARTS.matcher(marks);
        assertThat(charts.find()).as("chart counts in %s", marks).isTrue();
        assertThat(Integer.parseInt(charts.group(1))).as("charts").isPositive();
        assertThat(charts.group(2)).as("charts drawn").isEqualTo(charts.group(1));
        assertThat(page.consoleMessages()).as("console").isEmpty();
    }

    private static Path runSuite(String name, String yaml) throws IOException {
        Path suite = Files.writeString(work.resolve(name + ".yaml"), yaml);
        Path results = work.resolve(name);
        Result run = cli("run", "--suite", suite.toString(), "--results", results.toString(), "--no-calibration");
        assertThat(run.code()).as(run.err()).isZero();
        try (Stream<Path> dirs = Files.list(results)) {
            return dirs.filter(Files::isDirectory).findFirst().orElseThrow();
        }
    }

    /**
     * What k6 and Gatling users look for, on BASE's real runs: each run's response-time distribution, its requests in
     * flight and connections open over the run, the error table of the timeouts scenario (every request timed out by
     * the generator, its message saying after how long), the bytes on the wire and where the requests' time went.
     */
    @Test
    void everyRunShowsItsDistributionTrafficErrorTableBytesAndTimings() throws Exception {
        JsonNode timeouts = Json.json().readTree(base.resolve("runs/dummy/timeouts/1/summary.json").toFile());
        assertThat(timeouts.path("bytes").path("sent").asLong()).as("requests written in the measured phase").isPositive();
        assertThat(timeouts.path("errorKinds").path(0).path("errorClass").asText()).isEqualTo("RESPONSE_TIMEOUT");

        assertThat(cli("report", base.toString()).code()).isZero();
        HeadlessChromium.Page page = HeadlessChromium.find().openAndRun(
                URI.create(base.resolve("report.html").toUri() + "#window=0,2"), work, UNEXPLAINED_HEADERS);
        assertRendered(page);
        String shown = shown(page);
        assertThat(shown).as("a distribution for each run that completed requests, the timeouts' saying it has none")
                .contains("Response-time distribution, measured phase", "No request completed in the measured phase: no distribution");
        assertThat(shown).as("requests in flight and connections open, per second")
                .contains("Requests in flight and connections open, per second", "u-label\">requests in flight<",
                        "u-label\">connections open<");
        assertThat(shown).as("the timeouts' error table").contains("Errors by kind, measured phase",
                "<td>response timeout</td><td class=\"num\">–</td><td>no whole response within 10 ms (the response timeout)</td>");
        assertThat(shown).as("bytes and the time on the wire, with their glossary")
                .contains(">bytes sent</th>", ">bytes received</th>", ">time on the wire</th>", ">TLS handshake</th>")
                .containsPattern(">per second</th><td class=\"num\">[0-9.,]+ (B|KiB|MiB)/s</td>")
                .doesNotContain("were not recorded", "not measured by this engine");
        assertThat(shown).as("every new column header explains itself").contains("data-unexplained=\"\"");
    }
}
