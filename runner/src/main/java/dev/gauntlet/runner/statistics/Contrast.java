package dev.gauntlet.runner.statistics;

import dev.gauntlet.api.Numbers;
import org.apache.commons.statistics.descriptive.DoubleStatistics;
import org.apache.commons.statistics.descriptive.Statistic;
import org.apache.commons.statistics.inference.TTest;

import java.util.EnumSet;
import java.util.Locale;

/**
 * Whether A's figure differs from B's beyond the noise, and by how much: the difference of their means
 * with its confidence interval, from independent samples (a fork each) on both sides. Welch's t
 * test (Commons Statistics' {@link TTest}, which allows the sides their own variance) gives the degrees of
 * freedom; the interval is the difference ± the t quantile at them × the difference's standard error. A
 * difference is {@link #resolved()} when its interval excludes 0, which is the test rejecting "no difference"
 * at the same level. {@link #paired} takes A and B measured side by side, sample by sample, and
 * intervals their differences instead, so that what moved both at once cancels.
 *
 * <p>The smallest detectable difference is the one this many samples would resolve four times in five:
 * (t quantile at the level + t quantile at 80 % power) × the standard error. Percentages are of B's mean,
 * which is taken as exact: with B's own interval under a tenth of its mean the error of that is small
 * beside the interval's.
 *
 * <pre>{@code
 * Contrast c = Contrast.of(netty, jetty, 0.95);
 * c.resolved();           // true: the interval excludes no difference
 * c.percent();            // +12.4: A's mean is 12.4 % above B's
 * c.describe("netty", "jetty", Direction.HIGHER_IS_BETTER, "faster", "slower");
 * // netty is 12.4 % faster than jetty (95 % CI 8.1–16.7 %)
 * }</pre>
 *
 * @param difference         A's mean minus B's (the mean of the differences when paired)
 * @param low                the difference's interval, lower bound; NaN with fewer than two samples a side
 * @param high               its upper bound
 * @param smallestDetectable the smallest difference these samples would resolve with 80 % power; NaN without interval
 * @param reference          B's mean, what percentages are of
 * @param samplesA           A's samples (forks); for a paired contrast the pairs
 * @param samplesB           B's samples
 * @param confidence         the interval's level
 */
public record Contrast(double difference, double low, double high, double smallestDetectable, double reference,
                       int samplesA, int samplesB, double confidence) {
    /** The power the smallest detectable difference is stated at. */
    static final double POWER = 0.8;

    /** Which way a figure is better: a rate is better higher, a latency lower. */
    public enum Direction {
        HIGHER_IS_BETTER, LOWER_IS_BETTER
    }

    /** A against B, independent samples of each (Welch). */
    public static Contrast of(double[] a, double[] b, double confidence) {
        Estimate.checkConfidence(confidence);
        double meanA = mean(a);
        double meanB = mean(b);
        if (a.length < 2 || b.length < 2) {
            return new Contrast(meanA - meanB, Double.NaN, Double.NaN, Double.NaN, meanB, a.length, b.length, confidence);
        }
        double standardError = Math.sqrt(variance(a) / a.length + variance(b) / b.length);
        double degreesOfFreedom = standardError == 0 ? a.length + b.length - 2
                : TTest.withDefaults().test(a, b).getDegreesOfFreedom();
        return bounded(meanA - meanB, standardError, degreesOfFreedom, meanB, a.length, b.length, confidence);
    }

    /** A against B measured in pairs (the same fork or round of both): an interval on the pairs' differences. */
    public static Contrast paired(double[] a, double[] b, double confidence) {
        Estimate.checkConfidence(confidence);
        if (a.length != b.length) {
            throw new IllegalArgumentException("paired samples come in pairs: " + a.length + " against " + b.length);
        }
        double[] differences = new double[a.length];
        for (int i = 0; i < a.length; i++) {
            differences[i] = a[i] - b[i];
        }
        double meanB = mean(b);
        if (a.length < 2) {
            return new Contrast(mean(differences), Double.NaN, Double.NaN, Double.NaN, meanB, a.length, b.length, confidence);
        }
        double standardError = Math.sqrt(variance(differences) / differences.length);
        return bounded(mean(differences), standardError, differences.length - 1, meanB, a.length, b.length, confidence);
    }

    private static Contrast bounded(double difference, double standardError, double degreesOfFreedom, double reference,
                                    int samplesA, int samplesB, double confidence) {
        double halfWidth = Estimate.quantile(degreesOfFreedom, confidence) * standardError;
        double detectable = (Estimate.quantile(degreesOfFreedom, confidence)
                + Estimate.quantile(degreesOfFreedom, 2 * POWER - 1)) * standardError;
        return new Contrast(difference, difference - halfWidth, difference + halfWidth, detectable, reference,
                samplesA, samplesB, confidence);
    }

    /** Whether there is an interval: two samples a side at least. */
    public boolean bounded() {
        return !Double.isNaN(low);
    }

    /** Whether the interval excludes no difference: A and B differ at the contrast's level. */
    public boolean resolved() {
        return bounded() && (low > 0 || high < 0);
    }

    /** The difference in percent of B's mean; NaN when B's mean is 0. */
    public double percent() {
        return percentOf(difference);
    }

    public double percentLow() {
        return percentOf(low);
    }

    public double percentHigh() {
        return percentOf(high);
    }

    private double percentOf(double value) {
        return reference == 0 ? Double.NaN : 100 * value / reference;
    }

    /**
     * The sentence a table or a gate says: {@code a is 12.4 % faster than b (95 % CI 8.1–16.7 %)}, {@code no
     * difference detectable (95 % CI -3.1–+2.0 %, spans 0; smallest detectable difference 4.2 %)}, or why there is no
     * interval.
     *
     * @param better the word for A better than B ({@code faster}), {@code worse} for A worse ({@code slower})
     */
    public String describe(String a, String b, Direction direction, String better, String worse) {
        if (!bounded()) {
            return String.format(Locale.ROOT, "no interval: %s has %d fork%s, %s %d (two a side at least)", a, samplesA,
                    samplesA == 1 ? "" : "s", b, samplesB);
        }
        if (low == 0 && high == 0) {
            return "no difference: the same in every fork of both";
        }
        if (!resolved()) {
            return reference == 0
                    ? String.format(Locale.ROOT, "no difference detectable (%s CI spans 0; no percentage of %s's 0)",
                    Estimate.level(confidence), b)
                    : String.format(Locale.ROOT, "no difference detectable (%s CI %s–%s %%, spans 0; smallest detectable "
                            + "difference %s %%)", Estimate.level(confidence), signed(percentLow()), signed(percentHigh()),
                    Numbers.figure(percentOf(smallestDetectable)));
        }
        boolean aBetter = (difference > 0) == (direction == Direction.HIGHER_IS_BETTER);
        if (reference == 0) {
            return String.format(Locale.ROOT, "%s is %s than %s (the %s interval of the difference excludes 0; no "
                    + "percentage of %s's 0)", a, aBetter ? better : worse, b, Estimate.level(confidence), b);
        }
        double magnitude = Math.abs(percent());
        double from = Math.min(Math.abs(percentLow()), Math.abs(percentHigh()));
        double to = Math.max(Math.abs(percentLow()), Math.abs(percentHigh()));
        return String.format(Locale.ROOT, "%s is %s %% %s than %s (%s CI %s–%s %%)", a, Numbers.figure(magnitude),
                aBetter ? better : worse, b, Estimate.level(confidence), Numbers.figure(from), Numbers.figure(to));
    }

    private static String signed(double percent) {
        return (percent > 0 ? "+" : "") + Numbers.figure(percent);
    }

    private static double mean(double[] values) {
        return values.length == 0 ? Double.NaN : DoubleStatistics.of(EnumSet.of(Statistic.MEAN), values).getAsDouble(Statistic.MEAN);
    }

    private static double variance(double[] values) {
        return DoubleStatistics.of(EnumSet.of(Statistic.VARIANCE), values).getAsDouble(Statistic.VARIANCE);
    }
}
