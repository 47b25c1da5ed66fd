package dev.gauntlet.loadgen.run;

import dev.gauntlet.hiccup.HiccupMeter;
import dev.gauntlet.loadgen.measure.LatencyRecorder;
import org.HdrHistogram.Histogram;

/**
 * The platform's hiccups a tick at a time: each interval's histogram, whose p99 becomes the engines'
 * wake floor for the next second, and the measured phase's total. The interval thread's alone.
 */
final class HiccupIntervals {
    private final HiccupMeter hiccups;
    private final EngineThreads engine;
    private final Histogram total = LatencyRecorder.newHistogram();

    HiccupIntervals(HiccupMeter hiccups, EngineThreads engine) {
        this.hiccups = hiccups;
        this.engine = engine;
    }

    /** The hiccups since the last tick; their p99 is the engines' wake floor for the next second. */
    Histogram interval() {
        Histogram interval = hiccups.intervalHistogram(); // a sample a millisecond: never empty
        engine.wakeFloor().measured(interval.getValueAtPercentile(99));
        return interval;
    }

    /** An interval of the measured phase, into its total. */
    void addMeasured(Histogram interval) {
        total.add(interval);
    }

    Histogram total() {
        return total;
    }
}
