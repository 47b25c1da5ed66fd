package dev.gauntlet.runner.results;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gauntlet.runner.statistics.Contrast;

import java.util.Arrays;
import java.util.Locale;

/**
 * A figure of a {@code results.json} row that targets are contrasted by ({@code ./gauntlet contrast}): where the row
 * keeps it, its unit and which way it is better. The JVM figures are the measured phase's, from each side's recording.
 */
public enum RowFigure {
    MEAN("/meanMs", "ms", Contrast.Direction.LOWER_IS_BETTER, "quicker", "slower", true),
    P50("/p50Ms", "ms", Contrast.Direction.LOWER_IS_BETTER, "quicker", "slower", true),
    P99("/p99Ms", "ms", Contrast.Direction.LOWER_IS_BETTER, "quicker", "slower", true),
    P999("/p999Ms", "ms", Contrast.Direction.LOWER_IS_BETTER, "quicker", "slower", true),
    MAX("/maxMs", "ms", Contrast.Direction.LOWER_IS_BETTER, "quicker", "slower", true),
    RATE("/achievedRatePerSec", "/s", Contrast.Direction.HIGHER_IS_BETTER, "faster", "slower", false),
    GOODPUT("/goodputPerSec", "/s", Contrast.Direction.HIGHER_IS_BETTER, "faster", "slower", false),
    HELD("/serverMaxInFlight", "held", Contrast.Direction.HIGHER_IS_BETTER, "higher", "lower", false),
    ERRORS("/errors", "errors", Contrast.Direction.LOWER_IS_BETTER, "lower", "higher", false),
    TARGET_GC_MAX("/targetJvm/gcPauses/maxMs", "ms", Contrast.Direction.LOWER_IS_BETTER, "shorter", "longer", false),
    GENERATOR_HEAP_MAX("/generatorJvm/heap/usedMaxBytes", "bytes", Contrast.Direction.LOWER_IS_BETTER, "smaller", "larger", false),
    GENERATOR_THREADS_MAX("/generatorJvm/threads/platformPeak", "threads", Contrast.Direction.LOWER_IS_BETTER, "fewer", "more", false);

    private final String pointer;
    private final String unit;
    private final Contrast.Direction direction;
    private final String better;
    private final String worse;
    private final boolean ofAnswers;

    /**
     * @param better    the word for one figure better than another ("quicker"), {@code worse} for worse
     * @param ofAnswers whether the figure is taken over the run's answered requests: a response time, which a run
     *                  with none writes as 0
     */
    RowFigure(String pointer, String unit, Contrast.Direction direction, String better, String worse, boolean ofAnswers) {
        this.pointer = pointer;
        this.unit = unit;
        this.direction = direction;
        this.better = better;
        this.worse = worse;
        this.ofAnswers = ofAnswers;
    }

    /** {@code p99}, {@code target-gc-max}: as the command line names it. */
    public String label() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    public String unit() {
        return unit;
    }

    /** Whether A's figure is better than B's beyond the noise, by {@code contrast} (A's samples against B's). */
    public boolean better(Contrast contrast) {
        return contrast.resolved() && (contrast.difference() > 0) == (direction == Contrast.Direction.HIGHER_IS_BETTER);
    }

    /** A's figure against B's as a sentence: "a is 4.1 % quicker than b (95 % CI 2.0–6.2 %)", or why undecided. */
    public String describe(Contrast contrast, String a, String b) {
        return contrast.describe(a, b, direction, better, worse);
    }

    /**
     * The row's figure; NaN where it has none (a failed run, a JVM not recorded, or a time of a run none of whose
     * requests was answered, which its row writes as 0).
     */
    public double of(JsonNode row) {
        JsonNode value = row.at(pointer);
        boolean noAnswers = ofAnswers && row.path("requests").asLong(1) == 0;
        return value.isNumber() && !noAnswers ? value.asDouble() : Double.NaN;
    }

    /** The figure named {@code label}, or null. */
    public static RowFigure named(String label) {
        return Arrays.stream(values()).filter(f -> f.label().equals(label)).findFirst().orElse(null);
    }

    /** Every label, for a help text or an error. */
    public static String labels() {
        return String.join(", ", Arrays.stream(values()).map(RowFigure::label).toList());
    }
}
