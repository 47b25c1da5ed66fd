package dev.gauntlet.runner.report;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gauntlet.api.Json;
import dev.gauntlet.api.LoadModel;
import dev.gauntlet.runner.results.ForkRanking;
import dev.gauntlet.runner.results.ResultRow;
import dev.gauntlet.runner.statistics.Contrast;
import dev.gauntlet.runner.statistics.Estimate;
import dev.gauntlet.runner.statistics.ForkMeans;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.ToDoubleFunction;

/**
 * The headline's answer for one case: which entry is best on the case's own metric, and what stands beside it. Only a
 * figure that is the target's, measured below collapse, may be best:
 *
 * <ul>
 *   <li>a <b>reference</b> (the suite's {@code baselines}, the dummy by default) is what the others are measured
 *       against, shown as such and never ranked;</li>
 *   <li>an entry that <b>collapsed</b> in any fork ({@code target-overloaded}) did not keep up with the load: its
 *       figures are what it does under overload, listed and never ranked;</li>
 *   <li>a <b>bound</b> ({@code generator-limited}, or {@code client-limited} outside a study of clients) is ranked by its
 *       figure, which the target would have bettered: a time at most, a rate at least. A bound ranked above another
 *       figure beats it; one ranked below is not decided against it;</li>
 *   <li>a <b>point</b>: every other figure that is the target's ({@code ok}, {@code platform-noisy}, {@code not-steady}).</li>
 * </ul>
 *
 * <p>A run that collapsed counts whether or not it has the figure; the others only with it. Bounds and points are
 * ranked together over forks by {@link ForkRanking}: only a resolved difference separates two ranks. In one fork
 * there is no interval and the first is only the leader; an entry is said to tie with it when their repetitions'
 * ranges overlap or, for a time, when they are closer than the machine's noise floor (its hiccups' p99).
 *
 * <pre>
 * {case, metric, places: [{rank, entry, figure, standing, verdicts, bound: "at most"}], separation,
 *  ties: [{entry, why}], references: [{entry, figure, verdicts}], collapsed: [{entry, figure, verdicts, forks}]}
 * </pre>
 */
final class CaseDecision {
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    /** How an entry's figure may take part in the ranking, from its runs' verdicts. */
    enum Part {
        POINT, BOUND, COLLAPSED, REFERENCE
    }

    /** One run of the case, as the entry it counts for and how its figure takes part. */
    record Run(ResultRow row, Part part) {
    }

    private final LoadModel.RankedBy metric;
    private final ToDoubleFunction<ResultRow> figure;
    private final Contrast.Direction direction;
    private final double noiseFloorMs;

    /**
     * @param noiseFloorMs the machine's own stalls, below which two times are not told apart in one fork; NaN when
     *                     the suite did not measure them
     */
    CaseDecision(LoadModel.RankedBy metric, ToDoubleFunction<ResultRow> figure, double noiseFloorMs) {
        this.metric = metric;
        this.figure = figure;
        this.direction = ForkRanking.direction(metric);
        this.noiseFloorMs = noiseFloorMs;
    }

    /** The decision of the case from its runs, each with a figure for the metric. */
    ObjectNode decide(String caseName, List<Run> runs) {
        Map<String, List<ResultRow>> rowsOf = new LinkedHashMap<>();
        Map<String, Part> partOf = new LinkedHashMap<>();
        Map<String, Set<Integer>> collapsedForks = new LinkedHashMap<>();
        for (Run run : runs) {
            String entry = run.row().target();
            rowsOf.computeIfAbsent(entry, e -> new ArrayList<>()).add(run.row());
            if (run.part() == Part.COLLAPSED) {
                collapsedForks.computeIfAbsent(entry, e -> new TreeSet<>()).add(run.row().fork());
            }
            // The least trusted of an entry's runs says how it takes part: one collapsed fork keeps it from being best.
            partOf.merge(entry, run.part(), (a, b) -> a.ordinal() >= b.ordinal() ? a : b);
        }
        ObjectNode decision = NODES.objectNode();
        decision.put("case", caseName);
        decision.put("metric", OverForks.field(metric));
        List<ResultRow> ranked = new ArrayList<>();
        rowsOf.forEach((entry, rows) -> {
            switch (partOf.get(entry)) {
                case POINT, BOUND -> ranked.addAll(rows);
                case COLLAPSED -> listed(decision.withArray("collapsed"), entry, rows)
                        .put("forks", collapsedForks.get(entry).size() + " of "
                                + rows.stream().map(ResultRow::fork).distinct().count());
                case REFERENCE -> listed(decision.withArray("references"), entry, rows);
            }
        });
        ArrayNode places = decision.putArray("places");
        for (ForkRanking ranking : ForkRanking.of(ranked, figure, direction, Estimate.DEFAULT_CONFIDENCE)) {
            for (ForkRanking.Place place : ranking.places()) {
                ObjectNode p = listed(places, place.target(), rowsOf.get(place.target()));
                p.put("rank", place.rank());
                p.set("figure", Json.json().valueToTree(place.figure()));
                p.put("standing", place.standing());
                if (partOf.get(place.target()) == Part.BOUND) {
                    p.put("bound", direction == Contrast.Direction.LOWER_IS_BETTER ? "at most" : "at least");
                }
            }
            List<ForkRanking.Place> order = ranking.places();
            order.stream().filter(place -> place.rank() > 1).findFirst().ifPresent(next -> decision.put("separation",
                    separation(rowsOf, order.getFirst().target(), next.target())));
            if (order.stream().allMatch(place -> place.figure().samples() < 2)) {
                decision.set("ties", ties(rowsOf, order));
            }
        }
        return decision;
    }

    /**
     * An entry added to {@code list} with its verdicts and its figure's mean over the forks that have one; no figure
     * when none has (a collapse that answered nothing).
     */
    private ObjectNode listed(ArrayNode list, String entry, List<ResultRow> rows) {
        ObjectNode e = list.addObject();
        e.put("entry", entry);
        List<ResultRow> figured = rows.stream().filter(row -> !Double.isNaN(figure.applyAsDouble(row))).toList();
        if (!figured.isEmpty()) {
            e.set("figure", Json.json().valueToTree(Estimate.of(ForkMeans.of(figured, ResultRow::fork, figure),
                    Estimate.DEFAULT_CONFIDENCE)));
        }
        ArrayNode verdicts = e.putArray("verdicts");
        rows.stream().map(ResultRow::verdictLabel).distinct().forEach(verdicts::add);
        return e;
    }

    /**
     * The sentence that sets the second rank apart: the first rank's leader against the second rank's first, the
     * difference that resolved it. Its standing is against the place above, which in a shared first rank is another
     * than the leader, and may not be resolved from it.
     */
    private String separation(Map<String, List<ResultRow>> rowsOf, String leader, String next) {
        Contrast contrast = Contrast.of(ForkMeans.of(rowsOf.get(leader), ResultRow::fork, figure),
                ForkMeans.of(rowsOf.get(next), ResultRow::fork, figure), Estimate.DEFAULT_CONFIDENCE);
        return ForkRanking.sentence(contrast, leader, next, direction);
    }

    /** In one fork, the entries not told apart from the leader, and why: their runs' ranges overlap, or the noise. */
    private ArrayNode ties(Map<String, List<ResultRow>> rowsOf, List<ForkRanking.Place> order) {
        ArrayNode ties = NODES.arrayNode();
        List<ResultRow> leaderRows = rowsOf.get(order.getFirst().target());
        double leader = order.getFirst().figure().mean();
        for (ForkRanking.Place place : order.subList(1, order.size())) {
            List<ResultRow> rows = rowsOf.get(place.target());
            String why = null;
            if ((leaderRows.size() > 1 || rows.size() > 1) && overlap(leaderRows, rows)) {
                why = "their repetitions' ranges overlap";
            } else if (metric == LoadModel.RankedBy.P99 && Math.abs(place.figure().mean() - leader) <= noiseFloorMs) {
                why = "within the machine's noise floor (its hiccups' p99, " + Math.round(noiseFloorMs * 100) / 100.0 + " ms)";
            }
            if (why != null) {
                ties.addObject().put("entry", place.target()).put("why", why);
            }
        }
        return ties;
    }

    private boolean overlap(List<ResultRow> a, List<ResultRow> b) {
        return low(a) <= high(b) && low(b) <= high(a);
    }

    private double low(List<ResultRow> rows) {
        return rows.stream().mapToDouble(figure).min().orElse(Double.NaN);
    }

    private double high(List<ResultRow> rows) {
        return rows.stream().mapToDouble(figure).max().orElse(Double.NaN);
    }
}
