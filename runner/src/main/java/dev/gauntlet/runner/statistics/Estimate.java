package dev.gauntlet.runner.statistics;

import dev.gauntlet.api.Numbers;
import org.apache.commons.statistics.descriptive.DoubleStatistics;
import org.apache.commons.statistics.descriptive.Statistic;
import org.apache.commons.statistics.distribution.TDistribution;

import java.util.EnumSet;
import java.util.Locale;

/**
 * A figure's mean over independent samples (a fork each: a fresh JVM) and its confidence interval,
 * Student's t over the samples. With one sample there is no interval: {@code low} and {@code high}
 * are NaN, and the figure says so.
 *
 * <pre>{@code
 * Estimate rate = Estimate.of(new double[] {41_200, 39_800, 40_500}, 0.95);
 * rate.mean();        // 40,500
 * rate.describe();    // 40500 (95 % CI 38761–42239, 3 forks)
 * }</pre>
 *
 * @param mean       the samples' mean
 * @param low        the interval's lower bound; NaN with fewer than two samples
 * @param high       its upper bound
 * @param samples    how many samples it rests on
 * @param confidence the interval's level, such as 0.95
 */
public record Estimate(double mean, double low, double high, int samples, double confidence) {
    /** The level every interval has unless said otherwise. */
    public static final double DEFAULT_CONFIDENCE = 0.95;

    public static Estimate of(double[] samples, double confidence) {
        checkConfidence(confidence);
        if (samples.length == 0) {
            return new Estimate(Double.NaN, Double.NaN, Double.NaN, 0, confidence);
        }
        DoubleStatistics stats = DoubleStatistics.of(EnumSet.of(Statistic.MEAN, Statistic.VARIANCE), samples);
        double mean = stats.getAsDouble(Statistic.MEAN);
        if (samples.length < 2) {
            return new Estimate(mean, Double.NaN, Double.NaN, 1, confidence);
        }
        double halfWidth = quantile(samples.length - 1, confidence)
                * Math.sqrt(stats.getAsDouble(Statistic.VARIANCE) / samples.length);
        return new Estimate(mean, mean - halfWidth, mean + halfWidth, samples.length, confidence);
    }

    /** Whether there is an interval: two samples at least. */
    public boolean bounded() {
        return samples >= 2;
    }

    /** Half the interval's width; NaN without one. */
    public double halfWidth() {
        return (high - low) / 2;
    }

    /** {@code 40500 (95 % CI 38761–42239, 3 forks)}, or {@code 40500 (1 fork: no interval)}. */
    public String describe() {
        return Numbers.figure(mean) + " (" + interval() + ")";
    }

    /** {@code 95 % CI 38761–42239, 3 forks}, or {@code 1 fork: no interval}. */
    public String interval() {
        if (!bounded()) {
            return samples + (samples == 1 ? " fork" : " forks") + ": no interval";
        }
        return String.format(Locale.ROOT, "%s CI %s–%s, %d forks", level(confidence), Numbers.figure(low),
                Numbers.figure(high), samples);
    }

    /** Student's t quantile that leaves {@code (1 - confidence) / 2} above it, at {@code degreesOfFreedom}. */
    static double quantile(double degreesOfFreedom, double confidence) {
        return TDistribution.of(degreesOfFreedom).inverseSurvivalProbability((1 - confidence) / 2);
    }

    /** A confidence level as the tables say it: {@code 95 %}. */
    public static String level(double confidence) {
        return Numbers.compact(100 * confidence) + " %";
    }

    static void checkConfidence(double confidence) {
        if (!(confidence > 0 && confidence < 1)) {
            throw new IllegalArgumentException("a confidence level is above 0 and below 1, such as 0.95, got " + confidence);
        }
    }
}
