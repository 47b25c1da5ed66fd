package dev.gauntlet.runner.site;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gauntlet.api.Json;
import dev.gauntlet.api.TargetCatalogue;
import dev.gauntlet.runner.Cli.Result;
import dev.gauntlet.runner.GauntletCli;
import dev.gauntlet.runner.report.HeadlessChromium;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static dev.gauntlet.runner.Cli.cli;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A site of three real runs of one suite, as three commits would give them: a latency-diff of the dummy alone (one
 * connection, its median round trip the figure) in three forks each (fewer decide no change against a level of one
 * run: two forks leave Welch's interval one degree of freedom). In the second and third run the dummy is slowed on
 * purpose ({@code GAUNTLET_DUMMY_SPIN_MICROS=1000} in the environment of {@code ./gauntlet run}, which its target
 * inherits: 1 ms of CPU a request on a round trip of about 100 µs here, the suite unchanged, as a slower commit of the
 * dummy would be), so its history has a known change at the second run's commit, every run's verdict ok. The third run
 * is the second's figures again, under a later commit and start: a run of its own would stay at the new level only as
 * far as the host does between runs, and a host's drift of 0.6 % beside forks steadier than that reads as a change. The median is
 * the figure because it is steadier than a closed loop's rate over 1 s, whose forks moved by a coefficient of variation
 * of 45 % while another build ran (and a fall can be no larger than the rate itself; an interpreted dummy, {@code -Xint},
 * collapsed in a fork, which is not judged). The class runs alone: beside another class's JVMs the slowed dummy's
 * median ranged over 0.27–2.1 ms between forks, and a change was read as an outlier. Each run's commit is set in its
 * suite.json afterwards, standing for the checkout it would have been run from (one checkout runs them here). Beside
 * them, three directories that must be left out: a directory of notes, a run in a later format, and a copy of the first;
 * and a fourth suite, Jetty's sync handler at two versions ({@code jetty-handler-sync} and {@code
 * jetty-earlier-handler-sync}, the same classes built against an earlier Jetty release) in one run.
 */
@Tag("alone") // its known change is a median round trip, which another class's JVMs beside it moved by a factor of 8
class SiteIT {
    private static final String FIRST = "1111111aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa";
    private static final String SLOWED = "2222222bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb";
    private static final String LATEST = "3333333ccccccccccccccccccccccccccccccccc";
    /** The dummy's {@code DummyServer.SLOWED_BY}: the CPU it spins per answer, in µs, when set. */
    private static final String SLOWED_BY = "GAUNTLET_DUMMY_SPIN_MICROS";
    private static final Pattern HREF = Pattern.compile("href=\"([^\"]*)\"");

    @TempDir
    static Path work;
    static Path site;
    static Result built;
    static List<Path> runs = new ArrayList<>();

    @BeforeAll
    static void buildSite() throws IOException, InterruptedException {
        runs.add(runSuite("first", FIRST, false));
        runs.add(runSuite("slowed", SLOWED, true));
        runs.add(laterCopy(runs.get(1), "latest", LATEST));
        Path versions = runVersions();

        Path notes = Files.createDirectories(work.resolve("notes"));
        Files.writeString(notes.resolve("README"), "not results");
        Path later = copy(runs.getFirst(), work.resolve("later"));
        edit(later, suite -> suite.put("formatVersion", 99).put("id", "later-format"));
        Path copied = copy(runs.getFirst(), work.resolve("copied"));

        site = work.resolve("site");
        List<String> args = new ArrayList<>(List.of("site"));
        Stream.of(runs.get(0), runs.get(1), runs.get(2), versions, notes, later, copied).forEach(dir -> args.add(dir.toString()));
        args.addAll(List.of("--out", site.toString()));
        built = cli(args.toArray(String[]::new));
    }

    @Test
    void badInputIsLeftOutWithOneLineEachAndTheRestBuilt() {
        assertThat(built.code()).as(built.err()).isZero();
        List<String> leftOut = built.err().lines().filter(line -> line.startsWith("site: left out ")).toList();
        assertThat(leftOut).hasSize(3);
        assertThat(leftOut.get(0)).contains("notes: not a results directory: it has no suite.json");
        assertThat(leftOut.get(1)).contains("later: written in results format 99, and this build reads formats up to 1");
        assertThat(leftOut.get(2)).contains("copied: claims the id ").contains("one run given twice");
        assertThat(built.err()).doesNotContain("Exception", "\tat ");

        Result nothing = cli("site", work.resolve("notes").toString(), "--out", work.resolve("empty-site").toString());
        assertThat(nothing.code()).isEqualTo(2);
        assertThat(nothing.err().lines().filter(line -> line.startsWith("gauntlet: "))).singleElement().asString()
                .contains("none of the 1 directories given reads as results");
        Result notEmpty = cli("site", runs.getFirst().toString(), "--out", work.resolve("notes").toString());
        assertThat(notEmpty.code()).isEqualTo(2);
        assertThat(notEmpty.err()).contains("is not empty and holds no site");
    }

    @Test
    void theFrontPageAnswersFirstAndMarksTheSlowedDummysChange() throws Exception {
        HeadlessChromium.Page front = open(site.resolve("index.html").toUri());
        String main = front.dom().substring(front.dom().indexOf("<main"));

        // The answer first: straight after the title, each case's best with its interval over the three forks.
        assertThat(main).startsWith("<main id=\"page\"><h1>Gauntlet · results</h1><section class=\"headline\"><div class=\"table-wrap\"><table class=\"answers\">");
        String answers = main.substring(0, main.indexOf("</table>"));
        assertThat(answers).contains("it-site</a> · one-at-a-time", "rate /s, higher is better").containsPattern(
                "<div class=\"best\"><a href=\"targets/dummy.html#series-it-site-one-at-a-time-dummy\">dummy</a> "
                        + "[\\d,.]+ \\(95 % CI -?[\\d,.]+–[\\d,.]+, 3 forks\\)");
        assertThat(answers).as("the latest run's commit").contains(">3333333</a>");

        assertThat(main).contains("3 directories given did not read as results.");
        String changes = main.substring(main.indexOf("id=\"changes\""), main.indexOf("id=\"entries\""));
        assertThat(changes).contains("<a href=\"targets/dummy.html#series-it-site-one-at-a-time-dummy\">dummy · it-site · one-at-a-time</a>: "
                + "<b>change</b> — p50 ms rose").contains("from 2222222 on, against the level before: worse");
        assertNoRequestLeftTheFileSystem(front);
    }

    @Test
    void aTargetsPageShowsItsThreePointsWithTheChangeAtItsCommit() throws Exception {
        HeadlessChromium.Page dummy = open(site.resolve("targets/dummy.html").toUri());
        String dom = dummy.dom();

        assertThat(dom).contains("data-charts-drawn=\"1\"").containsPattern("data-change-lines=\"1\" data-points=\"3\"");
        String history = dom.substring(dom.indexOf("<table class=\"history\">"), dom.indexOf("</table>", dom.indexOf("<table class=\"history\">")));
        assertThat(Pattern.compile("<tr class=\"[^\"]*\"><td><a href=\"../runs/").matcher(history).results().count())
                .as("one row per run").isEqualTo(3);
        assertThat(history).containsPattern("<tr class=\"marked change\"><td><a href=\"../runs/[^\"]+/report.html\">2222222</a>");
        assertThat(dom).contains("<b>change: </b>p50 ms rose");
        assertNoRequestLeftTheFileSystem(dummy);
    }

    @Test
    void everyLinkOfEveryPageResolves() throws Exception {
        Map<Path, String> drawn = new LinkedHashMap<>();
        try (Stream<Path> files = Files.walk(site)) {
            for (Path page : files.filter(p -> p.toString().endsWith(".html")).sorted().toList()) {
                HeadlessChromium.Page opened = open(page.toUri());
                assertNoRequestLeftTheFileSystem(opened);
                drawn.put(page, opened.dom());
            }
        }
        assertThat(drawn).as("the front page, the dummy's and Jetty's pages, five 2014-2016 studies, four runs' reports")
                .hasSize(12);
        int checked = 0;
        for (Map.Entry<Path, String> page : drawn.entrySet()) {
            Matcher href = HREF.matcher(page.getValue());
            while (href.find()) {
                String link = href.group(1).replace("&amp;", "&");
                if (link.startsWith("data:")) {
                    continue;
                }
                URI resolved = page.getKey().toUri().resolve(link);
                assertThat(resolved.getScheme()).as("%s in %s", link, page.getKey()).isEqualTo("file");
                Path file = Path.of(URI.create(resolved.toString().replaceFirst("#.*$", "")));
                assertThat(file).as("%s in %s", link, page.getKey()).exists();
                if (resolved.getFragment() != null && file.toString().endsWith(".html")) {
                    assertThat(drawn.get(file)).as("%s in %s", link, page.getKey()).contains("id=\"" + resolved.getFragment() + "\"");
                }
                checked++;
            }
        }
        assertThat(checked).as("links checked").isGreaterThan(30);
    }

    /** A reader whose system asks for dark colours gets them, as on the report, and a narrow window scrolls no page. */
    @Test
    void theSiteIsDarkWhereTheReaderAsksAndFitsANarrowWindow() throws Exception {
        HeadlessChromium.Page dark = HeadlessChromium.find().openAs(site.resolve("targets/dummy.html").toUri(), work,
                new HeadlessChromium.View(700, true), "document.body.dataset.colours = getComputedStyle(document.body).backgroundColor"
                        + " + ' ' + getComputedStyle(document.body).color; document.body.dataset.overflows = "
                        + "document.documentElement.scrollWidth > window.innerWidth;");
        assertThat(dark.consoleMessages()).isEmpty();
        assertThat(dark.dom()).contains("data-colours=\"rgb(22, 25, 31) rgb(221, 225, 232)\"", "data-overflows=\"false\"");
    }

    /** The studies Gauntlet succeeds each have a page; none of their suites ran here, and each finding says so. */
    @Test
    void aSeedStudysPageSaysWhatItFoundAndThatNoRunHereDecidesIt() throws Exception {
        String server = open(site.resolve("studies/server-2016.html").toUri()).dom();
        assertThat(server).contains("<h1>The 2016 server benchmark</h1>", "No run of the <code>server</code> suite is among these results",
                "<td>Tomcat trails at 10,000 requests/s</td><td>realistic · p99</td><td>no run of the server suite among these results</td><td>not in these results</td>");
        String front = open(site.resolve("index.html").toUri()).dom();
        assertThat(front).contains("<a href=\"studies/server-2016.html\">The 2016 server benchmark</a> (suite server): 6 not in these results");
    }

    /** One target at two versions in one study: both on the target's page, each history with its version. */
    @Test
    void aTargetAtTwoVersionsIsShownOnOnePageByVersion() throws Exception {
        TargetCatalogue catalogue = TargetCatalogue.builtIn();
        String current = catalogue.technology("jetty").version();
        String earlier = catalogue.technology("jetty-earlier").version();
        assertThat(site.resolve("targets/jetty-earlier-handler-sync.html")).as("no page of its own").doesNotExist();

        HeadlessChromium.Page jetty = open(site.resolve("targets/jetty-handler-sync.html").toUri());
        assertThat(jetty.dom()).contains("target · jetty · sync · http1 · version " + current + ", " + earlier,
                "<h2>it-site-versions · closed (version " + current + ") — rate /s",
                "<h2>jetty-earlier-handler-sync · it-site-versions · closed (version " + earlier + ") — rate /s",
                "id=\"series-it-site-versions-closed-jetty-earlier-handler-sync\"");

        HeadlessChromium.Page front = open(site.resolve("index.html").toUri());
        String entries = front.dom().substring(front.dom().indexOf("<table class=\"entries\">"));
        assertThat(entries).contains("<td><a href=\"targets/jetty-handler-sync.html\">jetty-handler-sync</a></td><td>target</td>"
                        + "<td>jetty</td><td>sync</td><td>http1</td><td>" + current + "</td>",
                "<td><a href=\"targets/jetty-handler-sync.html\">jetty-earlier-handler-sync</a></td><td>target</td>"
                        + "<td>jetty</td><td>sync</td><td>http1</td><td>" + earlier + "</td>");
    }

    /**
     * {@code compare} over the same three runs: NEW at the slowed commit is a change for the worse at NEW, which
     * {@code --fail-on change} fails on; NEW the third run stays at the new level, so the trend names the change at its
     * commit and the gate passes; and NEW must be the run that began last.
     */
    @Test
    void compareGatesOnATrendsChangeAtNewAndDrawsTheTrend() throws Exception {
        Result atTheChange = cli("compare", runs.get(0).toString(), runs.get(1).toString(), "--fail-on", "change",
                "--output", work.resolve("at-the-change.html").toString());
        assertThat(atTheChange.code()).as(atTheChange.out() + atTheChange.err()).isEqualTo(3);
        assertThat(atTheChange.out()).contains("change: 1 figure changed for the worse at NEW",
                "  FAILED trend: dummy · one-at-a-time: p50 ms rose", "at 2222222, the latest run, against the level before: worse",
                "gate: FAILED (exit 3)");

        Path page = work.resolve("after-the-change.html");
        Result after = cli("compare", runs.get(0).toString(), runs.get(1).toString(), runs.get(2).toString(),
                "--fail-on", "change", "--output", page.toString());
        assertThat(after.code()).as(after.out() + after.err()).isZero();
        assertThat(after.out()).contains("trend over 3 runs, oldest first:",
                        "change: no figure's trend ends in a change for the worse at NEW", "gate: passed")
                .containsPattern("  dummy · it-site · one-at-a-time, p50 ms: [\\d.]+ → [\\d.]+ → [\\d.]+; change: p50 ms rose "
                        + "[\\d.,]+ % \\(95 % CI [\\d.,]+–[\\d.,]+ %\\) from 2222222 on");
        HeadlessChromium.Page trend = open(work.resolve("trend.html").toUri());
        assertThat(trend.dom()).contains("Gauntlet · trend over 3 runs", "data-change-lines=\"1\" data-points=\"3\"");
        assertThat(open(page.toUri()).dom()).contains("<a href=\"trend.html\">each figure over every run given</a>");
        assertNoRequestLeftTheFileSystem(trend);

        Result outOfOrder = cli("compare", runs.get(2).toString(), runs.get(0).toString(), runs.get(1).toString(),
                "--output", work.resolve("out-of-order.html").toString());
        assertThat(outOfOrder.code()).isEqualTo(2);
        assertThat(outOfOrder.err().strip()).startsWith("gauntlet: NEW (").contains("must be the latest run").doesNotContain("\n");
    }

    private static HeadlessChromium.Page open(URI page) throws IOException, InterruptedException {
        HeadlessChromium.Page drawn = HeadlessChromium.find().open(page, work);
        assertThat(drawn.dom()).as("%s drawn", page).contains("data-rendered=\"true\"");
        assertThat(drawn.consoleMessages()).as("%s's console", page).isEmpty();
        return drawn;
    }

    private static void assertNoRequestLeftTheFileSystem(HeadlessChromium.Page page) {
        assertThat(page.requests()).isNotEmpty().allSatisfy(url -> assertThat(url).matches("(file|data):.*"));
    }

    /** Jetty's sync handler at this build's Jetty and at the earlier release, one fork each. */
    private static Path runVersions() throws IOException, InterruptedException {
        Path suite = Files.writeString(work.resolve("versions.yaml"), """
                name: it-site-versions
                targets: [jetty-handler-sync, jetty-earlier-handler-sync]
                jvm:
                  target: [-Xmx256m]
                  generator: [-Xmx256m, -Dgauntlet.jitWarmup=false]
                scenarios:
                  - { name: closed, load: { type: closed, connections: 4 }, warmupMs: 500, durationMs: 1000 }
                """);
        Path results = work.resolve("versions");
        GauntletCli.Finished run = GauntletCli.run(Duration.ofMinutes(3), "run", "--suite", suite.toString(),
                "--results", results.toString(), "--no-calibration");
        assertThat(run.exitCode()).as(String.join("\n", run.stderr())).isZero();
        try (Stream<Path> dirs = Files.list(results)) {
            return dirs.filter(Files::isDirectory).findFirst().orElseThrow();
        }
    }

    /** The suite run by {@code ./gauntlet}, the dummy slowed through its environment as a slower commit of it would be. */
    private static Path runSuite(String name, String commit, boolean slowed) throws IOException, InterruptedException {
        Path suite = Files.writeString(work.resolve(name + ".yaml"), """
                name: it-site
                targets: [dummy]
                table: latency-diff
                baselines: []
                forks: 3
                jvm:
                  target: [-Xmx256m]
                  generator: [-Xmx256m, -Dgauntlet.jitWarmup=false]
                scenarios:
                  - { name: one-at-a-time, load: { type: closed, connections: 1 }, warmupMs: 1000, durationMs: 1000 }
                """);
        Path results = work.resolve(name);
        GauntletCli.Finished run = GauntletCli.run(Duration.ofMinutes(3), slowed ? Map.of(SLOWED_BY, "1000") : Map.of(),
                "run", "--suite", suite.toString(), "--results", results.toString(), "--no-calibration");
        assertThat(run.exitCode()).as(String.join("\n", run.stderr())).isZero();
        Path dir;
        try (Stream<Path> dirs = Files.list(results)) {
            dir = dirs.filter(Files::isDirectory).findFirst().orElseThrow();
        }
        edit(dir, suiteJson -> ((ObjectNode) suiteJson.get("environment")).put("gitCommit", commit));
        return dir;
    }

    /** {@code run} again as a later run of {@code commit}: its figures, its own id, its start an hour after. */
    private static Path laterCopy(Path run, String name, String commit) throws IOException {
        Path copy = copy(run, Files.createDirectories(work.resolve(name)).resolve(run.getFileName()));
        edit(copy, suiteJson -> {
            suiteJson.put("id", name + "-" + suiteJson.get("id").asText());
            ObjectNode environment = (ObjectNode) suiteJson.get("environment");
            environment.put("gitCommit", commit)
                    .put("startedAt", Instant.parse(environment.get("startedAt").asText()).plus(Duration.ofHours(1)).toString());
        });
        return copy;
    }

    private interface Edit {
        void apply(ObjectNode suiteJson);
    }

    private static void edit(Path resultsDir, Edit edit) throws IOException {
        Path file = resultsDir.resolve("suite.json");
        ObjectNode suite = (ObjectNode) Json.json().readTree(file.toFile());
        edit.apply(suite);
        Json.json().writeValue(file.toFile(), suite);
    }

    private static Path copy(Path from, Path to) throws IOException {
        try (Stream<Path> files = Files.walk(from)) {
            for (Path file : files.toList()) {
                Files.copy(file, to.resolve(from.relativize(file).toString()));
            }
        }
        return to;
    }
}
