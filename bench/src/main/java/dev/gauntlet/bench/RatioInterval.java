package dev.gauntlet.bench;

import org.apache.commons.statistics.distribution.BinomialDistribution;

import java.util.Arrays;

/**
 * A ratio measured in pairs (Gauntlet's cost over a peer's, each pair side by side in time) and a 95 % interval of
 * its median: the pairs' median ratio, between two of the pairs' own ratios picked by the binomial distribution (the
 * distribution-free interval of a median), so one pair that a neighbour's burst or a pause spoilt moves neither end.
 * The pairs, not the seconds inside a run, are the samples.
 *
 * <pre>{@code
 * RatioInterval r = RatioInterval.of(new double[] {0.91, 0.95, 0.88, 0.93, 0.94, 0.90, 0.92});
 * r.ratio();  r.low();  r.high();   // 0.92, between 0.88 and 0.95
 * }</pre>
 *
 * @param ratio the pairs' median ratio
 * @param low   the 95 % interval's lower end, one of the pairs' ratios
 * @param high  its upper end
 * @param pairs how many pairs it rests on
 */
record RatioInterval(double ratio, double low, double high, int pairs) {
    private static final double CONFIDENCE = 0.95;
    /** Fewer pairs than this cannot bound a median at 95 %: with 5, both extremes still leave 1/16 outside. */
    static final int MIN_PAIRS = 6;

    /** @param ratios at least {@link #MIN_PAIRS} pairs' ratios, each positive and finite */
    static RatioInterval of(double[] ratios) {
        if (ratios.length < MIN_PAIRS) {
            throw new IllegalArgumentException("a 95 % interval of a median needs " + MIN_PAIRS + " pairs at least, got "
                    + ratios.length);
        }
        double[] sorted = ratios.clone();
        Arrays.sort(sorted);
        if (!(sorted[0] > 0) || Double.isInfinite(sorted[sorted.length - 1]) || Double.isNaN(sorted[sorted.length - 1])) {
            throw new IllegalArgumentException("a ratio must be positive and finite, got " + Arrays.toString(ratios));
        }
        int n = sorted.length;
        // [x(k), x(n+1-k)] misses the true median only when fewer than k pairs fall below it (or above): with k the
        // smallest count whose binomial lower tail P(X <= k) reaches 2.5 %, P(X <= k - 1) is under it, twice under 5 %.
        int k = BinomialDistribution.of(n, 0.5).inverseCumulativeProbability((1 - CONFIDENCE) / 2);
        double median = n % 2 == 1 ? sorted[n / 2] : Math.sqrt(sorted[n / 2 - 1] * sorted[n / 2]);
        return new RatioInterval(median, sorted[k - 1], sorted[n - k], n);
    }

    /** The interval's width relative to the ratio: 0.1 is an interval 10 % of the ratio wide. */
    double relativeWidth() {
        return (high - low) / ratio;
    }
}
