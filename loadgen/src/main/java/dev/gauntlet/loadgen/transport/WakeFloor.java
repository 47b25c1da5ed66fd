package dev.gauntlet.loadgen.transport;

import java.util.concurrent.TimeUnit;

/**
 * The platform's wake-up p99 as the generator's hiccup meter measured it over its last second:
 * the floor every figure of the run is judged against, and the open loop's wake granularity by
 * default. Lateness within it is lateness the platform imposes anyway, so sending by the batch at
 * that granularity changes no figure beyond what the verdict already calls the platform's. Written
 * by the interval ticker, read by the engines' loops.
 */
public final class WakeFloor {
    /** The coarsest granularity taken from it: wrk2's timer, past which a noisy platform gets no coarser. */
    static final long MAX_GRANULARITY_NS = TimeUnit.MILLISECONDS.toNanos(1);

    /** 0 until the first second is measured: until then the loop wakes for each intended start. */
    private volatile long p99Ns;

    public void measured(long p99Ns) {
        this.p99Ns = Math.max(0, p99Ns);
    }

    /** The granularity it sets: its p99, 1 ms at most. */
    long granularityNs() {
        return Math.min(p99Ns, MAX_GRANULARITY_NS);
    }
}
