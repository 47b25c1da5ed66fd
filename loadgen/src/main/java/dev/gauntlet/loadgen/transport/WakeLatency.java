package dev.gauntlet.loadgen.transport;

import java.util.concurrent.TimeUnit;

/**
 * How late a sleeping thread wakes on this machine: a running estimate of the median of
 * (woken − asked), so the event loop can ask to be woken that much early. Not thread-safe.
 *
 * <pre>{@code
 * long askNs = intendedStartNs - landingNs - latency.estimateNs();
 * LockSupport.parkNanos(askNs - nowNs);
 * latency.sample(System.nanoTime() - askNs);
 * }</pre>
 *
 * <p>A frugal median: each sample moves the estimate one {@link #STEP_NS} towards it, so a rare
 * multi-millisecond hiccup moves it by a step and not by its size.
 */
final class WakeLatency {
    static final long STEP_NS = TimeUnit.MICROSECONDS.toNanos(1);
    /** Past this the platform is hiccuping, not waking late: the loop then polls rather than asks for more. */
    static final long MAX_NS = TimeUnit.MICROSECONDS.toNanos(500);
    /** Until measured: the timer slack Linux gives a normal thread. */
    static final long INITIAL_NS = TimeUnit.MICROSECONDS.toNanos(50);

    private long estimateNs = INITIAL_NS;

    long estimateNs() {
        return estimateNs;
    }

    void sample(long lateNs) {
        estimateNs = Math.clamp(estimateNs + (lateNs > estimateNs ? STEP_NS : -STEP_NS), 0, MAX_NS);
    }
}
