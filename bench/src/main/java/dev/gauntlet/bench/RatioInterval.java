package dev.gauntlet.bench;

import org.apache.commons.statistics.descriptive.Mean;
import org.apache.commons.statistics.descriptive.StandardDeviation;
import org.apache.commons.statistics.distribution.TDistribution;

import java.util.Arrays;

/**
 * A ratio measured in pairs (Gauntlet's cost over a peer's, each pair side by side in time) and its 95 % interval:
 * a t-interval on the pairs' logarithms, turned back into a ratio, so that 0.9 and 1/0.9 weigh alike and the interval
 * is the ratio's, not the difference's. The pairs, not the seconds inside a run, are the samples.
 *
 * <pre>{@code
 * RatioInterval r = RatioInterval.of(new double[] {0.91, 0.95, 0.88, 0.93});
 * r.ratio();  r.low();  r.high();   // about 0.92, 0.87, 0.97
 * }</pre>
 *
 * @param ratio the pairs' geometric mean
 * @param low   the 95 % interval's lower end
 * @param high  its upper end
 * @param pairs how many pairs it rests on
 */
record RatioInterval(double ratio, double low, double high, int pairs) {
    private static final double CONFIDENCE = 0.95;

    /** @param ratios at least two pairs' ratios, each positive and finite */
    static RatioInterval of(double[] ratios) {
        if (ratios.length < 2) {
            throw new IllegalArgumentException("an interval needs two pairs at least, got " + ratios.length);
        }
        double[] logs = Arrays.stream(ratios).map(r -> {
            if (!(r > 0) || Double.isInfinite(r)) {
                throw new IllegalArgumentException("a ratio must be positive and finite, got " + r);
            }
            return Math.log(r);
        }).toArray();
        double mean = Mean.of(logs).getAsDouble();
        double standardError = StandardDeviation.of(logs).getAsDouble() / Math.sqrt(logs.length);
        double t = TDistribution.of(logs.length - 1).inverseCumulativeProbability(1 - (1 - CONFIDENCE) / 2);
        return new RatioInterval(Math.exp(mean), Math.exp(mean - t * standardError), Math.exp(mean + t * standardError),
                logs.length);
    }

    /** The interval's width relative to the ratio: 0.1 is an interval 10 % of the ratio wide. */
    double relativeWidth() {
        return (high - low) / ratio;
    }
}
