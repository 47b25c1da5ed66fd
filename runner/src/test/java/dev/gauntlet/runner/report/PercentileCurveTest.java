package dev.gauntlet.runner.report;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.data.Percentage.withPercentage;

class PercentileCurveTest {
    private static final double UNITS_PER_MS = 1_000_000.0;

    /** 1 ms to 1000 ms, one request each: the value at p is about p × 1000 ms. */
    private static Histogram oneToThousandMs() {
        Histogram h = new Histogram(3);
        for (int ms = 1; ms <= 1000; ms++) {
            h.recordValue(ms * 1_000_000L);
        }
        return h;
    }

    @Test
    void levelsRunFromTheMinimumToTheMaximumAtXEqualToTheCount() {
        PercentileCurve curve = PercentileCurve.of(oneToThousandMs(), UNITS_PER_MS);
        assertThat(curve.x().getFirst()).isEqualTo(1.0);
        assertThat(curve.ms().getFirst()).isCloseTo(1.0, withPercentage(1));
        assertThat(curve.x().getLast()).as("the maximum sits at x = count").isEqualTo(1000.0);
        assertThat(curve.ms().getLast()).isCloseTo(1000.0, withPercentage(1));
        // 20 levels a decade below the count: 1 ... 10^(59/20), then the maximum.
        assertThat(curve.x()).hasSize(61);
        int ninety = curve.x().indexOf(10.0);
        assertThat(curve.ms().get(ninety)).as("p90").isCloseTo(900.0, withPercentage(1));
        assertThat(curve.x()).isSorted();
        assertThat(curve.ms()).isSorted();
    }

    @Test
    void anEmptyHistogramHasNoCurve() {
        assertThat(PercentileCurve.of(new Histogram(3), UNITS_PER_MS).x()).isEmpty();
    }

    @Test
    void bucketsCoverEachValueWithinTheirWidthAndCountEveryValue() {
        List<Long> pairs = LatencyBuckets.of(oneToThousandMs(), UNITS_PER_MS);
        long total = 0;
        for (int i = 1; i < pairs.size(); i += 2) {
            total += pairs.get(i);
        }
        assertThat(total).isEqualTo(1000);
        int bucket = LatencyBuckets.bucket(100.0);
        double upper = LatencyBuckets.MIN_MS * Math.pow(LatencyBuckets.RATIO, bucket);
        assertThat(upper).isGreaterThanOrEqualTo(100.0).isLessThan(100.0 * LatencyBuckets.RATIO);
    }
}
