package dev.gauntlet.api;

import java.util.Locale;

/**
 * When a run's warm-up has lasted long enough: its measured phase starts once the target has
 * settled, not after a fixed time. The generator judges one-second windows of the warm-up; the
 * warm-up ends at the first window boundary, after the spec's {@code warmupMs} (the minimum), at
 * which the last {@code 2 × windows} windows agree:
 * <ul>
 *   <li>closed loop: the last {@code windows} windows' throughput lies within ± {@code tolerancePercent}
 *       of its mean, and that mean within half the tolerance of the mean of the {@code windows} before
 *       them, so that a slow climb does not pass for a plateau;</li>
 *   <li>open loop: the same of their median response time, and the generator's lateness p99 lies
 *       within the tolerance; each also passes within what the platform's hiccups explain. Not the p99:
 *       a steady target's GC pauses move it from one second to the next. An open loop whose target
 *       completes under 90 % of the rate for {@code 2 × windows} seconds ends its warm-up unsettled
 *       there: a longer one would only lengthen its backlog;</li>
 *   <li>either: the JIT compilers of the target and of the generator were nearly idle in the last
 *       {@code windows} windows: at most {@link #SETTLED_JIT_QUEUE} methods queued at the end of each, and
 *       at most {@link #COMPILE_SHARE} of their time compiling, so that a plateau while the compilers
 *       are starved of CPU does not pass for the steady state.</li>
 * </ul>
 * At {@code maxMs} the measured phase starts anyway, and the run says it did not settle.
 *
 * <pre>{@code
 * LoadSpec spec = LoadSpec.of(url, new LoadModel.ClosedLoop(100)).toBuilder()
 *         .warmupMs(2_000).steady(new SteadyRule(30_000, 3, 10)).build();
 * }</pre>
 *
 * @param maxMs            the warm-up's maximum, in whole seconds past its minimum (rounded up)
 * @param windows          how many consecutive one-second windows must agree (twice as many are judged), at least 2
 * @param tolerancePercent how far from their mean the windows may lie, in percent; also how far the
 *                         measured phase's halves, and a scenario's repetitions, may differ and still be steady
 */
public record SteadyRule(long maxMs, int windows, double tolerancePercent) {
    public static final long WINDOW_MS = 1_000;
    public static final int DEFAULT_WINDOWS = 3;
    public static final double DEFAULT_TOLERANCE_PERCENT = 10;
    /**
     * Share of the judged windows' time either side's JIT may have compiled in while they count as
     * settled: a JIT still at work on most of a CPU is not done, while at a low rate it trickles on for
     * a long time (jetty-handler-virtual at 500 requests/s: 7 % after 10 s, its queue near empty and
     * its latency flat), which is no reason to call the figures unsteady.
     */
    public static final double COMPILE_SHARE = 0.2;
    /** Methods either side's JIT may have queued (or in compilation) at the end of a judged window while it counts as settled. */
    public static final int SETTLED_JIT_QUEUE = 10;

    /** A {@code windows} or {@code tolerancePercent} of 0 (left out of a suite file) is the default. */
    public SteadyRule {
        windows = windows == 0 ? DEFAULT_WINDOWS : windows;
        tolerancePercent = tolerancePercent == 0 ? DEFAULT_TOLERANCE_PERCENT : tolerancePercent;
        if (maxMs <= 0) {
            throw new IllegalArgumentException("the warm-up's maximum must be > 0 ms, got " + maxMs);
        }
        if (windows < 2 || windows > 60) {
            throw new IllegalArgumentException("a steady state is judged on 2 to 60 windows, got " + windows);
        }
        if (!(tolerancePercent > 0 && tolerancePercent <= 100)) {
            throw new IllegalArgumentException("the steady-state tolerance must be above 0 and at most 100 %, got "
                    + tolerancePercent);
        }
    }

    /** The warm-up's maximum for a minimum of {@code minMs}: whole windows past it, so that it ends on a window's edge. */
    public long maxMsFrom(long minMs) {
        long beyond = Math.max(0, maxMs - minMs);
        return minMs + (beyond + WINDOW_MS - 1) / WINDOW_MS * WINDOW_MS;
    }

    /** The rule in words, for a warm-up of at least {@code minMs}. */
    public String describe(long minMs) {
        return String.format(Locale.ROOT, "the last %d one-second windows within ±%s %% of their mean and that mean "
                + "within ±%s %% of the %d windows' before (throughput; open loop: p50 and lateness, or what the "
                + "platform's hiccups explain), both sides' JIT with at most %d methods queued and compiling under %.0f %% "
                + "of the time; at least %s s, at most %s s",
                windows, Numbers.compact(tolerancePercent), Numbers.compact(tolerancePercent / 2), windows,
                SETTLED_JIT_QUEUE, COMPILE_SHARE * 100, Numbers.compact(minMs / 1000.0), Numbers.compact(maxMsFrom(minMs) / 1000.0));
    }
}
