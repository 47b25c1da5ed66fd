package dev.gauntlet.loadgen;

import dev.gauntlet.api.Percentiles;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.SingleWriterRecorder;

import java.util.concurrent.TimeUnit;

/**
 * The three latency histograms of a run, in nanoseconds: response time from the intended start,
 * service time from the actual send, and schedule lag (actual send minus intended start).
 *
 * <pre>{@code
 * recorder.recordLag(sendNs - intendedStartNs);                  // event loop, at each send
 * recorder.recordResponse(intendedStartNs, sendNs, endNs);       // event loop, at each valid response
 * recorder.sampleInterval(logs);                                 // interval thread, once a second
 * }</pre>
 *
 * <p>Single writer (the event loop), single reader (whoever samples intervals, one at a time).
 * Every interval is added to the totals as it is taken, so the totals equal the sum of the
 * logged intervals exactly.
 */
final class LatencyRecorder {
    /** Values above are clamped; no run lasts an hour. */
    static final long HIGHEST_TRACKABLE_NS = TimeUnit.HOURS.toNanos(1);
    private static final int SIGNIFICANT_DIGITS = 3;

    private final SingleWriterRecorder response = newRecorder();
    private final SingleWriterRecorder service = newRecorder();
    private final SingleWriterRecorder lag = newRecorder();
    private final Histogram responseTotal = newHistogram();
    private final Histogram serviceTotal = newHistogram();
    private final Histogram lagTotal = newHistogram();
    private Histogram responseInterval;
    private Histogram serviceInterval;
    private Histogram lagInterval;

    void recordResponse(long intendedStartNs, long sendNs, long endNs) {
        response.recordValue(clamp(endNs - intendedStartNs));
        service.recordValue(clamp(endNs - sendNs));
    }

    void recordLag(long lagNs) {
        lag.recordValue(clamp(lagNs));
    }

    /** Takes what was recorded since the last call, adds it to the totals and hands it to the logs. */
    void sampleInterval(IntervalLogs logs) {
        sampleInterval(logs, false);
    }

    /** As {@link #sampleInterval(IntervalLogs)}, leaving an interval with no values at all out of the logs. */
    void sampleInterval(IntervalLogs logs, boolean skipIfEmpty) {
        responseInterval = response.getIntervalHistogram(responseInterval);
        serviceInterval = service.getIntervalHistogram(serviceInterval);
        lagInterval = lag.getIntervalHistogram(lagInterval);
        responseTotal.add(responseInterval);
        serviceTotal.add(serviceInterval);
        lagTotal.add(lagInterval);
        boolean empty = responseInterval.getTotalCount() == 0 && serviceInterval.getTotalCount() == 0
                && lagInterval.getTotalCount() == 0;
        if (logs != null && !(skipIfEmpty && empty)) {
            logs.write(responseInterval, serviceInterval, lagInterval);
        }
    }

    Histogram responseTotal() {
        return responseTotal;
    }

    Histogram serviceTotal() {
        return serviceTotal;
    }

    Histogram lagTotal() {
        return lagTotal;
    }

    static Percentiles percentiles(Histogram histogramNs) {
        if (histogramNs.getTotalCount() == 0) {
            return Percentiles.EMPTY;
        }
        return new Percentiles(histogramNs.getTotalCount(),
                histogramNs.getMean() / 1e6,
                ms(histogramNs.getValueAtPercentile(50)),
                ms(histogramNs.getValueAtPercentile(90)),
                ms(histogramNs.getValueAtPercentile(99)),
                ms(histogramNs.getValueAtPercentile(99.9)),
                ms(histogramNs.getValueAtPercentile(99.99)),
                ms(histogramNs.getMaxValue()));
    }

    static Histogram newHistogram() {
        return new Histogram(1, HIGHEST_TRACKABLE_NS, SIGNIFICANT_DIGITS);
    }

    private static SingleWriterRecorder newRecorder() {
        return new SingleWriterRecorder(1, HIGHEST_TRACKABLE_NS, SIGNIFICANT_DIGITS);
    }

    private static long clamp(long valueNs) {
        return Math.max(0, Math.min(valueNs, HIGHEST_TRACKABLE_NS));
    }

    private static double ms(long valueNs) {
        return valueNs / 1e6;
    }
}
