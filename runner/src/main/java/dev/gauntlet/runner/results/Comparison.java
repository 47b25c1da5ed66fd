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
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * BASE's {@code results.json} rows against NEW's, per target × scenario: each figure's mean over the
 * forks on both sides (a fork's repetitions averaged first, {@link ForkMeans}), its change with a confidence
 * interval ({@link Contrast}: Welch's, NEW against BASE), and the thresholds that fail:
 *
 * <pre>
 * Comparison c = Comparison.of(baseRows, newRows, FailOn.parse("p99=+10%"), 0.95);
 * c.deltas();      // every target × scenario × metric, both means and the change with its interval
 * c.failures();    // one line per threshold broken beyond the noise, naming the row and the figures
 * c.withinNoise(); // thresholds broken by a change whose interval spans 0: listed, not failed
 * c.rowChanges();  // with a gate: rows that failed in NEW, went missing from it or turned from ok
 * c.notCompared(); // rows whose verdict says their figures are not the target's, or that failed
 * </pre>
 *
 * Only rows judged {@code ok}, {@code platform-noisy} or {@code client-limited} are compared: the figures of a
 * target-overloaded or generator-limited run describe a different situation, so they are listed instead, never
 * silently compared. A client-limited run's figures are the client library's, its engine having been the
 * bottleneck: in a study of clients (the {@code client} suite) that is the figure under study, so two such runs
 * compare one library's limit before and after.
 *
 * <p>A threshold fails when the change is beyond it and beyond the noise: its interval excludes no change. A change
 * within the noise is listed in {@link #withinNoise()} and passes, however large: starting the JVMs afresh moved the
 * figure as much. Without two forks a side there is no interval and the change alone is judged, as before forks.
 *
 * <p>A row left out of the figures must not let a gate pass unseen, so with thresholds the rows are also matched one
 * by one (target × scenario × fork × repetition) and every change the gate judges is a {@link RowChange}.
 */
public record Comparison(List<Delta> deltas, List<String> failures, List<String> withinNoise, List<RowChange> rowChanges,
                         List<NotCompared> notCompared) {
    /** A change at least this large (in percent of BASE) is listed first as notable. */
    public static final double NOTABLE_PERCENT = 10;
    private static final Set<String> COMPARABLE = Set.of(Verdict.OK.label(), Verdict.PLATFORM_NOISY.label(),
            Verdict.CLIENT_LIMITED.label());

    /**
     * One figure of one target × scenario on both sides; {@code percent} is NaN when BASE is 0.
     *
     * @param base      BASE's mean over its forks, each fork the mean of its repetitions ({@code now} NEW's)
     * @param baseRange the lowest and highest of BASE's runs ({@code nowRange} NEW's): one value with one
     * @param change    NEW against BASE over forks ({@link Contrast}): the change's interval, whether it is resolved,
     *                  and the smallest change these forks would have resolved
     */
    public record Delta(String target, String scenario, String metric, double base, double now, double percent,
                 boolean worse, boolean better, boolean notable, Range baseRange, Range nowRange, Contrast change) {
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

    /** The lowest and highest of a figure over a side's repetitions, and how many there were. */
    public record Range(double low, double high, int repetitions) {
        static Range of(List<JsonNode> rows, String field) {
            double[] values = rows.stream().mapToDouble(r -> r.path(field).asDouble(Double.NaN)).filter(v -> !Double.isNaN(v)).toArray();
            return new Range(Arrays.stream(values).min().orElse(Double.NaN), Arrays.stream(values).max().orElse(Double.NaN), values.length);
        }

        boolean overlaps(Range other) {
            return low <= other.high && other.low <= high;
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

    /**
     * A row that fails the gate whatever its figures, unless {@code allowedBy} names the flag that lets it through:
     * {@code change} is {@code failed in NEW: NOTE}, {@code missing from NEW} or {@code verdict ok → VERDICT (NOTE)}.
     *
     * @param row the row, such as {@code a · s #2}
     */
    public record RowChange(String row, String change, String allowedBy) {
        public boolean failsGate() {
            return allowedBy.isEmpty();
        }

        @Override
        public String toString() {
            return row + ": " + change + (failsGate() ? "" : " (allowed by " + allowedBy + ")");
        }
    }

    public static Comparison of(JsonNode baseRows, JsonNode newRows, FailOn failOn) {
        return of(baseRows, newRows, failOn, Estimate.DEFAULT_CONFIDENCE);
    }

    /** @param confidence the level of each change's interval, such as 0.95 */
    public static Comparison of(JsonNode baseRows, JsonNode newRows, FailOn failOn, double confidence) {
        Map<String, List<JsonNode>> base = byTargetAndScenario(baseRows);
        Map<String, List<JsonNode>> now = byTargetAndScenario(newRows);
        List<Delta> deltas = new ArrayList<>();
        List<String> failures = new ArrayList<>();
        List<String> withinNoise = new ArrayList<>();
        List<NotCompared> notCompared = new ArrayList<>();
        for (var entry : base.entrySet()) {
            List<JsonNode> newSide = now.get(entry.getKey());
            if (newSide == null) {
                notCompared.add(new NotCompared(entry.getKey(), "only in BASE", ""));
                continue;
            }
            List<JsonNode> b = comparable(entry.getValue(), "BASE", notCompared);
            List<JsonNode> n = comparable(newSide, "NEW", notCompared);
            if (b.isEmpty() || n.isEmpty()) {
                continue;
            }
            JsonNode first = b.getFirst();
            Map<FailOn.Metric, Delta> byMetric = new EnumMap<>(FailOn.Metric.class);
            for (FailOn.Metric metric : FailOn.Metric.values()) {
                List<JsonNode> baseFigures = described(b, metric);
                List<JsonNode> newFigures = described(n, metric);
                if (baseFigures.isEmpty() || newFigures.isEmpty()) {
                    continue;
                }
                double[] baseSamples = forkMeans(baseFigures, metric);
                double[] newSamples = forkMeans(newFigures, metric);
                if (baseSamples.length == 0 || newSamples.length == 0) {
                    continue;
                }
                Contrast change = Contrast.of(newSamples, baseSamples, confidence);
                double baseValue = change.reference();
                double newValue = baseValue + change.difference();
                double percent = change.percent();
                double difference = change.difference();
                boolean worse = metric.worseWhenHigher ? difference > 0 : difference < 0;
                boolean notable = difference != 0 && (Double.isNaN(percent) || Math.abs(percent) >= NOTABLE_PERCENT);
                Delta delta = new Delta(first.path("target").asText(), first.path("scenario").asText(), metric.label(),
                        baseValue, newValue, percent, worse && difference != 0, !worse && difference != 0, notable,
                        Range.of(baseFigures, metric.field), Range.of(newFigures, metric.field), change);
                deltas.add(delta);
                byMetric.put(metric, delta);
            }
            for (FailOn.Threshold threshold : failOn.thresholds()) {
                Delta delta = byMetric.get(threshold.metric());
                if (delta == null || threshold.holds(delta.base(), delta.now())) {
                    continue;
                }
                String line = entry.getKey() + ": " + threshold.metric().label() + " " + Numbers.figure(delta.base()) + " → "
                        + Numbers.figure(delta.now()) + threshold.metric().unit + percentText(delta) + ", limit " + threshold;
                if (delta.withinNoise()) {
                    withinNoise.add(line);
                } else {
                    failures.add(line);
                }
            }
        }
        now.keySet().stream().filter(k -> !base.containsKey(k)).forEach(k -> notCompared.add(new NotCompared(k, "only in NEW", "")));
        List<RowChange> rowChanges = failOn.gates() ? rowChanges(baseRows, newRows, failOn) : List.of();
        return new Comparison(List.copyOf(deltas), List.copyOf(failures), List.copyOf(withinNoise), rowChanges,
                List.copyOf(notCompared));
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
        return new Comparison(deltas, List.of(), List.of(), rowChanges, notCompared);
    }

    /** Whether NEW passes the gate: every threshold holds and no row change fails it. */
    public boolean passes() {
        return failures.isEmpty() && rowChanges.stream().noneMatch(RowChange::failsGate);
    }

    /**
     * BASE's rows one by one against NEW's: each missing from NEW or turned from ok, then every row of NEW that failed
     * (one new in NEW too: a run that failed is never a pass).
     */
    private static List<RowChange> rowChanges(JsonNode baseRows, JsonNode newRows, FailOn failOn) {
        Map<String, JsonNode> base = byRow(baseRows);
        Map<String, JsonNode> now = byRow(newRows);
        List<RowChange> changes = new ArrayList<>();
        base.forEach((row, before) -> {
            JsonNode after = now.get(row);
            if (after == null) {
                changes.add(new RowChange(row, "missing from NEW", failOn.allowMissing() ? "--allow-missing" : ""));
                return;
            }
            String verdict = verdict(after);
            boolean turned = !verdict.equals(Verdict.OK.label()) && !verdict.equals(ResultRow.NO_VERDICT);
            if (turned && verdict(before).equals(Verdict.OK.label())) {
                changes.add(new RowChange(row, "verdict ok → " + verdict + noted(after, " (", ")"),
                        failOn.allowedVerdicts().contains(verdict) ? "--allow-verdict " + verdict : ""));
            }
        });
        now.forEach((row, after) -> {
            if (verdict(after).equals(ResultRow.NO_VERDICT)) {
                changes.add(new RowChange(row, "failed in NEW" + noted(after, ": ", ""), ""));
            }
        });
        return List.copyOf(changes);
    }

    private static Map<String, JsonNode> byRow(JsonNode rows) {
        Map<String, JsonNode> byRow = new LinkedHashMap<>();
        rows.forEach(row -> byRow.put(rowName(row), row));
        return byRow;
    }

    /** A row as the summary names it: {@code a · s #2}, {@code a · s f3 #2} in fork 3. */
    private static String rowName(JsonNode row) {
        int fork = row.path("fork").asInt(1);
        return row.path("target").asText() + " · " + row.path("scenario").asText() + (fork > 1 ? " f" + fork : "")
                + " #" + row.path("repetition").asText();
    }

    private static String verdict(JsonNode row) {
        return row.path("verdict").asText(ResultRow.NO_VERDICT);
    }

    private static String noted(JsonNode row, String before, String after) {
        String note = row.path("note").asText("");
        return note.isEmpty() ? "" : before + note + after;
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
            String verdict = verdict(row);
            if (COMPARABLE.contains(verdict)) {
                kept.add(row);
            } else {
                notCompared.add(new NotCompared(rowName(row) + " in " + side, ResultRow.NO_VERDICT.equals(verdict) ? "no figures" : verdict,
                        row.path("note").asText("")));
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
