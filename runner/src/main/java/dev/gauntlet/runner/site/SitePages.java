package dev.gauntlet.runner.site;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gauntlet.api.ClientCatalogue;
import dev.gauntlet.api.Json;
import dev.gauntlet.api.Numbers;
import dev.gauntlet.api.ProtocolTarget;
import dev.gauntlet.api.TargetCatalogue;
import dev.gauntlet.runner.report.ReportWriter;
import dev.gauntlet.runner.statistics.ChangePoints;
import dev.gauntlet.runner.statistics.Contrast;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/**
 * What each page of the site shows, as the JSON site.js draws, computed here so that the page only shows it:
 *
 * <pre>
 * SitePages pages = new SitePages(inputs);
 * pages.front();                 // {kind: "site-front", studies: [{study, latest, runs, decisions}], changes, entries, leftOut}
 * pages.entry("dummy", false);   // {kind: "site-entry", name, about, series: [{study, case, metric, points: [...]}]}
 * </pre>
 *
 * A study is a suite's runs alike in configuration ({@link StudyRun#study}); its latest run (by start) answers on the front page, with its own report's decisions
 * (ranks over forks with their intervals, ties, references, collapses). Every sentence about a change is written here
 * from its {@link Contrast}, so that it says what the numbers beside it say.
 */
final class SitePages {
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final TargetCatalogue CATALOGUE = TargetCatalogue.builtIn();
    private static final List<SeedStudies.Study> SEEDS = SeedStudies.builtIn();
    private static final Map<String, String> METRIC_WORDS = Map.of("p99Ms", "p99 ms", "p50Ms", "p50 ms",
            "achievedRatePerSec", "rate /s", "serverMaxInFlight", "held at once");

    private final SiteInputs inputs;
    private final List<Histories.Series> series;

    SitePages(SiteInputs inputs) {
        this.inputs = inputs;
        this.series = Histories.of(inputs.runs());
    }

    /**
     * Every entry with a page: {name → client?}, targets first, in the order the runs first name them. A target at
     * another version has none: its histories are on the page of the target it is at that version ({@link #pageOf}).
     */
    Map<String, Boolean> entries() {
        Map<String, Boolean> entries = new LinkedHashMap<>();
        series.stream().filter(s -> !s.client()).forEach(s -> entries.put(pageOf(s), false));
        series.stream().filter(Histories.Series::client).forEach(s -> entries.put(pageOf(s), true));
        return entries;
    }

    /**
     * Whose page shows a history: its entry's, or for a target at another version ({@code jetty-earlier-handler-sync},
     * {@link TargetCatalogue#sameTargetAs}) the page of the target it is at that version, which so shows it by version.
     */
    private static String pageOf(Histories.Series s) {
        return s.client() ? s.entry() : pageOf(s.entry());
    }

    private static String pageOf(String entry) {
        ProtocolTarget target = ProtocolTarget.parse(entry);
        return CATALOGUE.target(target.target()).flatMap(CATALOGUE::sameTargetAs)
                .map(base -> entry.contains("@") ? ProtocolTarget.name(base.name(), target.protocol()) : base.name())
                .orElse(entry);
    }

    /** The page and anchor where a history is drawn, from a page at the site's root. */
    private static String link(Histories.Series s) {
        return SitePaths.entry(s.client(), pageOf(s)) + "#" + s.anchor();
    }

    ObjectNode front() {
        ObjectNode page = page("site-front", "");
        ArrayNode studies = page.putArray("studies");
        Map<String, List<StudyRun>> byStudy = new LinkedHashMap<>();
        inputs.runs().forEach(run -> byStudy.computeIfAbsent(run.study(), s -> new ArrayList<>()).add(run));
        byStudy.forEach((name, runs) -> {
            StudyRun latest = runs.getLast();
            ObjectNode study = studies.addObject();
            study.put("study", name);
            study.put("anchor", SitePaths.anchor("study", name));
            study.put("table", latest.table());
            study.put("description", latest.data().path("suite").path("description").asText(""));
            study.set("latest", run(latest, ""));
            study.set("decisions", linked(latest.data().path("decisions").deepCopy(), latest));
            ArrayNode history = study.putArray("runs");
            runs.reversed().forEach(run -> history.add(run(run, "")));
            ArrayNode seeds = study.putArray("seeds");
            SEEDS.stream().filter(seed -> decidingRun(seed).filter(run -> run.study().equals(name)).isPresent())
                    .forEach(seed -> seeds.add(seedSummary(seed)));
        });
        ArrayNode seeds = page.putArray("seeds");
        SEEDS.forEach(seed -> seeds.add(seedSummary(seed)));
        ArrayNode changes = page.putArray("changes");
        for (Histories.Series s : series) {
            for (Histories.Point point : s.points()) {
                if (point.reading() != null && point.reading().mark() != ChangePoints.Mark.NONE) {
                    ObjectNode change = changes.addObject();
                    change.put("entry", s.entry());
                    change.put("page", link(s));
                    change.put("study", s.study());
                    change.put("case", s.caseName());
                    change.put("mark", markWord(point.reading().mark()));
                    change.put("commit", point.run().shortCommit());
                    change.put("sentence", sentence(s, point));
                    change.put("worse", worse(s, point.reading().contrast()));
                }
            }
        }
        ArrayNode entries = page.putArray("entries");
        Map<String, Boolean> listed = new LinkedHashMap<>();
        series.forEach(s -> listed.putIfAbsent(s.entry(), s.client()));
        listed.forEach((name, client) -> entries.add(about(name, client, s -> s.entry().equals(name))
                .put("page", SitePaths.entry(client, client ? name : pageOf(name)))));
        ArrayNode leftOut = page.putArray("leftOut");
        inputs.leftOut().forEach(out -> leftOut.add(out.line()));
        return page;
    }

    /** Every 2014–2016 study, each with a page. */
    List<String> seeds() {
        return SEEDS.stream().map(SeedStudies.Study::id).toList();
    }

    /** A 2014–2016 study's page: what it found, and what the latest run of the suite that repeats it finds. */
    ObjectNode seed(String id) {
        SeedStudies.Study seed = SEEDS.stream().filter(s -> s.id().equals(id)).findFirst().orElseThrow();
        ObjectNode page = page("site-seed", "../");
        page.put("title", seed.title());
        page.put("original", seed.original());
        page.put("suite", seed.suite());
        Optional<StudyRun> run = decidingRun(seed);
        run.ifPresent(r -> page.set("run", run(r, "../")));
        ArrayNode findings = page.putArray("findings");
        for (SeedStudies.Finding finding : seed.findings()) {
            SeedStudies.Decision decision = run.map(finding::decide).orElse(new SeedStudies.Decision(
                    SeedStudies.Outcome.NOT_MEASURED, "no run of the " + seed.suite() + " suite among these results"));
            findings.addObject().put("said", finding.said()).put("case", finding.caseName()).put("figure", finding.figure())
                    .put("outcome", decision.outcome().words).put("sentence", decision.sentence());
        }
        return page;
    }

    /**
     * The run that decides a study's findings: the latest of its suite, of the configuration named by the suite alone
     * where runs of it were configured apart (the server suite, not its parallel-gc profile).
     */
    private Optional<StudyRun> decidingRun(SeedStudies.Study seed) {
        List<StudyRun> ofSuite = inputs.runs().stream().filter(run -> run.suite().equals(seed.suite())).toList();
        return ofSuite.stream().filter(run -> run.study().equals(seed.suite())).reduce((first, second) -> second)
                .or(() -> ofSuite.stream().reduce((first, second) -> second));
    }

    /** A study's outcomes counted, {@code 3 reproduced, 2 contradicted}, with its page. */
    private ObjectNode seedSummary(SeedStudies.Study seed) {
        Optional<StudyRun> run = decidingRun(seed);
        Map<String, Integer> counts = new LinkedHashMap<>();
        for (SeedStudies.Finding finding : seed.findings()) {
            String outcome = run.map(r -> finding.decide(r).outcome()).orElse(SeedStudies.Outcome.NOT_MEASURED).words;
            counts.merge(outcome, 1, Integer::sum);
        }
        ObjectNode summary = NODES.objectNode();
        summary.put("title", seed.title());
        summary.put("page", SitePaths.seed(seed.id()));
        summary.put("suite", seed.suite());
        summary.put("counts", counts.entrySet().stream().map(e -> e.getValue() + " " + e.getKey())
                .collect(Collectors.joining(", ")));
        return summary;
    }

    /** An entry's page: every history it has, and those of the same target at other versions, each with its version. */
    ObjectNode entry(String name, boolean client) {
        ObjectNode page = page("site-entry", "../");
        Predicate<Histories.Series> shown = s -> s.client() == client && pageOf(s).equals(name);
        page.set("about", about(name, client, shown));
        ArrayNode list = page.putArray("series");
        for (Histories.Series s : series) {
            if (shown.test(s)) {
                ObjectNode one = series(s, run -> run(run, "../"));
                if (!s.entry().equals(name)) {
                    one.put("entry", s.entry());
                }
                list.add(one);
            }
        }
        return page;
    }

    /**
     * Every history on one page, as {@code compare BASE... NEW} draws it beside {@code compare.html}: each run's own
     * report linked where it lies, relative to {@code pageFile}.
     */
    ObjectNode trend(Path pageFile) {
        ObjectNode page = page("site-trend", "");
        Path from = pageFile.toAbsolutePath().normalize().getParent();
        ArrayNode runs = page.putArray("runs");
        Function<StudyRun, ObjectNode> linked = run -> run(run, "").put("report", from.relativize(
                run.dir().toAbsolutePath().normalize().resolve(ReportWriter.FILE_NAME)).toString());
        inputs.runs().forEach(run -> runs.add(linked.apply(run)));
        ArrayNode list = page.putArray("series");
        series.forEach(s -> list.add(series(s, linked).put("entry", s.entry())));
        return page;
    }

    /** A history as a page draws it: each point's figure and interval, verdicts, JVM costs, mark and sentence. */
    private static ObjectNode series(Histories.Series s, Function<StudyRun, ObjectNode> run) {
        ObjectNode one = NODES.objectNode();
        one.put("study", s.study());
        one.put("case", s.caseName());
        one.put("anchor", s.anchor());
        one.put("metric", s.metric());
        one.put("metricWords", metricWords(s.metric()));
        one.put("higherIsBetter", s.higherIsBetter());
        ArrayNode points = one.putArray("points");
        for (Histories.Point point : s.points()) {
            ObjectNode p = points.addObject();
            p.set("run", run.apply(point.run()));
            p.put("version", point.version());
            p.put("mean", point.figure().mean());
            p.put("low", point.figure().low());
            p.put("high", point.figure().high());
            p.put("forks", point.forks().length);
            p.put("interval", point.figure().describe());
            p.put("verdicts", counted(point.verdicts()));
            p.put("judged", point.judged());
            p.put("leftOut", point.leftOut());
            point.costs().forEach(p::put);
            if (point.reading() != null && point.reading().mark() != ChangePoints.Mark.NONE) {
                p.put("mark", markWord(point.reading().mark()));
                p.put("sentence", sentence(s, point));
                p.put("worse", worse(s, point.reading().contrast()));
            }
        }
        return one;
    }

    private static ObjectNode page(String kind, String root) {
        ObjectNode page = NODES.objectNode();
        page.put("kind", kind);
        page.put("root", root);
        page.put("front", root + SitePaths.FRONT);
        return page;
    }

    /** A run as a page links to it: id, commit, start, machine, and its report relative to {@code root}. */
    private static ObjectNode run(StudyRun run, String root) {
        ObjectNode node = NODES.objectNode();
        node.put("id", run.id());
        node.put("study", run.study());
        node.put("commit", run.commit());
        node.put("shortCommit", run.shortCommit());
        node.put("startedAt", run.startedAt().toString());
        node.put("machine", run.machine());
        node.put("report", root + SitePaths.report(run.id()));
        return node;
    }

    /**
     * The decisions with what each is measured by in words ({@code measuredBy}), and each place's and reference's
     * history linked beside its entry, where the site has one.
     */
    private JsonNode linked(ArrayNode decisions, StudyRun run) {
        for (JsonNode decision : decisions) {
            String metric = decision.path("metric").asText();
            ((ObjectNode) decision).put("measuredBy", !decision.path("differences").isEmpty()
                    ? "µs added to the baseline's median round trip, lower is better"
                    : metricWords(metric) + (metric.endsWith("Ms") ? ", lower is better" : ", higher is better"));
            for (String list : List.of("places", "references", "collapsed", "differences")) {
                for (JsonNode place : decision.path(list)) {
                    String entry = place.path("entry").asText();
                    series.stream().filter(s -> s.study().equals(run.study()) && s.entry().equals(entry)
                                    && s.caseName().equals(decision.path("case").asText())).findFirst()
                            .ifPresent(s -> ((ObjectNode) place).put("page", link(s)));
                }
            }
        }
        return decisions;
    }

    /**
     * What the catalogue says of an entry (technology, style, protocol; library, mode), and the versions and studies of
     * the histories {@code of} it.
     */
    private ObjectNode about(String name, boolean client, Predicate<Histories.Series> of) {
        ObjectNode about = NODES.objectNode();
        about.put("name", name);
        about.put("client", client);
        if (client) {
            String bare = name.substring(name.lastIndexOf(" · ") < 0 ? 0 : name.lastIndexOf(" · ") + 3);
            ClientCatalogue.builtIn().client(bare).ifPresent(entry -> about.put("technology", entry.library().id())
                    .put("style", entry.mode().name().toLowerCase(Locale.ROOT)).put("description", entry.describe()));
            about.put("protocol", "http1");
        } else {
            ProtocolTarget target = ProtocolTarget.parse(name);
            CATALOGUE.target(target.target()).ifPresent(entry -> about.put("technology", CATALOGUE.sourcesOf(entry.technology()))
                    .put("api", entry.api()).put("style", entry.style().label()).put("description", entry.description()));
            about.put("protocol", target.protocol().label());
        }
        Set<String> versions = new LinkedHashSet<>();
        Set<String> studies = new LinkedHashSet<>();
        series.stream().filter(of).forEach(s -> {
            studies.add(s.study());
            s.points().stream().map(Histories.Point::version).filter(Objects::nonNull).forEach(versions::add);
        });
        about.set("versions", Json.json().valueToTree(List.copyOf(versions)));
        about.set("studies", Json.json().valueToTree(List.copyOf(studies)));
        return about;
    }

    /** {@code 4 ok, 1 not-steady}: each verdict with how many of the point's runs had it, in the order first met. */
    private static String counted(List<String> verdicts) {
        Map<String, Integer> counts = new LinkedHashMap<>();
        verdicts.forEach(v -> counts.merge(v, 1, Integer::sum));
        return counts.entrySet().stream().map(e -> e.getValue() + " " + e.getKey()).collect(Collectors.joining(", "));
    }

    /** {@code p99 ms}, {@code rate /s}: a metric as the pages and the terminal name it. */
    static String metricWords(String metric) {
        return METRIC_WORDS.getOrDefault(metric, metric);
    }

    static String markWord(ChangePoints.Mark mark) {
        return switch (mark) {
            case NONE -> "";
            case CHANGE -> "change";
            case OUTLIER -> "outlier";
            case LATEST_CHANGE -> "latest change";
        };
    }

    /**
     * {@code p99 ms rose 35.2 % (95 % CI 20.1–50.3 %) from 1a2b3c4 on, against the 2 runs before: worse}; an outlier or a
     * latest change says so.
     */
    static String sentence(Histories.Series s, Histories.Point point) {
        ChangePoints.Point reading = point.reading();
        Contrast c = reading.contrast();
        String moved = String.format(Locale.ROOT, "%s %s %s %% (%s CI %s–%s %%)", metricWords(s.metric()),
                c.difference() > 0 ? "rose" : "fell", Numbers.figure(Math.abs(c.percent())), level(c),
                Numbers.figure(Math.min(Math.abs(c.percentLow()), Math.abs(c.percentHigh()))),
                Numbers.figure(Math.max(Math.abs(c.percentLow()), Math.abs(c.percentHigh()))));
        String verdict = worse(s, c) ? "worse" : "better";
        return switch (reading.mark()) {
            case CHANGE -> moved + " from " + point.run().shortCommit() + " on, against the level before: " + verdict;
            case LATEST_CHANGE -> moved + " at " + point.run().shortCommit() + ", the latest run, against the level before: "
                    + verdict + ", until a later run confirms it";
            case OUTLIER -> moved + " at " + point.run().shortCommit() + " alone: the run after it came back, an outlier";
            case NONE -> "";
        };
    }

    private static String level(Contrast c) {
        return Math.round(c.confidence() * 100) + " %";
    }

    static boolean worse(Histories.Series s, Contrast c) {
        return (c.difference() > 0) != s.higherIsBetter();
    }
}
