package dev.gauntlet.runner.results;

import dev.gauntlet.runner.statistics.Contrast;
import dev.gauntlet.runner.suite.Suite;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Which of a suite's ranked pairs its forks have not told apart yet, as its table ranks them: in latency-diff each
 * target against the {@code dummy} baseline ({@link LatencyDiffTable#differences}); otherwise, per scenario, each
 * target against the one ranked above it on the scenario's own figure ({@link ForkRanking}, the load's
 * {@code rankedBy}). A pair without an interval (one fork a side) is not resolved.
 *
 * <pre>{@code
 * Resolution resolution = Resolution.of(store.rows(), suite, 0.95);
 * resolution.resolved();          // false: some pair's interval still spans 0
 * resolution.targets();           // [dummy, undertow-handler-event-loop]: what the next fork runs
 * }</pre>
 *
 * @param pairs every ranked pair and how it stands
 */
public record Resolution(List<Pair> pairs, String baseline) {
    /** A ranked pair: {@code a} against {@code b} in {@code scenario}. */
    public record Pair(String scenario, String a, String b, Contrast contrast) {
        public boolean resolved() {
            return contrast.resolved();
        }
    }

    public static Resolution of(List<ResultRow> rows, Suite suite, double confidence) {
        List<Pair> pairs = new ArrayList<>();
        if (suite.table() == Suite.Table.LATENCY_DIFF) {
            String scenario = suite.scenarios().stream().filter(s -> !s.warmUp()).findFirst().orElseThrow().name();
            LatencyDiffTable.differences(rows, confidence)
                    .forEach((target, diff) -> pairs.add(new Pair(scenario, target, LatencyDiffTable.BASELINE, diff)));
            return new Resolution(pairs, LatencyDiffTable.BASELINE);
        }
        for (Suite.Scenario scenario : suite.scenarios()) {
            if (scenario.warmUp()) {
                continue;
            }
            List<ResultRow> its = rows.stream().filter(row -> row.scenario().equals(scenario.name())).toList();
            var by = scenario.load().rankedBy();
            for (ForkRanking ranking : ForkRanking.of(its, ForkRanking.figure(by), ForkRanking.direction(by), confidence)) {
                List<ForkRanking.Place> places = ranking.places();
                for (int i = 1; i < places.size(); i++) {
                    pairs.add(new Pair(scenario.name(), places.get(i - 1).target(), places.get(i).target(),
                            places.get(i).fromAbove()));
                }
            }
        }
        return new Resolution(pairs, null);
    }

    public boolean resolved() {
        return pairs.stream().allMatch(Pair::resolved);
    }

    public List<Pair> unresolved() {
        return pairs.stream().filter(pair -> !pair.resolved()).toList();
    }

    /** The targets of the pairs not resolved, and the baseline they are measured against: what another fork runs. */
    public List<String> targets() {
        Set<String> targets = new LinkedHashSet<>();
        for (Pair pair : unresolved()) {
            targets.add(pair.a());
            targets.add(pair.b());
        }
        return List.copyOf(targets);
    }

    /**
     * The precision reached, in a line: {@code 2 of 13 pairs not resolved; the smallest difference these forks would
     * detect: 3.1 µs (tomcat-servlet-sync against dummy) ...}; with every pair resolved, {@code every pair resolved}.
     */
    public String describe() {
        List<Pair> open = unresolved();
        if (open.isEmpty()) {
            return "every one of " + pairs.size() + " ranked pairs resolved";
        }
        List<String> each = new ArrayList<>();
        for (Pair pair : open) {
            Contrast c = pair.contrast();
            each.add(String.format(Locale.ROOT, "%s against %s%s: %s", pair.a(), pair.b(),
                    baseline == null ? " in " + pair.scenario() : "",
                    c.bounded() ? String.format(Locale.ROOT, "smallest detectable difference %.1f %%",
                            100 * c.smallestDetectable() / Math.abs(c.reference())) : "no interval yet (one fork)"));
        }
        return open.size() + " of " + pairs.size() + " ranked pairs not resolved (" + String.join("; ", each) + ")";
    }
}
