package dev.gauntlet.runner.results;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gauntlet.api.LoadModel;
import dev.gauntlet.api.Numbers;
import dev.gauntlet.api.Verdict;
import dev.gauntlet.runner.base.UserError;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The gate of {@code ./gauntlet compare --fail-on}: the thresholds, how far each figure may move from BASE to NEW in
 * its worse direction before the comparison fails, and which changes of rows the gate lets through:
 *
 * <pre>
 * FailOn failOn = FailOn.parse("p99=+10%,errors=+0,rate=-5%");
 * failOn.thresholds().getFirst().holds(20.0, 23.0); // false: p99 grew by 15 %
 * failOn.allowing(true, List.of("platform-noisy")); // rows missing from NEW, and ok turned platform-noisy, pass
 * </pre>
 *
 * Latencies ({@code p50 p99 p999 max}, ms) and {@code errors} are worse when they grow, so their limit carries a
 * {@code +}; {@code rate} (achieved requests/s) and {@code held} (requests the target held at once, max concurrency's
 * figure) are worse when they fall, so their limit carries a {@code -}. A limit ending in {@code %} is relative to
 * BASE, else absolute in the figure's unit. A figure is judged only on the runs that have it ({@link Metric#describes}).
 * {@code change} gates on the trend of {@code compare BASE... NEW}: it fails when a figure's history ends in a change for
 * the worse at NEW, beyond the noise of the runs before it ({@code Trends#worseAtNew}).
 *
 * <p>The gate fails closed: a row of NEW that failed, a row of BASE missing from NEW and a row whose verdict turned
 * from {@code ok} fail it too ({@link RowChange}), unless {@code allowMissing} or {@code allowedVerdicts}
 * let the last two through. Nothing lets a failed row through: its figures are not there to judge.
 *
 * @param onChange        the gate fails on a change for the worse at NEW ({@code change})
 * @param allowMissing    rows of BASE that NEW lacks do not fail the gate
 * @param allowedVerdicts the verdicts (labels) a row of NEW may turn to from {@code ok} without failing the gate
 */
public record FailOn(List<Threshold> thresholds, boolean onChange, boolean allowMissing, Set<String> allowedVerdicts) {
    /** The word of {@code --fail-on} that gates on a trend's last change. */
    public static final String CHANGE = "change";
    private static final Pattern ONE = Pattern.compile("([a-z0-9]+)=([+-])(\\d+(?:\\.\\d+)?)(%?)");

    /** A figure the thresholds and the comparison know: its results.json field and its worse direction. */
    enum Metric {
        P50("p50Ms", " ms", true), P99("p99Ms", " ms", true), P999("p999Ms", " ms", true), MAX("maxMs", " ms", true),
        ERRORS("errors", "", true), RATE("achievedRatePerSec", "/s", false), HELD("serverMaxInFlight", " held", false);

        final String field;
        final String unit;
        final boolean worseWhenHigher;

        Metric(String field, String unit, boolean worseWhenHigher) {
            this.field = field;
            this.unit = unit;
            this.worseWhenHigher = worseWhenHigher;
        }

        String label() {
            return name().toLowerCase(Locale.ROOT);
        }

        /**
         * Whether a results.json row has this figure: a max-concurrency run answers nothing while measured, so it has
         * no times and no rate and is judged by the requests the target held; any other run has no held figure worth
         * judging (whatever its target happened to hold). Every run counts its errors.
         */
        boolean describes(JsonNode row) {
            boolean held = LoadModel.describesHeldLoad(row.path("load").asText());
            return this == ERRORS || (this == HELD) == held;
        }
    }

    /** @param limit the most the figure may move in its worse direction: signed, in percent or the figure's unit */
    record Threshold(Metric metric, double limit, boolean percent) {
        boolean holds(double base, double now) {
            double change = now - base;
            if (percent) {
                if (base == 0) {
                    return change == 0 || (metric.worseWhenHigher ? change < 0 : change > 0);
                }
                change = 100 * change / base;
            }
            return metric.worseWhenHigher ? change <= limit : change >= limit;
        }

        @Override
        public String toString() {
            return metric.label() + "=" + (limit >= 0 ? "+" : "") + Numbers.figure(limit) + (percent ? "%" : "");
        }
    }

    /** No gate: {@code compare} without {@code --fail-on} exits 0 whatever changed. */
    public static FailOn none() {
        return new FailOn(List.of(), false, false, Set.of());
    }

    /** Whether there is a gate to fail. */
    public boolean gates() {
        return !thresholds.isEmpty() || onChange;
    }

    /** These thresholds, letting through rows missing from NEW if {@code missing}, and rows turned to {@code verdicts}. */
    public FailOn allowing(boolean missing, List<String> verdicts) {
        if (!gates() && (missing || !verdicts.isEmpty())) {
            throw new UserError((missing ? "--allow-missing" : "--allow-verdict") + " relaxes the gate of --fail-on: "
                    + "give the thresholds too, such as --fail-on p99=+10% or --fail-on change");
        }
        Set<String> allowed = new HashSet<>();
        List<String> turnable = Arrays.stream(Verdict.values()).filter(v -> v != Verdict.OK).map(Verdict::label).toList();
        for (String verdict : verdicts) {
            String label = verdict.strip().toLowerCase(Locale.ROOT);
            if (!turnable.contains(label)) {
                throw new UserError("--allow-verdict: no verdict '" + verdict.strip() + "'; use " + String.join(", ", turnable)
                        + " (a row that failed always fails the gate)");
            }
            allowed.add(label);
        }
        return new FailOn(thresholds, onChange, missing, Set.copyOf(allowed));
    }

    public static FailOn parse(String text) {
        List<Threshold> thresholds = new ArrayList<>();
        boolean onChange = false;
        for (String part : text.split(",")) {
            String word = part.strip().toLowerCase(Locale.ROOT);
            if (word.equals(CHANGE)) {
                onChange = true;
                continue;
            }
            Matcher m = ONE.matcher(word);
            if (!m.matches()) {
                throw new UserError("--fail-on: cannot read '" + part.strip() + "'; write METRIC=+N% or METRIC=+N, "
                        + "such as p99=+10%,errors=+0,rate=-5% (metrics: p50 p99 p999 max errors rate held), or change");
            }
            Metric metric = metric(m.group(1));
            boolean plus = m.group(2).equals("+");
            if (plus != metric.worseWhenHigher) {
                throw new UserError("--fail-on: " + metric.label() + " is worse when it " + (metric.worseWhenHigher ? "grows" : "falls")
                        + ", so its limit takes a '" + (metric.worseWhenHigher ? "+" : "-") + "', such as "
                        + metric.label() + (metric.worseWhenHigher ? "=+10%" : "=-5%"));
            }
            double limit = Double.parseDouble(m.group(3));
            thresholds.add(new Threshold(metric, plus ? limit : -limit, !m.group(4).isEmpty()));
        }
        return new FailOn(List.copyOf(thresholds), onChange, false, Set.of());
    }

    private static Metric metric(String name) {
        for (Metric metric : Metric.values()) {
            if (metric.label().equals(name)) {
                return metric;
            }
        }
        throw new UserError("--fail-on: no metric '" + name + "'; use p50, p99, p999, max, errors, rate or held");
    }

    @Override
    public String toString() {
        List<String> parts = new ArrayList<>(thresholds.stream().map(Threshold::toString).toList());
        if (onChange) {
            parts.add(CHANGE);
        }
        return String.join(",", parts);
    }
}
