package dev.gauntlet.runner.results;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gauntlet.api.Numbers;
import dev.gauntlet.api.Verdict;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * BASE's {@code results.json} rows against NEW's, per target × scenario: each figure's median over the
 * repetitions on both sides, its change, and the thresholds that fail:
 *
 * <pre>
 * Comparison c = Comparison.of(baseRows, newRows, FailOn.parse("p99=+10%"));
 * c.deltas();      // every target × scenario × metric, both medians and the change
 * c.failures();    // one line per threshold broken, naming the row and the figures
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
 * <p>A row left out of the figures must not let a gate pass unseen, so with thresholds the rows are also matched one
 * by one (target × scenario × repetition) and every change the gate judges is a {@link RowChange}.
 */
public record Comparison(List<Delta> deltas, List<String> failures, List<RowChange> rowChanges, List<NotCompared> notCompared) {
    /** A change at least this large (in percent of BASE) is listed first as notable. */
    public static final double NOTABLE_PERCENT = 10;
    private static final Set<String> COMPARABLE = Set.of(Verdict.OK.label(), Verdict.PLATFORM_NOISY.label(),
            Verdict.CLIENT_LIMITED.label());

    /**
     * One figure of one target × scenario on both sides; {@code percent} is NaN when BASE is 0.
     *
     * @param base        BASE's median over its repetitions ({@code now} NEW's)
     * @param baseRange   the lowest and highest of BASE's repetitions ({@code nowRange} NEW's): one value with one
     * @param withinNoise the two ranges overlap while one side has repetitions: the change is within what repeating
     *                    the run moved it by, whatever its size
     */
    public record Delta(String target, String scenario, String metric, double base, double now, double percent,
                 boolean worse, boolean better, boolean notable, Range baseRange, Range nowRange, boolean withinNoise) {
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
        Map<String, List<JsonNode>> base = byTargetAndScenario(baseRows);
        Map<String, List<JsonNode>> now = byTargetAndScenario(newRows);
        List<Delta> deltas = new ArrayList<>();
        List<String> failures = new ArrayList<>();
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
            for (FailOn.Metric metric : FailOn.Metric.values()) {
                List<JsonNode> baseFigures = described(b, metric);
                List<JsonNode> newFigures = described(n, metric);
                if (baseFigures.isEmpty() || newFigures.isEmpty()) {
                    continue;
                }
                double baseValue = median(baseFigures, metric.field);
                double newValue = median(newFigures, metric.field);
                double percent = baseValue == 0 ? Double.NaN : 100 * (newValue - baseValue) / baseValue;
                double change = newValue - baseValue;
                boolean worse = metric.worseWhenHigher ? change > 0 : change < 0;
                boolean notable = change != 0 && (Double.isNaN(percent) || Math.abs(percent) >= NOTABLE_PERCENT);
                Range baseRange = Range.of(baseFigures, metric.field);
                Range nowRange = Range.of(newFigures, metric.field);
                boolean repeated = baseRange.repetitions() > 1 || nowRange.repetitions() > 1;
                deltas.add(new Delta(first.path("target").asText(), first.path("scenario").asText(), metric.label(),
                        baseValue, newValue, percent, worse && change != 0, !worse && change != 0, notable,
                        baseRange, nowRange, repeated && baseRange.overlaps(nowRange)));
            }
            for (FailOn.Threshold threshold : failOn.thresholds()) {
                List<JsonNode> baseFigures = described(b, threshold.metric());
                List<JsonNode> newFigures = described(n, threshold.metric());
                if (baseFigures.isEmpty() || newFigures.isEmpty()) {
                    continue;
                }
                double baseValue = median(baseFigures, threshold.metric().field);
                double newValue = median(newFigures, threshold.metric().field);
                if (!threshold.holds(baseValue, newValue)) {
                    failures.add(entry.getKey() + ": " + threshold.metric().label() + " " + Numbers.figure(baseValue) + " → "
                            + Numbers.figure(newValue) + threshold.metric().unit + percentText(baseValue, newValue) + ", limit " + threshold);
                }
            }
        }
        now.keySet().stream().filter(k -> !base.containsKey(k)).forEach(k -> notCompared.add(new NotCompared(k, "only in NEW", "")));
        List<RowChange> rowChanges = failOn.gates() ? rowChanges(baseRows, newRows, failOn) : List.of();
        return new Comparison(List.copyOf(deltas), List.copyOf(failures), rowChanges, List.copyOf(notCompared));
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

    /** A row as the summary names it: {@code a · s #2}. */
    private static String rowName(JsonNode row) {
        return row.path("target").asText() + " · " + row.path("scenario").asText() + " #" + row.path("repetition").asText();
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

    private static double median(List<JsonNode> rows, String field) {
        return Repetitions.median(rows.stream().mapToDouble(r -> r.path(field).asDouble(Double.NaN)).filter(v -> !Double.isNaN(v)).toArray());
    }

    private static String percentText(double base, double now) {
        return base == 0 ? "" : String.format(Locale.ROOT, " (%+.1f %%)", 100 * (now - base) / base);
    }
}
