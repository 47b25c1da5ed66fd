package dev.gauntlet.loadgen.run;

import dev.gauntlet.loadgen.measure.CostMeter;
import dev.gauntlet.loadgen.measure.IntervalLogs;
import dev.gauntlet.loadgen.measure.RequestCounters;
import dev.gauntlet.loadgen.measure.SustainedRate;
import dev.gauntlet.loadgen.measure.TargetWatch;
import org.HdrHistogram.Histogram;

import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * Once a second: the traffic's interval ({@link TrafficIntervals}, warm-up included); in the warm-up, its window to
 * {@link WarmupWindows}, which may end the warm-up at the next tick; then the interval into the logs (latencies,
 * hiccups, errors) and the judge, the cost sample, one progress line. The tick at the start of the measured phase opens
 * the logs, closes the warm-up's interval and runs {@code atMeasureStart}.
 */
final class IntervalTicker implements Runnable {
    private final TickSources sources;
    private final WarmupWindows warmup;
    private final SustainedRate sustained = new SustainedRate();
    private final ErrorIntervals errors = new ErrorIntervals();
    private final TrafficIntervals traffic;
    private final Function<Long, IntervalLogs> openLogs;
    private final CostMeter cost;
    private final Runnable atMeasureStart;
    private IntervalLogs logs;
    private boolean measureStarted;
    private long windowStartNs;

    /** {@code target}: null when no target's admin port was given. */
    IntervalTicker(TickSources sources, TargetWatch target, TrafficIntervals traffic, Function<Long, IntervalLogs> openLogs,
                   CostMeter cost, Runnable atMeasureStart) {
        this.sources = sources;
        this.warmup = new WarmupWindows(sources, target);
        this.traffic = traffic;
        this.openLogs = openLogs;
        this.cost = cost;
        this.atMeasureStart = atMeasureStart;
        this.windowStartNs = sources.ticks().originNs();
    }

    @Override
    public void run() {
        long nowNs = System.nanoTime();
        long sinceMeasureStartNs = nowNs - sources.engine().measureStartNs();
        cost.sample();
        traffic.interval(nowNs);
        if (sinceMeasureStartNs < -TimeUnit.MILLISECONDS.toNanos(100)) {
            warmup.close(windowStartNs, nowNs, sinceMeasureStartNs);
            windowStartNs = nowNs;
            return;
        }
        if (!measureStarted) {
            measureStarted = true;
            if (openLogs != null) {
                logs = openLogs.apply(sources.engine().measureStartNs());
            }
            // The warm-up's last interval: recorded only if requests came late into it; its hiccups are dropped.
            sources.hiccups().interval();
            sources.recorder().sampleWarmup();
            sources.recorder().sampleInterval(logs, true);
            windowStartNs = nowNs;
            atMeasureStart.run();
            if (sinceMeasureStartNs < TimeUnit.MILLISECONDS.toNanos(100)) {
                return;
            }
        } else {
            sampleInterval();
        }
        RequestCounters counters = sources.engine().counters();
        sustained.sample(sinceMeasureStartNs, counters.completedCount());
        // "answered" counts the warm-up's backlog too: a target working through it shows, where "sent" may stay at 0.
        sources.progress().printf(Locale.ROOT, "  %3ds  sent %d  completed %d  errors %d  p99 so far %.2f ms  answered %d%n",
                Math.round(sinceMeasureStartNs / 1e9), counters.sentCount(), counters.completedCount(),
                counters.errorCount(), sources.recorder().responseTotal().getValueAtPercentile(99) / 1e6,
                counters.answeredInPhaseCount());
    }

    /** The interval since the last tick, latencies and hiccups alike, into the totals, the logs and the judge. */
    void sampleInterval() {
        long nowNs = System.nanoTime();
        Histogram hiccupInterval = sources.hiccups().interval();
        if (measureStarted) {
            sources.hiccups().addMeasured(hiccupInterval);
        }
        long lateAnswers = sources.recorder().sampleWarmup().response().getTotalCount();
        Histogram response = sources.recorder().sampleInterval(logs);
        if (measureStarted && windowStartNs < sources.engine().measureEndNs()) {
            sources.judge().measuredWindow(response.getTotalCount() + lateAnswers, response, hiccupInterval, windowStartNs,
                    Math.min(nowNs, sources.engine().measureEndNs()));
        }
        windowStartNs = nowNs;
        if (logs != null && measureStarted) {
            logs.writeHiccups(hiccupInterval);
        }
        if (logs != null) {
            errors.write(logs, measureStarted, System.nanoTime() - sources.engine().measureStartNs(),
                    sources.engine().counters().errors());
        }
    }

    /** Closes the logs; a run that ended before its measured phase leaves them empty. */
    void closeLogs() {
        if (logs == null && openLogs != null) {
            logs = openLogs.apply(sources.engine().measureStartNs());
        }
        if (logs != null) {
            logs.close();
        }
    }

    SustainedRate sustained() {
        return sustained;
    }
}
