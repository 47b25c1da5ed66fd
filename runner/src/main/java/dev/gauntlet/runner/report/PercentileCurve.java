package dev.gauntlet.runner.report;

import org.HdrHistogram.Histogram;

import java.util.ArrayList;
import java.util.List;

/**
 * A latency distribution as the report draws it: value against {@code 1/(1-p)} on a log axis, so 90 %, 99 %,
 * 99.9 % ... are evenly spaced and the tail gets as much room as the median:
 *
 * <pre>
 * PercentileCurve curve = PercentileCurve.of(log.total(), IntervalLog.UNITS_PER_MS);
 * curve.x();  // 1, 1.12, 1.26 ... 1/(1-p)
 * curve.ms(); // the value at each p, in ms; the last point is the maximum, at x = the count
 * </pre>
 *
 * The page computes the same levels from bucket counts when a time window is selected
 * ({@code report.js}, {@code LEVELS_PER_DECADE}).
 */
record PercentileCurve(List<Double> x, List<Double> ms) {
    /** Points per factor of ten in 1/(1-p): 90 % to 99 % gets 20 of them. */
    static final int LEVELS_PER_DECADE = 20;

    static PercentileCurve of(Histogram histogram, double unitsPerMs) {
        List<Double> x = new ArrayList<>();
        List<Double> ms = new ArrayList<>();
        long count = histogram.getTotalCount();
        if (count == 0) {
            return new PercentileCurve(List.of(), List.of());
        }
        // Beyond 1/(1-p) = count, a level would name a value finer than one sample: the maximum ends the curve there.
        for (int i = 0; Math.pow(10, i / (double) LEVELS_PER_DECADE) < count; i++) {
            double level = Math.pow(10, i / (double) LEVELS_PER_DECADE);
            x.add(round(level));
            ms.add(round(histogram.getValueAtPercentile(100.0 * (1 - 1 / level)) / unitsPerMs));
        }
        x.add((double) Math.max(count, 1));
        ms.add(round(histogram.getMaxValue() / unitsPerMs));
        return new PercentileCurve(List.copyOf(x), List.copyOf(ms));
    }

    /** Four significant digits are more than a chart shows and keep the page small. */
    static double round(double value) {
        if (value == 0 || !Double.isFinite(value)) {
            return value;
        }
        double scale = Math.pow(10, 3 - Math.floor(Math.log10(Math.abs(value))));
        return Math.round(value * scale) / scale;
    }
}
