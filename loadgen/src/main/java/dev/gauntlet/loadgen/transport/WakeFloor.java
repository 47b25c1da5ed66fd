package dev.gauntlet.loadgen.transport;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The platform's wake-up p99 as the generator's hiccup meter measured it over its last second:
 * the floor every figure of the run is judged against, and the open loop's wake granularity by
 * default. Lateness within it is lateness the platform imposes anyway, so sending by the batch at
 * that granularity changes no figure beyond what the verdict already calls the platform's. Written
 * by the interval ticker, read by the engines' loops, and at the run's end for what was in force
 * over its measured phase.
 */
public final class WakeFloor {
    /** The coarsest granularity taken from it: wrk2's timer, past which a noisy platform gets no coarser. */
    static final long MAX_GRANULARITY_NS = TimeUnit.MILLISECONDS.toNanos(1);

    /** 0 until the first second is measured: until then the loop wakes for each intended start. */
    private volatile long p99Ns;
    /** Each granularity set and from when, in time order. */
    private final List<Setting> settings = new ArrayList<>();

    private record Setting(long fromNs, long granularityNs) {
    }

    public synchronized void measured(long p99Ns) {
        this.p99Ns = Math.max(0, p99Ns);
        settings.add(new Setting(System.nanoTime(), granularityNs()));
    }

    /** The granularity it sets now: its p99, 1 ms at most. */
    long granularityNs() {
        return Math.min(p99Ns, MAX_GRANULARITY_NS);
    }

    /**
     * The coarsest granularity in force at some time from {@code fromNs} to {@code toNs}: the
     * lateness the loops allowed themselves over that span (a measured phase).
     */
    public synchronized long largestNs(long fromNs, long toNs) {
        long largest = 0;
        for (Setting setting : settings) {
            if (setting.fromNs() > toNs) {
                break;
            }
            // The last one set before the span is in force as it begins; those set within it count too.
            largest = setting.fromNs() <= fromNs ? setting.granularityNs() : Math.max(largest, setting.granularityNs());
        }
        return largest;
    }
}
