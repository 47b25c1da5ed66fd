package dev.gauntlet.runner.results;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gauntlet.api.CapacityLevel;
import dev.gauntlet.api.Json;

import java.util.Arrays;
import java.util.Map;

/**
 * Calibrations' capacities whose comparison is worked by hand ({@link HostDifferenceTest}): a quiet host's seconds, and
 * the same scaled, as {@code suite.json}'s {@code platform} holds them.
 *
 * <pre>{@code
 * JsonNode slower = Capacities.platform(Capacities.times(Capacities.QUIET, 0.75), Capacities.QUIET);
 * }</pre>
 */
public final class Capacities {
    /** Mean 1,880; deviations ±20, ±10, 0, 0, ±30, ±5: a sample variance of 2,850 / 9. */
    public static final double[] QUIET = {1860, 1900, 1870, 1890, 1880, 1880, 1850, 1910, 1875, 1885};

    private Capacities() {
    }

    /** A calibration's {@code platform} with only the two capacities. */
    public static JsonNode platform(double[] target, double[] generator) {
        return Json.json().valueToTree(Map.of("targetCapacity", level(target), "generatorCapacity", level(generator)));
    }

    /** The level of these seconds, as the runner records it: their mean and sample standard deviation. */
    public static CapacityLevel level(double[] indexes) {
        double mean = Arrays.stream(indexes).average().orElseThrow();
        double squares = Arrays.stream(indexes).map(i -> (i - mean) * (i - mean)).sum();
        return new CapacityLevel(Arrays.stream(indexes).boxed().toList(), mean,
                indexes.length < 2 ? 0 : Math.sqrt(squares / (indexes.length - 1)), indexes.length, 526, 0, 0.01);
    }

    public static double[] times(double[] indexes, double factor) {
        return Arrays.stream(indexes).map(i -> i * factor).toArray();
    }
}
