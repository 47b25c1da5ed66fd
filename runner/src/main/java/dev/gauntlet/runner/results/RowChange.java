package dev.gauntlet.runner.results;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.JsonNode;
import dev.gauntlet.api.Verdict;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A row (target × scenario × fork × repetition) that NEW lost or changed, as the gate of {@code compare --fail-on}
 * judges it: it fails the gate whatever the figures, unless {@code allowedBy} names the flag that lets it through.
 *
 * <pre>
 * List&lt;RowChange&gt; changes = RowChange.judged(baseRows, newRows, FailOn.parse("p99=+10%"));
 * changes.getFirst().toString(); // "a · s #2: missing from NEW"
 * RowChange.lost(baseRows, newRows); // the failed and missing rows alone, each failing: what compare lists without a gate
 * </pre>
 *
 * @param run       the row within its target × scenario, {@code #2}, or {@code f3 #2} in fork 3
 * @param change    {@code failed in NEW: NOTE}, {@code missing from NEW} or {@code verdict ok → VERDICT (NOTE)}
 * @param allowedBy the flag that lets the change through ({@code --allow-missing}, {@code --allow-verdict V}), else empty
 */
public record RowChange(String target, String scenario, String run, Kind kind, String change, String allowedBy) {
    /** What became of the row. */
    public enum Kind {
        /** NEW's run of it failed (verdict {@code -}): no figures, and nothing lets it through. */
        FAILED,
        /** BASE has it and NEW does not. */
        MISSING,
        /** BASE judged it ok and NEW judged it otherwise. */
        TURNED
    }

    public boolean failsGate() {
        return allowedBy.isEmpty();
    }

    /** The row as the summary names it: {@code a · s #2}. */
    @JsonProperty
    public String row() {
        return target + " · " + scenario + " " + run;
    }

    @Override
    public String toString() {
        return row() + ": " + change + (failsGate() ? "" : " (allowed by " + allowedBy + ")");
    }

    /**
     * BASE's rows one by one against NEW's: each missing from NEW or turned from ok, then every row of NEW that failed
     * (one new in NEW too: a run that failed is never a pass), each allowed as {@code failOn}'s relaxations say.
     */
    public static List<RowChange> judged(JsonNode baseRows, JsonNode newRows, FailOn failOn) {
        Map<String, JsonNode> base = byRow(baseRows);
        Map<String, JsonNode> now = byRow(newRows);
        List<RowChange> changes = new ArrayList<>();
        base.forEach((name, before) -> {
            JsonNode after = now.get(name);
            if (after == null) {
                changes.add(of(before, Kind.MISSING, "missing from NEW", failOn.allowMissing() ? "--allow-missing" : ""));
                return;
            }
            String verdict = verdict(after);
            boolean turned = !verdict.equals(Verdict.OK.label()) && !verdict.equals(ResultRow.NO_VERDICT);
            if (turned && verdict(before).equals(Verdict.OK.label())) {
                changes.add(of(after, Kind.TURNED, "verdict ok → " + verdict + noted(after, " (", ")"),
                        failOn.allowedVerdicts().contains(verdict) ? "--allow-verdict " + verdict : ""));
            }
        });
        now.values().stream().filter(after -> verdict(after).equals(ResultRow.NO_VERDICT))
                .forEach(after -> changes.add(of(after, Kind.FAILED, "failed in NEW" + noted(after, ": ", ""), "")));
        return List.copyOf(changes);
    }

    /**
     * The rows NEW lost, failed or missing, each failing, as if under a gate without relaxations: without
     * {@code --fail-on} nothing is judged, yet a run that failed or went missing is no pass either.
     */
    public static List<RowChange> lost(JsonNode baseRows, JsonNode newRows) {
        return judged(baseRows, newRows, FailOn.none()).stream().filter(c -> c.kind != Kind.TURNED).toList();
    }

    /** A row as the summary names it: {@code a · s #2}, {@code a · s f3 #2} in fork 3. */
    static String rowName(JsonNode row) {
        return row.path("target").asText() + " · " + row.path("scenario").asText() + " " + runName(row);
    }

    static String verdict(JsonNode row) {
        return row.path("verdict").asText(ResultRow.NO_VERDICT);
    }

    private static RowChange of(JsonNode row, Kind kind, String change, String allowedBy) {
        return new RowChange(row.path("target").asText(), row.path("scenario").asText(), runName(row), kind, change, allowedBy);
    }

    private static String runName(JsonNode row) {
        int fork = row.path("fork").asInt(1);
        return (fork > 1 ? "f" + fork + " " : "") + "#" + row.path("repetition").asText();
    }

    private static Map<String, JsonNode> byRow(JsonNode rows) {
        Map<String, JsonNode> byRow = new LinkedHashMap<>();
        rows.forEach(row -> byRow.put(rowName(row), row));
        return byRow;
    }

    private static String noted(JsonNode row, String before, String after) {
        String note = row.path("note").asText("");
        return note.isEmpty() ? "" : before + note + after;
    }
}
