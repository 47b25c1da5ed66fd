package dev.gauntlet.runner.results;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.JsonNode;
import dev.gauntlet.api.Numbers;
import dev.gauntlet.api.Verdict;
import dev.gauntlet.runner.statistics.Contrast;
import dev.gauntlet.runner.statistics.Estimate;
import dev.gauntlet.runner.statistics.ForkMeans;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * BASE's {@code results.json} rows against NEW's, per target × scenario: each figure's mean over the
 * forks on both sides (a fork's repetitions averaged first, {@link ForkMeans}), its change with a confidence
 * interval ({@link Contrast}: Welch's, NEW against BASE), and each threshold judged on it:
 *
 * <pre>
 * Comparison c = Comparison.of(baseRows, newRows, FailOn.parse("p99=+10%"), 0.95);
 * c.targetScenarios(); // every target × scenario of either side: compared, or not and why
 * c.deltas();      // every target × scenario × metric compared, both means and the change with its interval
 * c.checks();      // each threshold on each target × scenario with its figure: holds, within the noise or failed
 * c.failures();    // one line per threshold broken beyond the noise, naming the row and the figures
 * c.withinNoise(); // thresholds broken by a change whose interval spans 0: listed, not failed
 * c.rowChanges();  // with a gate: rows that failed in NEW, went missing from it or turned from ok
 * c.notCompared(); // rows whose verdict says their figures are not the target's, or that failed
 * </pre>
 *
 * Every target × scenario of either side is one of {@link #targetScenarios()}, compared or not and why, so that
 * none drops out of the summary or the page unseen. Rows judged {@code ok}, {@code platform-noisy},
 * {@code not-steady} or {@code client-limited} are compared. The figures of a target-overloaded or
 * generator-limited run describe a different situation (a target past what it can take, or the generator's own
 * limit), so they are listed with their verdict instead, never silently compared. A not-steady run's figures are
 * still the target's, of a moving target (they drifted within the measured phase, or its warm-up never settled):
 * they are compared and judged by the thresholds like an ok run's, with the caveat named beside each change
 * ({@link Delta#caveat()}), since leaving them out would let a change that also unsettled the target pass unjudged.
 * A client-limited run's figures are the client library's, its engine having been the bottleneck: in a study of
 * clients (the {@code client} suite) that is the figure under study, so two such runs compare one library's limit
 * before and after.
 *
 * <p>A threshold fails when the change is beyond it and beyond the noise: its interval excludes no change. A change
 * within the noise is listed in {@link #withinNoise()} and passes, however large: starting the JVMs afresh moved the
 * figure as much. Without two forks a side there is no interval and the change alone is judged, as before forks.
 *
 * <p>A row left out of the figures must not let a gate pass unseen, so with thresholds the rows are also matched one
 * by one (target × scenario × fork × repetition) and every change the gate judges is a {@link RowChange}: a row of
 * NEW that failed, or one of BASE missing from NEW, fails the gate whatever the figures.
 */
public record Comparison(List<TargetScenario> targetScenarios, List<Delta> deltas, List<ThresholdCheck> checks,
                         List<RowChange> rowChanges, List<NotCompared> notCompared) {
    /** A change at least this large (in percent of BASE) is listed first as notable. */
    public static final double NOTABLE_PERCENT = 10;
    private static final Set<String> COMPARABLE = Set.of(Verdict.OK.label(), Verdict.PLATFORM_NOISY.label(),
            Verdict.NOT_STEADY.label(), Verdict.CLIENT_LIMITED.label());

    /**
     * One target × scenario of either side and what the comparison made of it.
     *
     * @param base     BASE's runs of it by verdict, such as {@code 2 ok} or {@code 1 ok, 1 failed (target died)};
     *                 {@code none} when BASE lacks it
     * @param now      NEW's, likewise
     * @param compared whether its figures are among the deltas
     * @param why      why it is not compared (such as {@code only in BASE}, {@code no run of NEW whose figures
     *                 compare}), or what to bear in mind of its comparison (not-steady runs, runs left out); empty
     *                 for a plain comparison
     */
    public record TargetScenario(String target, String scenario, String base, String now, boolean compared, String why) {
        @Override
        public String toString() {
            return target + " · " + scenario + (why.isEmpty() ? "" : ": " + why) + " (BASE " + base + "; NEW " + now + ")";
        }
    }

    /**
     * One figure of one target × scenario on both sides; {@code percent} is NaN when BASE is 0.
     *
     * @param base      BASE's mean over its forks, each fork the mean of its repetitions ({@code now} NEW's)
     * @param baseRange the lowest and highest of BASE's runs ({@code nowRange} NEW's): one value with one
     * @param change    NEW against BASE over forks ({@link Contrast}): the change's interval, whether it is resolved,
     *                  and the smallest change these forks would have resolved
     * @param caveat    which runs compared are not-steady, such as {@code not-steady in 2 of 3 runs of NEW}; else empty
     */
    public record Delta(String target, String scenario, String metric, double base, double now, double percent,
                 boolean worse, boolean better, boolean notable, Range baseRange, Range nowRange, Contrast change,
                 String caveat) {
        /** Whether the change's interval spans 0: within what starting the JVMs afresh moved the figure by. */
        public boolean withinNoise() {
            return change.bounded() && !change.resolved();
        }

        /** {@code beyond} the noise, {@code within} it, or {@code unknown} without two forks a side, as the page says it. */
        @JsonProperty
        public String noise() {
            return !change.bounded() ? "unknown" : change.resolved() ? "beyond" : "within";
        }
    }

    /**
     * One threshold judged on one target × scenario that has its figure.
     *
     * @param threshold the threshold as given, such as {@code p99=+10%}
     * @param line      the row, the figure's change with its interval, and the limit, as the summary prints it
     */
    public record ThresholdCheck(String target, String scenario, String threshold, String line, Outcome outcome) {
        public enum Outcome {
            /** The change stays within the limit. */
            HOLDS,
            /** The change is beyond the limit, but its interval spans 0: listed, not failed. */
            WITHIN_NOISE,
            /** Beyond the limit and beyond the noise: the gate fails. */
            FAILED,
            /** Not judged, the hosts differing ({@link #withoutThresholds()}). */
            NOT_JUDGED
        }
    }

    /** The lowest and highest of a figure over a side's repetitions, and how many there were. */
    public record Range(double low, double high, int repetitions) {
        static Range of(List<JsonNode> rows, String field) {
            double[] values = rows.stream().mapToDouble(r -> r.path(field).asDouble(Double.NaN)).filter(v -> !Double.isNaN(v)).toArray();
            return new Range(Arrays.stream(values).min().orElse(Double.NaN), Arrays.stream(values).max().orElse(Double.NaN), values.length);
        }
    }

    /**
     * A row, or a target × scenario, left out of the comparison, and why: its verdict (with its note), "no figures",
     * "only in BASE" or "only in NEW".
     */
    public record NotCompared(String row, String reason, String note) {
        @Override
        public String toString() {
            return row + ": " + reason + (note.isEmpty() ? "" : " (" + note + ")");
        }
    }

    public static Comparison of(JsonNode baseRows, JsonNode newRows, FailOn failOn) {
        return of(baseRows, newRows, failOn, Estimate.DEFAULT_CONFIDENCE);
    }

    /** @param confidence the level of each change's interval, such as 0.95 */
    public static Comparison of(JsonNode baseRows, JsonNode newRows, FailOn failOn, double confidence) {
        Map<String, List<JsonNode>> base = byTargetAndScenario(baseRows);
        Map<String, List<JsonNode>> now = byTargetAndScenario(newRows);
        Set<String> either = new LinkedHashSet<>(base.keySet());
        either.addAll(now.keySet());
        List<TargetScenario> targetScenarios = new ArrayList<>();
        List<Delta> deltas = new ArrayList<>();
        List<ThresholdCheck> checks = new ArrayList<>();
        List<NotCompared> notCompared = new ArrayList<>();
        for (String key : either) {
            List<JsonNode> baseSide = base.getOrDefault(key, List.of());
            List<JsonNode> newSide = now.getOrDefault(key, List.of());
            JsonNode first = (baseSide.isEmpty() ? newSide : baseSide).getFirst();
            String target = first.path("target").asText();
            String scenario = first.path("scenario").asText();
            String why;
            Map<FailOn.Metric, Delta> byMetric = Map.of();
            if (baseSide.isEmpty() || newSide.isEmpty()) {
                why = baseSide.isEmpty() ? "only in NEW" : "only in BASE";
                notCompared.add(new NotCompared(key, why, ""));
            } else {
                List<JsonNode> b = comparable(baseSide, "BASE", notCompared);
                List<JsonNode> n = comparable(newSide, "NEW", notCompared);
                if (b.isEmpty() || n.isEmpty()) {
                    why = "no run of " + (b.isEmpty() && n.isEmpty() ? "either side" : b.isEmpty() ? "BASE" : "NEW")
                            + " whose figures compare";
                } else {
                    String caveat = caveat(b, n);
                    byMetric = deltas(target, scenario, b, n, caveat, confidence);
                    why = byMetric.isEmpty() ? "no figure in common" : String.join("; ", Stream.of(caveat,
                            leftOut(b, baseSide, "BASE"), leftOut(n, newSide, "NEW")).filter(s -> !s.isEmpty()).toList());
                }
            }
            targetScenarios.add(new TargetScenario(target, scenario, runs(baseSide), runs(newSide), !byMetric.isEmpty(), why));
            deltas.addAll(byMetric.values());
            for (FailOn.Threshold threshold : failOn.thresholds()) {
                Delta delta = byMetric.get(threshold.metric());
                if (delta != null) {
                    checks.add(check(key, threshold, delta));
                }
            }
        }
        List<RowChange> rowChanges = failOn.gates() ? RowChange.judged(baseRows, newRows, failOn) : List.of();
        return new Comparison(List.copyOf(targetScenarios), List.copyOf(deltas), List.copyOf(checks), rowChanges,
                List.copyOf(notCompared));
    }

    /** Each figure both sides have of one target × scenario, compared over forks. */
    private static Map<FailOn.Metric, Delta> deltas(String target, String scenario, List<JsonNode> b, List<JsonNode> n,
                                                    String caveat, double confidence) {
        Map<FailOn.Metric, Delta> byMetric = new EnumMap<>(FailOn.Metric.class);
        for (FailOn.Metric metric : FailOn.Metric.values()) {
            List<JsonNode> baseFigures = described(b, metric);
            List<JsonNode> newFigures = described(n, metric);
            double[] baseSamples = forkMeans(baseFigures, metric);
            double[] newSamples = forkMeans(newFigures, metric);
            if (baseSamples.length == 0 || newSamples.length == 0) {
                continue;
            }
            Contrast change = Contrast.of(newSamples, baseSamples, confidence);
            double baseValue = change.reference();
            double difference = change.difference();
            double percent = change.percent();
            boolean worse = metric.worseWhenHigher ? difference > 0 : difference < 0;
            boolean notable = difference != 0 && (Double.isNaN(percent) || Math.abs(percent) >= NOTABLE_PERCENT);
            byMetric.put(metric, new Delta(target, scenario, metric.label(), baseValue, baseValue + difference, percent,
                    worse && difference != 0, !worse && difference != 0, notable, Range.of(baseFigures, metric.field),
                    Range.of(newFigures, metric.field), change, caveat));
        }
        return byMetric;
    }

    private static ThresholdCheck check(String key, FailOn.Threshold threshold, Delta delta) {
        String line = key + ": " + threshold.metric().label() + " " + Numbers.figure(delta.base()) + " → "
                + Numbers.figure(delta.now()) + threshold.metric().unit + percentText(delta) + ", limit " + threshold
                + (delta.caveat().isEmpty() ? "" : " (" + delta.caveat() + ")");
        ThresholdCheck.Outcome outcome = threshold.holds(delta.base(), delta.now()) ? ThresholdCheck.Outcome.HOLDS
                : delta.withinNoise() ? ThresholdCheck.Outcome.WITHIN_NOISE : ThresholdCheck.Outcome.FAILED;
        return new ThresholdCheck(delta.target(), delta.scenario(), threshold.toString(), line, outcome);
    }

    /** {@code not-steady in 1 of 2 runs of BASE and 2 of 2 runs of NEW}, or empty when no run compared is not-steady. */
    private static String caveat(List<JsonNode> base, List<JsonNode> now) {
        List<String> sides = new ArrayList<>();
        for (var side : List.of(Map.entry("BASE", base), Map.entry("NEW", now))) {
            long unsteady = side.getValue().stream().filter(r -> RowChange.verdict(r).equals(Verdict.NOT_STEADY.label())).count();
            if (unsteady > 0) {
                sides.add(unsteady + " of " + runCount(side.getValue().size()) + " of " + side.getKey());
            }
        }
        return sides.isEmpty() ? "" : Verdict.NOT_STEADY.label() + " in " + String.join(" and ", sides);
    }

    /** {@code compared on 1 of 2 runs of NEW} when some of a side's runs were left out, else empty. */
    private static String leftOut(List<JsonNode> compared, List<JsonNode> all, String side) {
        return compared.size() == all.size() ? "" : "compared on " + compared.size() + " of " + runCount(all.size()) + " of " + side;
    }

    private static String runCount(int runs) {
        return runs + (runs == 1 ? " run" : " runs");
    }

    /** A side's runs of one target × scenario by verdict, such as {@code 2 ok, 1 failed (target died)}; {@code none}. */
    private static String runs(List<JsonNode> rows) {
        Map<String, Integer> byVerdict = new LinkedHashMap<>();
        Set<String> failedNotes = new LinkedHashSet<>();
        for (JsonNode row : rows) {
            boolean failed = RowChange.verdict(row).equals(ResultRow.NO_VERDICT);
            byVerdict.merge(failed ? "failed" : RowChange.verdict(row), 1, Integer::sum);
            if (failed && !row.path("note").asText("").isEmpty()) {
                failedNotes.add(row.path("note").asText());
            }
        }
        String counted = byVerdict.entrySet().stream().map(e -> e.getValue() + " " + e.getKey()).collect(Collectors.joining(", "));
        return rows.isEmpty() ? "none" : counted + (failedNotes.isEmpty() ? "" : " (" + String.join("; ", failedNotes) + ")");
    }

    /** A figure's samples on one side: each fork's mean over its repetitions; a row without a fork is fork 1. */
    private static double[] forkMeans(List<JsonNode> rows, FailOn.Metric metric) {
        return ForkMeans.of(rows, row -> row.path("fork").asInt(1), row -> row.path(metric.field).asDouble(Double.NaN));
    }

    /**
     * This comparison with no threshold judged, on hosts that differ ({@link HostDifference}): a figure's change is the
     * machine's as much as the target's, so none fails a threshold, and none is listed as within the noise either.
     */
    public Comparison withoutThresholds() {
        List<ThresholdCheck> notJudged = checks.stream().map(c -> new ThresholdCheck(c.target(), c.scenario(), c.threshold(),
                c.line(), ThresholdCheck.Outcome.NOT_JUDGED)).toList();
        return new Comparison(targetScenarios, deltas, notJudged, rowChanges, notCompared);
    }

    /** Whether NEW passes the gate: every threshold holds and no row change fails it. */
    public boolean passes() {
        return failures().isEmpty() && rowChanges.stream().noneMatch(RowChange::failsGate);
    }

    /** The lines of the thresholds broken beyond the noise: each fails the gate. */
    public List<String> failures() {
        return lines(ThresholdCheck.Outcome.FAILED);
    }

    /** The lines of the thresholds broken within the noise: listed, not failed. */
    public List<String> withinNoise() {
        return lines(ThresholdCheck.Outcome.WITHIN_NOISE);
    }

    private List<String> lines(ThresholdCheck.Outcome outcome) {
        return checks.stream().filter(c -> c.outcome() == outcome).map(ThresholdCheck::line).toList();
    }

    /** The notable changes, largest first. */
    public List<Delta> notable() {
        return deltas.stream().filter(Delta::notable)
                .sorted(Comparator.comparingDouble((Delta d) -> Double.isNaN(d.percent()) ? Double.MAX_VALUE : Math.abs(d.percent())).reversed())
                .toList();
    }

    private static Map<String, List<JsonNode>> byTargetAndScenario(JsonNode rows) {
        Map<String, List<JsonNode>> groups = new LinkedHashMap<>();
        for (JsonNode row : rows) {
            groups.computeIfAbsent(row.path("target").asText() + " · " + row.path("scenario").asText(), k -> new ArrayList<>()).add(row);
        }
        return groups;
    }

    private static List<JsonNode> comparable(List<JsonNode> rows, String side, List<NotCompared> notCompared) {
        List<JsonNode> kept = new ArrayList<>();
        for (JsonNode row : rows) {
            String verdict = RowChange.verdict(row);
            if (COMPARABLE.contains(verdict)) {
                kept.add(row);
            } else {
                notCompared.add(new NotCompared(RowChange.rowName(row) + " in " + side,
                        ResultRow.NO_VERDICT.equals(verdict) ? "no figures" : verdict, row.path("note").asText("")));
            }
        }
        return kept;
    }

    private static List<JsonNode> described(List<JsonNode> rows, FailOn.Metric metric) {
        return rows.stream().filter(metric::describes).toList();
    }

    /** {@code " (+16.7 %)"}, with the change's interval when it has one: {@code " (+16.7 %, 95 % CI +3.1–+30.2 %)"}. */
    private static String percentText(Delta delta) {
        if (Double.isNaN(delta.percent())) {
            return "";
        }
        Contrast change = delta.change();
        String interval = change.bounded() ? String.format(Locale.ROOT, ", %s CI %+.1f–%+.1f %%",
                Estimate.level(change.confidence()), change.percentLow(), change.percentHigh()) : ", no interval: one fork a side";
        return String.format(Locale.ROOT, " (%+.1f %%%s)", delta.percent(), interval);
    }
}
