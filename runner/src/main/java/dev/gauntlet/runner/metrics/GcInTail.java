package dev.gauntlet.runner.metrics;

import dev.gauntlet.api.JvmMetrics;
import dev.gauntlet.api.Numbers;

import java.util.Locale;

/**
 * The 2016 study's question of a tail: of the measured phase's slowest seconds (by their worst
 * response time), how many held a GC pause of the target, how many one of the generator, and the
 * longest of those pauses.
 */
public record GcInTail(int slowest, int withTargetPause, double targetPauseMaxMs, int withGeneratorPause,
                       double generatorPauseMaxMs) {
    /**
     * The sentence of the evidence, with each side's pauses of the measured phase as its JVM's figures count them
     * (null: not recorded): {@code of the 10 slowest seconds, 3 held a target GC pause (up to 45 ms; the measured
     * phase's target GC pauses: 4, longest 89.8 ms), none held a generator GC pause (the measured phase's generator
     * GC pauses: 0)}.
     */
    public String describe(JvmMetrics.GcPauses target, JvmMetrics.GcPauses generator) {
        return String.format(Locale.ROOT, "of the %d slowest seconds, %s, %s", slowest,
                count(withTargetPause, "target", targetPauseMaxMs, target),
                count(withGeneratorPause, "generator", generatorPauseMaxMs, generator));
    }

    private static String count(int seconds, String side, double longestInTailMs, JvmMetrics.GcPauses measured) {
        String inTail = seconds == 0 ? "none held a " + side + " GC pause"
                : String.format(Locale.ROOT, "%d held a %s GC pause (up to %s ms%s)", seconds, side,
                Numbers.millis(longestInTailMs), measured == null ? "" : "; " + measuredPauses(side, measured));
        return seconds == 0 && measured != null ? inTail + " (" + measuredPauses(side, measured) + ")" : inTail;
    }

    private static String measuredPauses(String side, JvmMetrics.GcPauses measured) {
        return "the measured phase's " + side + " GC pauses: " + measured.count()
                + (measured.count() == 0 ? "" : ", longest " + Numbers.millis(measured.maxMs()) + " ms");
    }
}
