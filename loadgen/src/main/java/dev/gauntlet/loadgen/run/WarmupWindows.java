package dev.gauntlet.loadgen.run;

import dev.gauntlet.loadgen.measure.LatencyRecorder;
import dev.gauntlet.loadgen.measure.SteadyJudge;
import dev.gauntlet.loadgen.measure.TargetWatch;

import java.io.PrintStream;
import java.util.Locale;

/**
 * The warm-up's side of the interval ticker: each second of the warm-up to the steady-state judge,
 * and, when it settled (or the target falls behind the offered rate), the measured phase's start at
 * the next tick; one progress line a second.
 */
final class WarmupWindows {
    /** How long a tick of the warm-up waits for the target's JIT activity before it judges the window without it. */
    private static final long JIT_POLL_WAIT_MS = 200;

    private final EngineThreads engine;
    private final LatencyRecorder recorder;
    private final HiccupIntervals hiccups;
    private final SteadyJudge judge;
    private final TargetWatch target;
    private final TickSchedule ticks;
    private final PrintStream out;

    WarmupWindows(EngineThreads engine, LatencyRecorder recorder, HiccupIntervals hiccups, SteadyJudge judge,
                  TargetWatch target, TickSchedule ticks, PrintStream out) {
        this.engine = engine;
        this.recorder = recorder;
        this.hiccups = hiccups;
        this.judge = judge;
        this.target = target;
        this.ticks = ticks;
        this.out = out;
    }

    /**
     * A second of the warm-up, from {@code windowStartNs} to {@code nowNs}, to the judge; when it settled, the
     * measured phase starts at the next tick.
     */
    void close(long windowStartNs, long nowNs, long sinceMeasureStartNs) {
        if (target != null) {
            target.pollJit(JIT_POLL_WAIT_MS);
        }
        judge.warmupWindow(recorder.sampleWarmup(), hiccups.interval(), windowStartNs, nowNs);
        if (!engine.warmupUntilSteady()) {
            out.printf(Locale.ROOT, "  warm-up %ds to go%n", Math.round(-sinceMeasureStartNs / 1e9));
            return;
        }
        long nextTickNs = ticks.nextAfter(nowNs);
        boolean settled = judge.settled();
        if (nextTickNs >= ticks.minWarmupEndNs() && (settled || judge.fallingBehind())) {
            engine.startMeasuringAt(nextTickNs);
            out.printf(Locale.ROOT, "  warm-up %s after %.0f s: measuring from the next second%n", settled ? "settled"
                    : "ended unsettled (the target falls behind the offered rate)", (nextTickNs - ticks.originNs()) / 1e9);
        } else {
            out.printf(Locale.ROOT, "  warm-up until steady, %ds at most to go: %s%n",
                    Math.round(-sinceMeasureStartNs / 1e9), judge.unsettledReason());
        }
    }
}
