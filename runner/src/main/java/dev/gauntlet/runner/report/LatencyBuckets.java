package dev.gauntlet.runner.report;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramIterationValue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * One interval's latencies as sparse counts on a fixed logarithmic grid, small enough to embed per second in the
 * page, so that selecting a time window recomputes the percentile curve in the browser:
 *
 * <pre>
 * List&lt;Long&gt; pairs = LatencyBuckets.of(interval.histogram(), IntervalLog.UNITS_PER_MS); // [bucket, count, bucket, count ...]
 * </pre>
 *
 * Bucket {@code b} holds values up to {@code MIN_MS × RATIO^b}: about 4.4 % wide, finer than any chart shows.
 * {@code report.js} reads the same grid ({@code BUCKET_MIN_MS}, {@code BUCKET_RATIO}).
 */
final class LatencyBuckets {
    static final double MIN_MS = 0.001;
    static final double RATIO = Math.pow(2, 1.0 / 16);

    private LatencyBuckets() {
    }

    static List<Long> of(Histogram histogram, double unitsPerMs) {
        Map<Integer, Long> counts = new TreeMap<>();
        for (HistogramIterationValue v : histogram.recordedValues()) {
            double ms = histogram.highestEquivalentValue(v.getValueIteratedTo()) / unitsPerMs;
            counts.merge(bucket(ms), v.getCountAtValueIteratedTo(), Long::sum);
        }
        List<Long> pairs = new ArrayList<>(counts.size() * 2);
        counts.forEach((bucket, count) -> {
            pairs.add((long) bucket);
            pairs.add(count);
        });
        return pairs;
    }

    static int bucket(double ms) {
        return ms <= MIN_MS ? 0 : (int) Math.ceil(Math.log(ms / MIN_MS) / Math.log(RATIO));
    }
}
