package dev.gauntlet.loadgen.run;

import dev.gauntlet.loadgen.measure.TargetWatch;

import java.util.Locale;

/**
 * The warm-up's side of the interval ticker: each second of the warm-up to the steady-state judge,
 * and, when it settled (or the target falls behind the offered rate), the measured phase's start at
 * the next tick; one progress line a second.
 *
 * @param target the target's admin port, whose JIT activity the judge weighs; null when none was given
 */
record WarmupWindows(TickSources sources, TargetWatch target) {
    /** How long a tick of the warm-up waits for the target's JIT activity before it judges the window without it. */
    private static final long JIT_POLL_WAIT_MS = 200;

    /**
     * A second of the warm-up, from {@code windowStartNs} to {@code nowNs}, to the judge; when it settled, the
     * measured phase starts at the next tick.
     */
    void close(long windowStartNs, long nowNs, long sinceMeasureStartNs) {
        if (target != null) {
            target.pollJit(JIT_POLL_WAIT_MS);
        }
        sources.judge().warmupWindow(sources.recorder().sampleWarmup(), sources.hiccups().interval(), windowStartNs, nowNs);
        if (!sources.engine().warmupUntilSteady()) {
            sources.progress().printf(Locale.ROOT, "  warm-up %ds to go%n", Math.round(-sinceMeasureStartNs / 1e9));
            return;
        }
        long nextTickNs = sources.ticks().nextAfter(nowNs);
        boolean settled = sources.judge().settled();
        if (nextTickNs >= sources.ticks().minWarmupEndNs() && (settled || sources.judge().fallingBehind())) {
            sources.engine().startMeasuringAt(nextTickNs);
            sources.progress().printf(Locale.ROOT, "  warm-up %s after %.0f s: measuring from the next second%n",
                    settled ? "settled" : "ended unsettled (the target falls behind the offered rate)",
                    (nextTickNs - sources.ticks().originNs()) / 1e9);
        } else {
            sources.progress().printf(Locale.ROOT, "  warm-up until steady, %ds at most to go: %s%n",
                    Math.round(-sinceMeasureStartNs / 1e9), sources.judge().unsettledReason());
        }
    }
}
