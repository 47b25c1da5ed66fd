package dev.gauntlet.loadgen.measure;

import dev.gauntlet.api.Percentiles;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.SingleWriterRecorder;

import java.util.concurrent.TimeUnit;

/**
 * The three latency histograms of a run, in nanoseconds: response time from the intended start,
 * service time from the actual send, and schedule lag (actual send minus intended start).
 *
 * <pre>{@code
 * LatencyRecorder.Writer writer = recorder.writer(0);            // one per engine thread
 * writer.recordLag(sendNs - intendedStartNs);                    // event loop, at each send
 * writer.recordResponse(intendedStartNs, sendNs, endNs);         // event loop, at each valid response
 * recorder.sampleInterval(logs);                                 // interval thread, once a second
 * writer.recordWarmup(intendedStartNs, endNs);                   // a warm-up request answered correctly
 * LatencyRecorder.Warmup window = recorder.sampleWarmup();       // interval thread, once a second of warm-up
 * }</pre>
 *
 * <p>One writer per engine thread, each with recorders of its own, so engines never share a cache
 * line; one reader (whoever samples intervals, one at a time) sums the writers' intervals, which
 * is exact. Every interval is added to the totals as it is taken, so the totals equal the sum of
 * the logged intervals exactly. The warm-up's requests go to recorders of their own, never into the
 * totals or the logs: the steady-state judge reads them window by window.
 */
public final class LatencyRecorder {
    /** Values above are clamped; no run lasts an hour. */
    public static final long HIGHEST_TRACKABLE_NS = TimeUnit.HOURS.toNanos(1);
    private static final int SIGNIFICANT_DIGITS = 3;

    private final Writer[] writers;
    private final Histogram responseTotal = newHistogram();
    private final Histogram serviceTotal = newHistogram();
    private final Histogram lagTotal = newHistogram();
    private final Histogram responseInterval = newHistogram();
    private final Histogram serviceInterval = newHistogram();
    private final Histogram lagInterval = newHistogram();

    /** One engine thread's side of the recorder: only that thread records into it. */
    public static final class Writer {
        private final SingleWriterRecorder response = newRecorder();
        private final SingleWriterRecorder service = newRecorder();
        private final SingleWriterRecorder lag = newRecorder();
        private final SingleWriterRecorder warmupResponse = newRecorder();
        private final SingleWriterRecorder warmupLateness = newRecorder();
        private Histogram responseInterval;
        private Histogram serviceInterval;
        private Histogram lagInterval;

        public void recordResponse(long intendedStartNs, long sendNs, long endNs) {
            response.recordValue(clamp(endNs - intendedStartNs));
            service.recordValue(clamp(endNs - sendNs));
        }

        public void recordLag(long lagNs) {
            lag.recordValue(clamp(lagNs));
        }

        /** A warm-up request answered correctly: its response time, for the steady-state judge only. */
        public void recordWarmup(long intendedStartNs, long endNs) {
            warmupResponse.recordValue(clamp(endNs - intendedStartNs));
        }

        /** Open loop: how late the loop came to a warm-up request's intended start. */
        public void recordWarmupLateness(long latenessNs) {
            warmupLateness.recordValue(clamp(latenessNs));
        }

        private void addIntervalTo(Histogram responseSum, Histogram serviceSum, Histogram lagSum) {
            responseInterval = response.getIntervalHistogram(responseInterval);
            serviceInterval = service.getIntervalHistogram(serviceInterval);
            lagInterval = lag.getIntervalHistogram(lagInterval);
            responseSum.add(responseInterval);
            serviceSum.add(serviceInterval);
            lagSum.add(lagInterval);
        }
    }

    public LatencyRecorder() {
        this(1);
    }

    public LatencyRecorder(int writers) {
        this.writers = new Writer[writers];
        for (int i = 0; i < writers; i++) {
            this.writers[i] = new Writer();
        }
    }

    public Writer writer(int index) {
        return writers[index];
    }

    /** The one engine's recording, when there is one writer. */
    public void recordResponse(long intendedStartNs, long sendNs, long endNs) {
        writers[0].recordResponse(intendedStartNs, sendNs, endNs);
    }

    public void recordLag(long lagNs) {
        writers[0].recordLag(lagNs);
    }

    /**
     * Takes what was recorded since the last call, adds it to the totals and hands it to the logs;
     * returns its response times, valid until the next call.
     */
    public Histogram sampleInterval(IntervalLogs logs) {
        return sampleInterval(logs, false);
    }

    /** As {@link #sampleInterval(IntervalLogs)}, leaving an interval with no values at all out of the logs. */
    public Histogram sampleInterval(IntervalLogs logs, boolean skipIfEmpty) {
        responseInterval.reset();
        serviceInterval.reset();
        lagInterval.reset();
        long startMs = Long.MAX_VALUE;
        long endMs = 0;
        for (Writer writer : writers) {
            writer.addIntervalTo(responseInterval, serviceInterval, lagInterval);
            startMs = Math.min(startMs, writer.responseInterval.getStartTimeStamp());
            endMs = Math.max(endMs, writer.responseInterval.getEndTimeStamp());
        }
        // The logs place each interval by its time stamps, which the sum does not carry over.
        for (Histogram interval : new Histogram[] {responseInterval, serviceInterval, lagInterval}) {
            interval.setStartTimeStamp(startMs);
            interval.setEndTimeStamp(endMs);
        }
        responseTotal.add(responseInterval);
        serviceTotal.add(serviceInterval);
        lagTotal.add(lagInterval);
        boolean empty = responseInterval.getTotalCount() == 0 && serviceInterval.getTotalCount() == 0
                && lagInterval.getTotalCount() == 0;
        if (logs != null && !(skipIfEmpty && empty)) {
            logs.write(responseInterval, serviceInterval, lagInterval);
        }
        return responseInterval;
    }

    /** One window of the warm-up, every writer's summed: the correct answers' response times and the loop's lateness. */
    public record Warmup(Histogram response, Histogram lateness) {
    }

    /** What the warm-up recorded since the last call. */
    public Warmup sampleWarmup() {
        Warmup window = new Warmup(newHistogram(), newHistogram());
        for (Writer writer : writers) {
            window.response().add(writer.warmupResponse.getIntervalHistogram());
            window.lateness().add(writer.warmupLateness.getIntervalHistogram());
        }
        return window;
    }

    public Histogram responseTotal() {
        return responseTotal;
    }

    public Histogram serviceTotal() {
        return serviceTotal;
    }

    public Histogram lagTotal() {
        return lagTotal;
    }

    public static Percentiles percentiles(Histogram histogramNs) {
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

    public static Histogram newHistogram() {
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
