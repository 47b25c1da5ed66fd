package dev.gauntlet.runner.site;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gauntlet.api.Verdict;
import dev.gauntlet.runner.results.ClientTable;
import dev.gauntlet.runner.statistics.ChangePoints;
import dev.gauntlet.runner.statistics.Estimate;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Every figure's history: per study (a suite's runs alike in configuration, {@link StudyRun#study}), case and entry (a target, or a client in a study of clients), the case's
 * own metric in each run that measured it, oldest first, with its interval over forks and where it changed beyond the
 * noise ({@link ChangePoints}).
 *
 * <p>A point is judged on its forks whose every run gave the entry's own figure (ok, platform-noisy, not-steady; in a
 * study of clients client-limited too): a fork that collapsed or met the generator's limit is left out and counted, and
 * a point with no such fork is shown with its verdicts, neither a level nor a change.
 */
final class Histories {
    /** The verdicts of an entry's own figures; in a study of clients client-limited too, the library's limit. */
    private static final Set<Verdict> FIGURES = Set.of(Verdict.OK, Verdict.PLATFORM_NOISY, Verdict.NOT_STEADY);

    /**
     * One run's figure.
     *
     * @param version the entry's server or library version as the run recorded it; null when it did not
     * @param forks   the figure's mean in each fork judged, the samples of its interval
     * @param judged  whether a fork of it gave the entry's own figure in every run, so that it takes part in finding
     *                changes, on those forks alone
     * @param leftOut the forks not judged, whose runs did not all give the entry's own figure (a collapse, a
     *                generator's limit)
     * @param costs   the JVM's costs that count for the entry (the target's; a client's generator's): the longest GC
     *                pause, the heap used at most, the platform threads at most, mean CPU of the machine, over its runs
     */
    record Point(StudyRun run, String version, Estimate figure, double[] forks, List<String> verdicts, boolean judged,
                 int leftOut, Map<String, Double> costs, ChangePoints.Point reading) {
    }

    /**
     * @param entry   the target, or the client in a study of clients
     * @param client  whether the entry is a client
     * @param metric  the results' field of the case's own figure: {@code p99Ms}, {@code achievedRatePerSec}, ...
     */
    record Series(String study, String caseName, String entry, boolean client, String metric, boolean higherIsBetter,
                  List<Point> points) {
        /** The series' anchor on its page: {@code series-STUDY-CASE-ENTRY}. */
        String anchor() {
            return SitePaths.anchor("series", study, caseName, entry);
        }
    }

    private Histories() {
    }

    /** Every series of these runs (oldest first), by study, case and entry in the order first met. */
    static List<Series> of(List<StudyRun> runs) {
        Map<List<String>, List<Point>> points = new LinkedHashMap<>();
        Map<List<String>, String> metrics = new LinkedHashMap<>();
        for (StudyRun run : runs) {
            Map<List<String>, List<JsonNode>> rowsByEntry = new LinkedHashMap<>();
            Set<String> targets = new LinkedHashSet<>();
            run.data().path("rows").forEach(row -> targets.add(row.path("target").asText()));
            for (JsonNode row : run.data().path("rows")) {
                if (verdict(row) == null) {
                    continue;
                }
                String client = row.hasNonNull("client") ? row.path("client").asText() : null;
                String caseName = ClientTable.caseOf(row.path("scenario").asText(), client);
                String entry = client == null ? row.path("target").asText()
                        : targets.size() > 1 ? row.path("target").asText() + " · " + client : client;
                rowsByEntry.computeIfAbsent(List.of(run.study(), caseName, entry, client == null ? "target" : "client"),
                        k -> new ArrayList<>()).add(row);
            }
            rowsByEntry.forEach((key, rows) -> {
                String metric = metricOf(run, key.get(1));
                metrics.putIfAbsent(key, metric);
                if (metric.equals(metrics.get(key))) {
                    boolean client = key.get(3).equals("client");
                    points.computeIfAbsent(key, k -> new ArrayList<>()).add(point(run, key.get(2), client, rows, metric));
                }
            });
        }
        List<Series> series = new ArrayList<>();
        points.forEach((key, history) -> {
            String metric = metrics.get(key);
            series.add(new Series(key.get(0), key.get(1), key.get(2), key.get(3).equals("client"), metric,
                    !metric.endsWith("Ms"), judge(history)));
        });
        return series;
    }

    /**
     * The case's own metric as the run's headline decided it; a latency-diff study's median round trip, what its
     * answer is the difference of.
     */
    private static String metricOf(StudyRun run, String caseName) {
        if (run.table().equals("latency-diff")) {
            return "p50Ms";
        }
        for (JsonNode decision : run.data().path("decisions")) {
            if (decision.path("case").asText().equals(caseName)) {
                return decision.path("metric").asText("p99Ms");
            }
        }
        return "p99Ms";
    }

    /**
     * The entry's figure in one run: over the forks whose every run gave its own figure, the others left out and
     * counted; over all forks, and not judged, when none did.
     */
    private static Point point(StudyRun run, String entry, boolean client, List<JsonNode> rows, String metric) {
        Map<Integer, List<JsonNode>> byFork = new TreeMap<>();
        rows.forEach(row -> byFork.computeIfAbsent(row.path("fork").asInt(1), f -> new ArrayList<>()).add(row));
        Map<Integer, List<JsonNode>> own = new TreeMap<>(byFork);
        own.values().removeIf(forkRows -> !forkRows.stream().map(Histories::verdict)
                .allMatch(v -> FIGURES.contains(v) || client && v == Verdict.CLIENT_LIMITED));
        boolean judged = !means(own, metric).isEmpty();
        double[] forks = means(judged ? own : byFork, metric).stream().mapToDouble(Double::doubleValue).toArray();
        String name = client ? entry.substring(entry.lastIndexOf(" · ") < 0 ? 0 : entry.lastIndexOf(" · ") + 3) : entry;
        String version = run.versionOf(client ? "clients" : "targets", name);
        return new Point(run, version, Estimate.of(forks, Estimate.DEFAULT_CONFIDENCE), forks,
                rows.stream().map(row -> verdict(row).label()).toList(), judged, judged ? byFork.size() - own.size() : 0,
                costs(rows, client ? "generatorJvm" : "targetJvm"), null);
    }

    /** Each fork's mean of the metric, over its runs that have it; a fork without it has none. */
    private static List<Double> means(Map<Integer, List<JsonNode>> byFork, String metric) {
        List<Double> means = new ArrayList<>();
        byFork.values().forEach(forkRows -> forkRows.stream().map(row -> row.path(metric)).filter(JsonNode::isNumber)
                .mapToDouble(JsonNode::doubleValue).average().ifPresent(means::add));
        return means;
    }

    /** The judged points read by {@link ChangePoints}; the others keep no reading. */
    private static List<Point> judge(List<Point> history) {
        List<Point> judged = history.stream().filter(Point::judged).toList();
        List<ChangePoints.Point> readings = ChangePoints.of(judged.stream().map(Point::forks).toList(), Estimate.DEFAULT_CONFIDENCE);
        List<Point> read = new ArrayList<>();
        int next = 0;
        for (Point point : history) {
            read.add(!point.judged() ? point : new Point(point.run(), point.version(), point.figure(), point.forks(),
                    point.verdicts(), true, point.leftOut(), point.costs(), readings.get(next++)));
        }
        return read;
    }

    private static Map<String, Double> costs(List<JsonNode> rows, String side) {
        Map<String, Double> costs = new LinkedHashMap<>();
        costs.put("gcPauseMaxMs", most(rows, side, "/gcPauses/maxMs"));
        costs.put("heapUsedMaxBytes", most(rows, side, "/heap/usedMaxBytes"));
        costs.put("platformThreadsPeak", most(rows, side, "/threads/platformPeak"));
        costs.put("cpuMeanPercentOfMachine", rows.stream().map(row -> row.path(side).at("/cpu/meanPercentOfMachine"))
                .filter(JsonNode::isNumber).mapToDouble(JsonNode::doubleValue).average().orElse(Double.NaN));
        return costs;
    }

    private static double most(List<JsonNode> rows, String side, String pointer) {
        return rows.stream().map(row -> row.path(side).at(pointer)).filter(JsonNode::isNumber)
                .mapToDouble(JsonNode::doubleValue).max().orElse(Double.NaN);
    }

    /** The row's verdict; null for a run without figures (failed, skipped) or a label this build does not know. */
    private static Verdict verdict(JsonNode row) {
        String label = row.path("verdict").asText();
        return Arrays.stream(Verdict.values()).filter(v -> v.label().equals(label)).findFirst().orElse(null);
    }
}
