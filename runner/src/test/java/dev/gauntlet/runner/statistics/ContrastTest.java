package dev.gauntlet.runner.statistics;

import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class ContrastTest {
    private static final int TRIALS = 4_000;

    @Test
    void welchsIntervalHasTheSatterthwaiteDegreesOfFreedomOfUnequalVariances() {
        // Variances 2.5 and 1.3 over 5 each: standard error √0.76, 0.76² / (0.5² / 4 + 0.26² / 4) = 7.27 degrees.
        Contrast contrast = Contrast.of(new double[] {10, 12, 11, 13, 14}, new double[] {8, 9, 7, 10, 9}, 0.95);

        double halfWidth = Estimate.quantile(7.2746, 0.95) * Math.sqrt(0.76);
        assertThat(contrast.difference()).isCloseTo(3.4, within(1e-9));
        assertThat(contrast.low()).isCloseTo(3.4 - halfWidth, within(1e-3));
        assertThat(contrast.high()).isCloseTo(3.4 + halfWidth, within(1e-3));
        assertThat(halfWidth).isBetween(2.0, 2.1);
        assertThat(contrast.resolved()).isTrue();
        assertThat(contrast.percent()).isCloseTo(100 * 3.4 / 8.6, within(1e-9));
    }

    @Test
    void samplesOfOneDistributionDifferAsOftenAsTheLevelAllows() {
        SplittableRandom random = new SplittableRandom(42);
        int independent = 0;
        int paired = 0;
        for (int trial = 0; trial < TRIALS; trial++) {
            double[] a = normal(random, 5, 100, 10);
            double[] b = normal(random, 5, 100, 10);
            independent += Contrast.of(a, b, 0.95).resolved() ? 1 : 0;
            paired += Contrast.paired(a, b, 0.95).resolved() ? 1 : 0;
        }
        // 5 % of 4,000 trials is 200, with a binomial standard deviation of 14: 3.5–6.5 % is beyond ±4 of them.
        assertThat(independent / (double) TRIALS).isBetween(0.035, 0.065);
        assertThat(paired / (double) TRIALS).isBetween(0.035, 0.065);
    }

    @Test
    void aKnownDifferenceIsInsideItsIntervalAsOftenAsTheLevelSays() {
        SplittableRandom random = new SplittableRandom(7);
        int covered = 0;
        int resolved = 0;
        for (int trial = 0; trial < TRIALS; trial++) {
            Contrast contrast = Contrast.of(normal(random, 6, 110, 4), normal(random, 4, 100, 8), 0.90);
            covered += contrast.low() <= 10 && 10 <= contrast.high() ? 1 : 0;
            resolved += contrast.resolved() ? 1 : 0;
        }
        assertThat(covered / (double) TRIALS).isBetween(0.88, 0.92);
        assertThat(resolved / (double) TRIALS).isGreaterThan(0.5);
    }

    @Test
    void aDifferenceAsLargeAsTheSmallestDetectableIsResolvedFourTimesInFive() {
        // Pairs whose differences have standard deviation 1; the smallest detectable difference as 8 pairs state it,
        // on average, with no difference between the sides.
        SplittableRandom random = new SplittableRandom(11);
        double detectable = 0;
        for (int trial = 0; trial < TRIALS; trial++) {
            detectable += Contrast.paired(normal(random, 8, 0, 1), new double[8], 0.95).smallestDetectable() / TRIALS;
        }
        int resolved = 0;
        for (int trial = 0; trial < TRIALS; trial++) {
            resolved += Contrast.paired(normal(random, 8, detectable, 1), new double[8], 0.95).resolved() ? 1 : 0;
        }
        assertThat(resolved / (double) TRIALS).isBetween(0.72, 0.88);
    }

    @Test
    void saysWhichIsBetterWithItsIntervalOrThatNoDifferenceIsDetectable() {
        Contrast faster = Contrast.of(new double[] {112, 110, 114}, new double[] {100, 101, 99}, 0.95);
        Contrast same = Contrast.of(new double[] {100, 104, 97}, new double[] {101, 99, 102}, 0.95);
        Contrast lone = Contrast.of(new double[] {100}, new double[] {101, 99}, 0.95);

        assertThat(faster.describe("netty", "jetty", Contrast.Direction.HIGHER_IS_BETTER, "faster", "slower"))
                .matches("netty is 12 % faster than jetty \\(95 % CI [0-9.]+–[0-9.]+ %\\)");
        assertThat(faster.describe("netty", "jetty", Contrast.Direction.LOWER_IS_BETTER, "faster", "slower"))
                .startsWith("netty is 12 % slower than jetty");
        assertThat(same.describe("a", "b", Contrast.Direction.HIGHER_IS_BETTER, "faster", "slower"))
                .matches("no difference detectable \\(95 % CI -[0-9.]+–\\+[0-9.]+ %, spans 0; smallest detectable "
                        + "difference [0-9.]+ %\\)");
        assertThat(lone.bounded()).isFalse();
        assertThat(lone.describe("a", "b", Contrast.Direction.HIGHER_IS_BETTER, "faster", "slower"))
                .isEqualTo("no interval: a has 1 fork, b 2 (two a side at least)");
    }

    @Test
    void aSideOfZeroGetsNoPercentageAndSidesAlikeInEveryForkSaySo() {
        Contrast errors = Contrast.of(new double[] {25351, 25340, 25381}, new double[] {0, 0, 0}, 0.95);
        Contrast none = Contrast.of(new double[] {0, 0, 0}, new double[] {0, 0, 0}, 0.95);
        Contrast around = Contrast.of(new double[] {1, 0, 0}, new double[] {0, 0, 0}, 0.95);

        assertThat(errors.describe("platform", "virtual", Contrast.Direction.LOWER_IS_BETTER, "lower", "higher"))
                .isEqualTo("platform is higher than virtual (the 95 % interval of the difference excludes 0; no percentage "
                        + "of virtual's 0)");
        assertThat(none.describe("a", "b", Contrast.Direction.LOWER_IS_BETTER, "lower", "higher"))
                .isEqualTo("no difference: the same in every fork of both");
        assertThat(around.describe("a", "b", Contrast.Direction.LOWER_IS_BETTER, "lower", "higher"))
                .isEqualTo("no difference detectable (95 % CI spans 0; no percentage of b's 0)");
    }

    private static double[] normal(SplittableRandom random, int n, double mean, double sd) {
        double[] values = new double[n];
        for (int i = 0; i < n; i++) {
            values[i] = mean + sd * gaussian(random);
        }
        return values;
    }

    /** Box–Muller: SplittableRandom has no Gaussian of its own in this form. */
    private static double gaussian(SplittableRandom random) {
        return Math.sqrt(-2 * Math.log(1 - random.nextDouble())) * Math.cos(2 * Math.PI * random.nextDouble());
    }
}
