package dev.gauntlet.runner.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.apache.commons.statistics.descriptive.DoubleStatistics;
import org.apache.commons.statistics.descriptive.Statistic;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * How far each target × scenario's repetitions spread on the figure its case is judged by: an open loop's p99, a closed
 * loop's rate, max concurrency's requests held at once, latency-diff's median round trip (report.js's
 * {@code ownMetricOf}). A throughput suite's spread is of its rates, which is what its headline ranks.
 *
 * <pre>
 * ArrayNode spreads = RepetitionSpreads.of(data.get("suite"), data.get("rows"), data.get("runs"));
 * // [{target: "netty", scenario: "flood", metric: "achievedRatePerSec", values: [33742, 22101, 45012],
 * //   min: 22101, max: 45012, cvPercent: 34.0}]   only target × scenarios run more than once with figures
 * </pre>
 *
 * The coefficient of variation is the sample standard deviation over the mean, from Commons Statistics.
 */
final class RepetitionSpreads {
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final String LATENCY_DIFF_METRIC = "p50Ms";

    private RepetitionSpreads() {
    }

    static ArrayNode of(JsonNode suite, JsonNode rows, JsonNode runs) {
        boolean latencyDiff = "latency-diff".equals(suite.path("table").asText());
        Map<List<String>, List<Double>> groups = new LinkedHashMap<>();
        Map<String, String> metricOf = new LinkedHashMap<>();
        for (JsonNode row : rows) {
            String verdict = row.path("verdict").asText("-");
            String scenario = row.path("scenario").asText();
            String metric = metricOf.computeIfAbsent(scenario, s -> latencyDiff ? LATENCY_DIFF_METRIC
                    : OverForks.field(OverForks.rankedBy(suite, runs, s)));
            JsonNode value = row.path(metric);
            // A run that completed nothing has no time or rate to spread; results.json writes NaN as a string.
            if (verdict.equals("-") || !(row.path("requests").asLong() > 0) || !value.isNumber()) {
                continue;
            }
            groups.computeIfAbsent(List.of(row.path("target").asText(), scenario), k -> new ArrayList<>()).add(value.doubleValue());
        }
        ArrayNode spreads = NODES.arrayNode();
        groups.forEach((key, values) -> {
            if (values.size() > 1) {
                spreads.add(spread(key.get(0), key.get(1), metricOf.get(key.get(1)), values));
            }
        });
        return spreads;
    }

    private static ObjectNode spread(String target, String scenario, String metric, List<Double> values) {
        double[] v = values.stream().mapToDouble(Double::doubleValue).toArray();
        DoubleStatistics stats = DoubleStatistics.of(EnumSet.of(Statistic.MIN, Statistic.MAX, Statistic.MEAN,
                Statistic.STANDARD_DEVIATION), v);
        ObjectNode spread = NODES.objectNode().put("target", target).put("scenario", scenario).put("metric", metric);
        values.forEach(spread.putArray("values")::add);
        double mean = stats.getAsDouble(Statistic.MEAN);
        spread.put("min", stats.getAsDouble(Statistic.MIN)).put("max", stats.getAsDouble(Statistic.MAX));
        if (mean > 0) {
            spread.put("cvPercent", 100 * stats.getAsDouble(Statistic.STANDARD_DEVIATION) / mean);
        }
        return spread;
    }
}
