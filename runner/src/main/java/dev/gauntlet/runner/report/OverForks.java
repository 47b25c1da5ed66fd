package dev.gauntlet.runner.report;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gauntlet.api.Json;
import dev.gauntlet.api.LoadModel;
import dev.gauntlet.api.Verdict;
import dev.gauntlet.runner.results.ForkRanking;
import dev.gauntlet.runner.results.Intervals;
import dev.gauntlet.runner.results.ResultRow;
import dev.gauntlet.runner.statistics.Contrast;
import dev.gauntlet.runner.statistics.Estimate;
import dev.gauntlet.runner.statistics.ForkMeans;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.ToDoubleFunction;

/**
 * What the page says over forks, computed here so that the page only shows it: each target × scenario's
 * {@link Intervals} for a directory written before {@code intervals.json}, and per case the headline's decision, its
 * entries ranked by the case's own metric over forks ({@link ForkRanking}).
 *
 * <pre>
 * ArrayNode decisions = OverForks.decisions(data.get("suite"), data.get("rows"), data.get("runs"));
 * // [{case: "flood", metric: "achievedRatePerSec", places: [{rank: 1, entry: "netty", figure: {mean, low, high, samples,
 * //   confidence}, standing: "", verdicts: ["ok"]}, {rank: 2, entry: "jetty", ..., standing: "netty is 12.4 % faster
 * //   than jetty (95 % CI 8.1–16.7 %)"}], separation: "netty is 12.4 % faster than jetty (95 % CI 8.1–16.7 %)"}]
 * </pre>
 *
 * <p>The page's case is a scenario, and in a study of clients (rows that name their client) the scenarios
 * {@code CASE.CLIENT} are one case whose entries are the clients, each named after its target where there are several
 * targets: report.js's {@code caseOf} and {@code entryOf}. A case's own metric is what its load is ranked by
 * ({@link LoadModel#rankedBy}), as report.js's {@code OWN_METRIC} also says: an open loop's p99, lower is better; a
 * closed loop's rate and max concurrency's requests held at once, higher is better.
 *
 * <p>Only the runs whose figures are the target's are ranked, the runs the headline has always chosen its best among
 * (report.js's {@code trustOf}): {@code ok}, {@code platform-noisy}, and the target's figures with a caveat,
 * {@code not-steady} and {@code target-overloaded}, whose verdicts the page names beside them; {@code client-limited}
 * only in a study of clients, where the library's limit is the figure under study. A run without the figure is left
 * out: a time or a rate of a run that completed nothing.
 */
final class OverForks {
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final Set<Verdict> TARGETS_FIGURES = Set.of(Verdict.OK, Verdict.PLATFORM_NOISY, Verdict.NOT_STEADY,
            Verdict.TARGET_OVERLOADED);
    private static final String HELD = "serverMaxInFlight";

    private OverForks() {
    }

    /** {@code intervals.json} as the runner would have written it for these rows. */
    static JsonNode intervals(JsonNode rows) {
        List<ResultRow> measured = new ArrayList<>();
        rows.forEach(row -> measured.add(figures(row, row.path("target").asText(), row.path("scenario").asText())));
        return Json.json().valueToTree(Intervals.of(measured, Estimate.DEFAULT_CONFIDENCE));
    }

    /** Per case, its entries ranked over forks by the case's own metric, as the class comment shows. */
    static ArrayNode decisions(JsonNode suite, JsonNode rows, JsonNode runs) {
        boolean byClient = false;
        Set<String> targets = new LinkedHashSet<>();
        suite.path("targets").forEach(target -> targets.add(target.asText()));
        for (JsonNode row : rows) {
            targets.add(row.path("target").asText());
            byClient |= row.hasNonNull("client");
        }
        Map<String, List<ResultRow>> byCase = new LinkedHashMap<>();
        Map<String, LoadModel.RankedBy> metricOf = new LinkedHashMap<>();
        for (JsonNode row : rows) {
            String scenario = row.path("scenario").asText();
            String client = row.hasNonNull("client") ? row.path("client").asText() : null;
            String caseName = client != null && scenario.endsWith("." + client)
                    ? scenario.substring(0, scenario.length() - client.length() - 1) : scenario;
            String entry = client == null ? row.path("target").asText()
                    : targets.size() > 1 ? row.path("target").asText() + " · " + client : client;
            LoadModel.RankedBy metric = metricOf.computeIfAbsent(caseName, c -> rankedBy(suite, runs, scenario));
            List<ResultRow> ranked = byCase.computeIfAbsent(caseName, c -> new ArrayList<>());
            ResultRow figures = figures(row, entry, caseName);
            if (figures.measured() && (TARGETS_FIGURES.contains(figures.verdict())
                    || byClient && figures.verdict() == Verdict.CLIENT_LIMITED)
                    && !Double.isNaN(figure(metric).applyAsDouble(figures))) {
                ranked.add(figures);
            }
        }
        ArrayNode decisions = NODES.arrayNode();
        byCase.forEach((caseName, ranked) -> decisions.add(decision(caseName, metricOf.get(caseName), ranked)));
        return decisions;
    }

    private static ObjectNode decision(String caseName, LoadModel.RankedBy metric, List<ResultRow> ranked) {
        ObjectNode decision = NODES.objectNode();
        decision.put("case", caseName);
        decision.put("metric", field(metric));
        ArrayNode places = decision.putArray("places");
        Contrast.Direction direction = ForkRanking.direction(metric);
        // One ranking, of the one scenario every ranked row names: the case.
        for (ForkRanking ranking : ForkRanking.of(ranked, figure(metric), direction, Estimate.DEFAULT_CONFIDENCE)) {
            for (ForkRanking.Place place : ranking.places()) {
                ObjectNode p = places.addObject();
                p.put("rank", place.rank());
                p.put("entry", place.target());
                p.set("figure", Json.json().valueToTree(place.figure()));
                p.put("standing", place.standing());
                ArrayNode verdicts = p.putArray("verdicts");
                ranked.stream().filter(row -> row.target().equals(place.target())).map(ResultRow::verdictLabel)
                        .distinct().forEach(verdicts::add);
            }
            ranking.places().stream().filter(place -> place.rank() > 1).findFirst().ifPresent(next -> decision.put("separation",
                    separation(ranked, metric, direction, ranking.places().getFirst().target(), next.target())));
        }
        return decision;
    }

    /**
     * The sentence that sets the second rank apart: the first rank's leader against the second rank's first, the
     * difference that resolved it. Its standing is against the place above, which in a shared first rank is another
     * than the leader, and may not be resolved from it.
     */
    private static String separation(List<ResultRow> ranked, LoadModel.RankedBy metric, Contrast.Direction direction,
                                     String leader, String next) {
        Contrast contrast = Contrast.of(samples(ranked, metric, leader), samples(ranked, metric, next),
                Estimate.DEFAULT_CONFIDENCE);
        return ForkRanking.sentence(contrast, leader, next, direction);
    }

    private static double[] samples(List<ResultRow> ranked, LoadModel.RankedBy metric, String entry) {
        return ForkMeans.of(ranked.stream().filter(row -> row.target().equals(entry)).toList(), ResultRow::fork,
                figure(metric));
    }

    /**
     * What the scenario's load is ranked by ({@link LoadModel#rankedBy}), its model read from the suite's scenario or
     * else from a run's summary, as report.js's {@code loadTypeOf} finds it; an open loop's when neither says.
     */
    private static LoadModel.RankedBy rankedBy(JsonNode suite, JsonNode runs, String scenario) {
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
    private static String field(LoadModel.RankedBy metric) {
        return switch (metric) {
            case P99 -> "p99Ms";
            case RATE -> "achievedRatePerSec";
            case HELD -> HELD;
        };
    }

    /** A row's figure for the metric; NaN for a time or a rate when it completed nothing. */
    private static ToDoubleFunction<ResultRow> figure(LoadModel.RankedBy metric) {
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
                "", null, null, null, null, 0, null, null, 0, null, null);
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
