package dev.gauntlet.loadgen.run;

import dev.gauntlet.loadgen.measure.CostMeter;
import dev.gauntlet.loadgen.measure.IntervalLogs;
import dev.gauntlet.loadgen.measure.LatencyRecorder;
import dev.gauntlet.loadgen.measure.RequestCounters;
import dev.gauntlet.loadgen.measure.SteadyJudge;
import dev.gauntlet.loadgen.measure.SustainedRate;
import org.HdrHistogram.Histogram;

import java.io.PrintStream;
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
    private final EngineThreads engine;
    private final LatencyRecorder recorder;
    private final HiccupIntervals hiccups;
    private final WarmupWindows warmup;
    private final SteadyJudge judge;
    private final SustainedRate sustained = new SustainedRate();
    private final ErrorIntervals errors = new ErrorIntervals();
    private final TrafficIntervals traffic;
    private final Function<Long, IntervalLogs> openLogs;
    private final CostMeter cost;
    private final Runnable atMeasureStart;
    private final PrintStream out;
    private IntervalLogs logs;
    private boolean measureStarted;
    private long windowStartNs;

    IntervalTicker(EngineThreads engine, LatencyRecorder recorder, HiccupIntervals hiccups, WarmupWindows warmup,
                   SteadyJudge judge, Function<Long, IntervalLogs> openLogs, CostMeter cost, Runnable atMeasureStart,
                   PrintStream out, TickSchedule ticks, TrafficIntervals traffic) {
        this.engine = engine;
        this.recorder = recorder;
        this.hiccups = hiccups;
        this.warmup = warmup;
        this.judge = judge;
        this.openLogs = openLogs;
        this.cost = cost;
        this.atMeasureStart = atMeasureStart;
        this.out = out;
        this.windowStartNs = ticks.originNs();
        this.traffic = traffic;
    }

    @Override
    public void run() {
        long nowNs = System.nanoTime();
        long sinceMeasureStartNs = nowNs - engine.measureStartNs();
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
                logs = openLogs.apply(engine.measureStartNs());
            }
            // The warm-up's last interval: recorded only if requests came late into it; its hiccups are dropped.
            hiccups.interval();
            recorder.sampleWarmup();
            recorder.sampleInterval(logs, true);
            windowStartNs = nowNs;
            atMeasureStart.run();
            if (sinceMeasureStartNs < TimeUnit.MILLISECONDS.toNanos(100)) {
                return;
            }
        } else {
            sampleInterval();
        }
        RequestCounters counters = engine.counters();
        sustained.sample(sinceMeasureStartNs, counters.completedCount());
        // "answered" counts the warm-up's backlog too: a target working through it shows, where "sent" may stay at 0.
        out.printf(Locale.ROOT, "  %3ds  sent %d  completed %d  errors %d  p99 so far %.2f ms  answered %d%n",
                Math.round(sinceMeasureStartNs / 1e9), counters.sentCount(), counters.completedCount(),
                counters.errorCount(), recorder.responseTotal().getValueAtPercentile(99) / 1e6,
                counters.answeredInPhaseCount());
    }

    /** The interval since the last tick, latencies and hiccups alike, into the totals, the logs and the judge. */
    void sampleInterval() {
        long nowNs = System.nanoTime();
        Histogram hiccupInterval = hiccups.interval();
        if (measureStarted) {
            hiccups.addMeasured(hiccupInterval);
        }
        long lateAnswers = recorder.sampleWarmup().response().getTotalCount();
        Histogram response = recorder.sampleInterval(logs);
        if (measureStarted && windowStartNs < engine.measureEndNs()) {
            judge.measuredWindow(response.getTotalCount() + lateAnswers, response, hiccupInterval, windowStartNs,
                    Math.min(nowNs, engine.measureEndNs()));
        }
        windowStartNs = nowNs;
        if (logs != null && measureStarted) {
            logs.writeHiccups(hiccupInterval);
        }
        if (logs != null) {
            errors.write(logs, measureStarted, System.nanoTime() - engine.measureStartNs(), engine.counters().errors());
        }
    }

    /** Closes the logs; a run that ended before its measured phase leaves them empty. */
    void closeLogs() {
        if (logs == null && openLogs != null) {
            logs = openLogs.apply(engine.measureStartNs());
        }
        if (logs != null) {
            logs.close();
        }
    }

    SustainedRate sustained() {
        return sustained;
    }
}
