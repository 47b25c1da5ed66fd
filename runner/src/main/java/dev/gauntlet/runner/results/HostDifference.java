package dev.gauntlet.runner.results;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.gauntlet.api.CapacityLevel;
import dev.gauntlet.api.Json;
import dev.gauntlet.api.Numbers;
import dev.gauntlet.runner.statistics.Contrast;
import dev.gauntlet.runner.statistics.Estimate;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Whether BASE and NEW ran on machines of different capacity: each role's capacity as the calibration measured it
 * before each suite ({@code suite.json}'s {@code platform}, {@link CapacityLevel}), NEW's seconds against BASE's.
 * Figures measured on a host that could run a quarter less are not the targets' to answer for, so {@code compare}
 * says so first and judges no threshold.
 *
 * <pre>{@code
 * HostDifference hosts = HostDifference.of(base.path("platform"), now.path("platform"), 0.95);
 * hosts.differ();   // true
 * hosts.line();     // hosts differ: the target CPUs' capacity 1,890 → 1,410 (-25 %, 95 % CI -27 to -23 %) beyond its noise; ...
 * }</pre>
 *
 * <p>A role's capacity differs when Welch's test on the two sides' per-second indexes ({@link Contrast}) resolves the
 * change at the comparison's level and the change is {@value #PRACTICAL_PERCENT} % or more of BASE. The test alone is
 * not enough: consecutive seconds of one machine are not independent (a neighbour busy for a minute lowers a run of
 * them), so the test's interval is narrower than the truth and would call a 1 % drift between two quiet runs a
 * different host.
 *
 * @param changes    the roles whose capacity differs, each NEW against BASE
 * @param unrecorded the sides ({@code BASE}, {@code NEW}) whose suite.json has no capacity to compare (written before
 *                   it was measured, not calibrated, a calibration of 1 s, or a cluster's); then nothing is compared
 */
public record HostDifference(List<Change> changes, List<String> unrecorded) {
    /** A change of capacity smaller than this, in percent of BASE, is never a different host. */
    public static final double PRACTICAL_PERCENT = 5;

    /** One role's capacity, NEW against BASE: {@code role} is {@code target} or {@code generator}. */
    public record Change(String role, Contrast contrast) {
        /** {@code the target CPUs' capacity 1,890 → 1,410 (-25 %, 95 % CI -27 to -23 %)}. */
        /** Beyond its noise at the test's level, and by {@link #PRACTICAL_PERCENT} at least. */
        boolean differs() {
            return contrast.resolved() && Math.abs(contrast.percent()) >= PRACTICAL_PERCENT;
        }

        String describe() {
            return String.format(Locale.ROOT, "the %s CPUs' capacity %,.0f → %,.0f (%+.0f %%, %s CI %+.0f to %+.0f %%)", role,
                    contrast.reference(), contrast.reference() + contrast.difference(), contrast.percent(),
                    Estimate.level(contrast.confidence()), contrast.percentLow(), contrast.percentHigh());
        }
    }

    /**
     * @param basePlatform BASE's suite.json {@code platform}: a calibration's figures, why there are none, or missing
     * @param confidence   the level of the test, {@code compare}'s {@code --confidence}
     */
    public static HostDifference of(JsonNode basePlatform, JsonNode newPlatform, double confidence) {
        List<String> unrecorded = new ArrayList<>();
        List<Change> changes = new ArrayList<>();
        List<String> roles = List.of("target", "generator");
        List<CapacityLevel> base = roles.stream().map(role -> capacity(basePlatform, role)).toList();
        List<CapacityLevel> now = roles.stream().map(role -> capacity(newPlatform, role)).toList();
        if (base.contains(null)) {
            unrecorded.add("BASE");
        }
        if (now.contains(null)) {
            unrecorded.add("NEW");
        }
        if (!unrecorded.isEmpty()) {
            return new HostDifference(List.of(), List.copyOf(unrecorded));
        }
        for (int i = 0; i < roles.size(); i++) {
            changes.add(new Change(roles.get(i), Contrast.of(indexes(now.get(i)), indexes(base.get(i)), confidence)));
        }
        return new HostDifference(List.copyOf(changes), List.of());
    }

    /** Whether a role's capacity differs between the hosts beyond its noise: no change of figures is the targets'. */
    public boolean differ() {
        return changes.stream().anyMatch(Change::differs);
    }

    /**
     * What {@code compare} says first: that the hosts differ and how, that they cannot be compared, or that they
     * are alike (each role's capacity, so a reader sees what was tested).
     */
    public Optional<String> line() {
        if (!unrecorded.isEmpty()) {
            return Optional.of("capacity not recorded in " + String.join(" and ", unrecorded) + ": the hosts cannot be compared");
        }
        if (!differ()) {
            return Optional.of("hosts alike: " + changes.stream().map(Change::describe).collect(Collectors.joining(" and "))
                    + ", within the noise or under " + Numbers.figure(PRACTICAL_PERCENT) + " %");
        }
        List<Change> differing = changes.stream().filter(Change::differs).toList();
        return Optional.of("hosts differ: " + differing.stream().map(Change::describe).collect(Collectors.joining(" and "))
                + (differing.size() == 1 ? " beyond its noise" : " beyond their noise")
                + "; the changes below are the machine's as much as the targets', none is called a regression");
    }

    /** A role's capacity in a suite.json {@code platform}; null when there is none, or too few seconds to test. */
    private static CapacityLevel capacity(JsonNode platform, String role) {
        JsonNode node = platform.path(role + "Capacity");
        if (!node.isObject()) {
            return null;
        }
        try {
            CapacityLevel level = Json.json().treeToValue(node, CapacityLevel.class);
            // Welch's test needs two seconds a side.
            return level.indexes().size() < 2 ? null : level;
        } catch (JsonProcessingException e) {
            // A capacity of another shape (another version's) is not one these figures can be tested against.
            return null;
        }
    }

    private static double[] indexes(CapacityLevel level) {
        return level.indexes().stream().mapToDouble(Double::doubleValue).toArray();
    }
}
