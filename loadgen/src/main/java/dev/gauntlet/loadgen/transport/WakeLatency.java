package dev.gauntlet.loadgen.transport;

import java.util.concurrent.TimeUnit;

/**
 * How late a sleeping thread wakes on this machine: a running estimate of one quantile of
 * (woken − asked). The median lets the event loop ask to be woken that much early; the p99 is the
 * finest wake granularity worth keeping, as no sleep is kept more closely. Not thread-safe.
 *
 * <pre>{@code
 * WakeLatency latency = WakeLatency.median();
 * long askNs = intendedStartNs - latency.estimateNs();
 * LockSupport.parkNanos(askNs - nowNs);
 * latency.sample(System.nanoTime() - askNs);
 * }</pre>
 *
 * <p>A frugal quantile: a sample above the estimate moves it up {@code q / (1 - q)} steps, one
 * below moves it down one, so it settles where a share {@code 1 - q} of the samples lie above. A
 * rare multi-millisecond hiccup moves it by steps, not by its size.
 */
final class WakeLatency {
    static final long STEP_NS = TimeUnit.MICROSECONDS.toNanos(1);
    /** Past this the platform is hiccuping, not waking late: the loop then polls rather than asks for more. */
    static final long MEDIAN_MAX_NS = TimeUnit.MICROSECONDS.toNanos(500);
    /** The coarsest wake granularity chosen for the open loop: wrk2's timer, whose CPU per request it matches. */
    static final long P99_MAX_NS = TimeUnit.MILLISECONDS.toNanos(1);
    /** Until measured: the timer slack Linux gives a normal thread. */
    static final long INITIAL_NS = TimeUnit.MICROSECONDS.toNanos(50);

    private final long upNs;
    private final long maxNs;
    private long estimateNs = INITIAL_NS;

    private WakeLatency(long upSteps, long maxNs) {
        this.upNs = upSteps * STEP_NS;
        this.maxNs = maxNs;
    }

    static WakeLatency median() {
        return new WakeLatency(1, MEDIAN_MAX_NS);
    }

    static WakeLatency p99() {
        return new WakeLatency(99, P99_MAX_NS);
    }

    long estimateNs() {
        return estimateNs;
    }

    void sample(long lateNs) {
        // Up no further than the sample that raised it: one late wake never overshoots every wake seen.
        long next = lateNs > estimateNs ? Math.min(estimateNs + upNs, lateNs) : estimateNs - STEP_NS;
        estimateNs = Math.clamp(next, 0, maxNs);
    }
}
