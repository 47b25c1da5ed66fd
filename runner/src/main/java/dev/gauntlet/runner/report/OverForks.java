package dev.gauntlet.runner.report;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gauntlet.api.Json;
import dev.gauntlet.api.LoadModel;
import dev.gauntlet.api.ProtocolTarget;
import dev.gauntlet.api.Verdict;
import dev.gauntlet.runner.results.ClientTable;
import dev.gauntlet.runner.results.ForkRanking;
import dev.gauntlet.runner.results.Intervals;
import dev.gauntlet.runner.results.LatencyDiffTable;
import dev.gauntlet.runner.results.ResultRow;
import dev.gauntlet.runner.statistics.Estimate;
import dev.gauntlet.runner.suite.Baselines;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.ToDoubleFunction;
import java.util.stream.Stream;

/**
 * What the page says over forks, computed here so that the page only shows it: each target × scenario's
 * {@link Intervals} for a directory written before {@code intervals.json}, and per case the headline's decision
 * ({@link CaseDecision}): its entries ranked by the case's own metric over forks, its references and the entries that
 * collapsed, and in a latency-diff suite what each target adds to the baseline's round trip.
 *
 * <pre>
 * ArrayNode decisions = OverForks.decisions(data.get("suite"), data.get("platform"), data.get("rows"), data.get("runs"));
 * // [{case: "flood", metric: "achievedRatePerSec", places: [{rank: 1, entry: "netty", figure: {mean, low, high, samples,
 * //   confidence}, standing: "", verdicts: ["ok"]}, {rank: 2, entry: "jetty", ..., standing: "netty is 12.4 % faster
 * //   than jetty (95 % CI 8.1–16.7 %)"}], separation: "netty is 12.4 % faster than jetty (95 % CI 8.1–16.7 %)",
 * //   references: [{entry: "dummy", figure, verdicts}], collapsed: [], ties: []}]
 * </pre>
 *
 * <p>The page's case is a scenario, and in a study of clients (rows that name their client) the scenarios
 * {@code CASE.CLIENT} are one case whose entries are the clients, each named after its target where there are several
 * targets: report.js's {@code caseOf} and {@code entryOf}. A case's own metric is what its load is ranked by
 * ({@link LoadModel#rankedBy}), as report.js's {@code OWN_METRIC} also says: an open loop's p99, lower is better; a
 * closed loop's rate and max concurrency's requests held at once, higher is better.
 *
 * <p>How a run takes part, by its verdict: {@code ok}, {@code platform-noisy} and {@code not-steady} are the target's
 * figures; {@code target-overloaded} is a collapse, never best; {@code generator-limited} and {@code client-limited} are
 * bounds on the target's figure, except in a study of clients, where the library's limit is the figure under study. A
 * run without the figure is left out: a time or a rate of a run that completed nothing.
 */
final class OverForks {
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final String HELD = "serverMaxInFlight";

    private OverForks() {
    }

    /** {@code intervals.json} as the runner would have written it for these rows. */
    static JsonNode intervals(JsonNode rows) {
        List<ResultRow> measured = new ArrayList<>();
        rows.forEach(row -> measured.add(figures(row, row.path("target").asText(), row.path("scenario").asText())));
        return Json.json().valueToTree(Intervals.of(measured, Estimate.DEFAULT_CONFIDENCE));
    }

    /**
     * Per case, its entries ranked over forks by the case's own metric, with its references and the entries that
     * collapsed beside them ({@link CaseDecision}); in a latency-diff suite, also each target's difference to the
     * baseline's round trip, as the terminal's table takes it ({@link LatencyDiffTable#differences}).
     */
    static ArrayNode decisions(JsonNode suite, JsonNode platform, JsonNode rows, JsonNode runs) {
        boolean byClient = false;
        Set<String> targets = new LinkedHashSet<>();
        suite.path("targets").forEach(target -> targets.add(target.asText()));
        for (JsonNode row : rows) {
            targets.add(row.path("target").asText());
            byClient |= row.hasNonNull("client");
        }
        Set<String> baselines = baselines(suite);
        Map<String, List<CaseDecision.Run>> byCase = new LinkedHashMap<>();
        Map<String, LoadModel.RankedBy> metricOf = new LinkedHashMap<>();
        List<ResultRow> measured = new ArrayList<>();
        for (JsonNode row : rows) {
            String scenario = row.path("scenario").asText();
            String client = row.hasNonNull("client") ? row.path("client").asText() : null;
            String caseName = ClientTable.caseOf(scenario, client);
            String entry = client == null ? row.path("target").asText()
                    : targets.size() > 1 ? row.path("target").asText() + " · " + client : client;
            LoadModel.RankedBy metric = metricOf.computeIfAbsent(caseName, c -> rankedBy(suite, runs, scenario));
            List<CaseDecision.Run> caseRuns = byCase.computeIfAbsent(caseName, c -> new ArrayList<>());
            ResultRow figures = figures(row, entry, caseName);
            measured.add(figures(row, row.path("target").asText(), scenario));
            CaseDecision.Part part = byClient ? partInStudyOfClients(figures.verdict())
                    : baselines.contains(ProtocolTarget.parse(entry).target()) ? CaseDecision.Part.REFERENCE : part(figures.verdict());
            // A collapse counts whether or not it completed anything: one that answered nothing collapsed all the more.
            if (figures.measured() && part != null
                    && (part == CaseDecision.Part.COLLAPSED || !Double.isNaN(figure(metric).applyAsDouble(figures)))) {
                caseRuns.add(new CaseDecision.Run(figures, part));
            }
        }
        double noiseFloorMs = noiseFloorMs(platform);
        boolean latencyDiff = "latency-diff".equals(suite.path("table").asText());
        ArrayNode decisions = NODES.arrayNode();
        byCase.forEach((caseName, caseRuns) -> {
            ObjectNode decision = new CaseDecision(metricOf.get(caseName), figure(metricOf.get(caseName)), noiseFloorMs)
                    .decide(caseName, caseRuns);
            if (latencyDiff) {
                ArrayNode differences = decision.putArray("differences");
                LatencyDiffTable.differences(measured.stream().filter(row -> row.scenario().equals(caseName)).toList(),
                        Estimate.DEFAULT_CONFIDENCE).forEach((target, contrast) -> differences.addObject()
                        .put("entry", target).set("micros", Json.json().valueToTree(contrast)));
            }
            decisions.add(decision);
        });
        return decisions;
    }

    /** The suite's references ({@code baselines} in suite.json); a suite written before it named them had the dummy. */
    private static Set<String> baselines(JsonNode suite) {
        Set<String> baselines = new LinkedHashSet<>();
        suite.path("baselines").forEach(b -> baselines.add(b.asText()));
        return suite.has("baselines") ? baselines : Set.copyOf(Baselines.DEFAULT);
    }

    /** How a server's run takes part in its case's ranking; null for a run without figures. */
    private static CaseDecision.Part part(Verdict verdict) {
        if (verdict == null) {
            return null;
        }
        return switch (verdict) {
            case OK, PLATFORM_NOISY, NOT_STEADY -> CaseDecision.Part.POINT;
            case TARGET_OVERLOADED -> CaseDecision.Part.COLLAPSED;
            case GENERATOR_LIMITED, CLIENT_LIMITED -> CaseDecision.Part.BOUND;
        };
    }

    /** In a study of clients the library's limit is the figure under study, and every client's server is the same. */
    private static CaseDecision.Part partInStudyOfClients(Verdict verdict) {
        return verdict == Verdict.CLIENT_LIMITED ? CaseDecision.Part.POINT : part(verdict);
    }

    /**
     * The larger of the two roles' hiccups at p99, as the platform calibration measured them before the suite: two
     * times of one fork closer than this are not told apart. NaN when the suite did not measure them.
     */
    private static double noiseFloorMs(JsonNode platform) {
        return Stream.of("targetHiccups", "generatorHiccups").map(role -> platform.path(role).path("p99Ms"))
                .filter(JsonNode::isNumber).mapToDouble(JsonNode::doubleValue).max().orElse(Double.NaN);
    }

    /**
     * What the scenario's load is ranked by ({@link LoadModel#rankedBy}), its model read from the suite's scenario or
     * else from a run's summary, as report.js's {@code loadTypeOf} finds it; an open loop's when neither says.
     */
    static LoadModel.RankedBy rankedBy(JsonNode suite, JsonNode runs, String scenario) {
        for (JsonNode s : suite.path("scenarios")) {
            if (s.path("name").asText().equals(scenario) && s.path("load").hasNonNull("type")) {
                return model(s.path("load"));
            }
        }
        for (JsonNode run : runs) {
            if (run.path("scenario").asText().equals(scenario) && run.path("model").hasNonNull("type")) {
                return model(run.path("model"));
            }
        }
        return LoadModel.RankedBy.P99;
    }

    private static LoadModel.RankedBy model(JsonNode load) {
        try {
            return Json.json().treeToValue(load, LoadModel.class).rankedBy();
        } catch (JsonProcessingException | IllegalArgumentException e) {
            return LoadModel.RankedBy.P99; // a load this build cannot read: ranked as most loads are, by the tail
        }
    }

    /** The results.json field of the figure, as the page names its metrics. */
    static String field(LoadModel.RankedBy metric) {
        return switch (metric) {
            case P99 -> "p99Ms";
            case RATE -> "achievedRatePerSec";
            case HELD -> HELD;
        };
    }

    /** A row's figure for the metric; NaN for a time or a rate when it completed nothing. */
    static ToDoubleFunction<ResultRow> figure(LoadModel.RankedBy metric) {
        ToDoubleFunction<ResultRow> figure = ForkRanking.figure(metric);
        return metric == LoadModel.RankedBy.HELD ? figure : row -> row.requests() > 0 ? figure.applyAsDouble(row) : Double.NaN;
    }

    /**
     * A results.json row as the statistics read it, named {@code target} in {@code scenario}: its fork (1 when written
     * before forks), repetition, verdict and figures, the rest left out. Read field by field, as the page reads its rows,
     * so that a row written before or after a field was added counts all the same.
     */
    private static ResultRow figures(JsonNode row, String target, String scenario) {
        JsonNode held = row.path(HELD);
        return new ResultRow(target, scenario, row.path("fork").asInt(1), row.path("repetition").asInt(1), null, 0,
                row.path("requests").asLong(), row.path("errors").asLong(), number(row, "achievedRatePerSec"), Double.NaN,
                number(row, "p50Ms"), number(row, "p99Ms"), Double.NaN, number(row, "maxMs"),
                held.isNumber() ? held.longValue() : null, Double.NaN, Double.NaN, verdict(row.path("verdict").asText()),
                "", null, null, null, null, 0, null, null, 0, null, null, null);
    }

    /** A figure of the row; results.json writes NaN (a run without figures) as the string "NaN". */
    private static double number(JsonNode row, String field) {
        JsonNode value = row.path(field);
        return value.isNumber() ? value.doubleValue() : Double.NaN;
    }

    /** The verdict of that label; null for a run without figures ({@code -}) or a label this build does not know. */
    private static Verdict verdict(String label) {
        return Arrays.stream(Verdict.values()).filter(v -> Objects.equals(v.label(), label)).findFirst().orElse(null);
    }
}
