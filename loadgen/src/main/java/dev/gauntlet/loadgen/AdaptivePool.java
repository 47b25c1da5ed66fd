package dev.gauntlet.loadgen;

import org.HdrHistogram.Histogram;

import java.util.concurrent.TimeUnit;

/**
 * How many connections the adaptive open loop keeps, and when it may open one more than that.
 * Not thread-safe: the event loop owns it.
 *
 * <pre>{@code
 * AdaptivePool pool = new AdaptivePool(ratePerSec, maxConnections, runStartNs);
 * pool.onServiceTime(endNs - sendNs, endNs);                  // each response, warm-up included
 * while (open < pool.targetConnections()) open();              // opened ahead of need
 * if (pool.mayGrow(oldestQueuedNs, nowNs)) { open(); pool.grew(nowNs); }
 * }</pre>
 *
 * <p>The target is Little's law with headroom: {@link #HEADROOM} × rate × the median service time
 * of the run so far (taken again every {@link #ESTIMATE_EVERY_NS} and {@link #ESTIMATE_SAMPLES}
 * responses), never below {@link #MIN_CONNECTIONS}, never above the connection limit, and it only
 * grows. The median, not the mean, and of the whole run, not of the last moment: a stall of the
 * server or of the loop delays the requests then in flight and those sent in the burst after it,
 * which moves the mean and a short window's median (a pool sized by them would balloon after every
 * hiccup of a busy machine), not the run's median. A server that slows down for good moves it
 * once the slow responses are half of all; until then the pool grows as follows. Beyond the target
 * the pool grows by one connection every {@link #GROW_AFTER_NS} at most, while the oldest waiting
 * request has waited that long since the loop queued it: a loop that came late (its requests all
 * queued at once) does not count as waiting, and a stalled server gets a trickle of connections,
 * not one per request due during the stall.
 */
final class AdaptivePool {
    static final int MIN_CONNECTIONS = 16;
    static final double HEADROOM = 2;
    static final long GROW_AFTER_NS = TimeUnit.MILLISECONDS.toNanos(10);
    static final long ESTIMATE_EVERY_NS = TimeUnit.MILLISECONDS.toNanos(100);
    static final int ESTIMATE_SAMPLES = 8;

    private final double ratePerSec;
    private final int maxConnections;
    /** Two significant digits are plenty for a median. */
    private final Histogram serviceTimes = new Histogram(LatencyRecorder.HIGHEST_TRACKABLE_NS, 2);
    private long estimatedNs;
    private int samplesSinceEstimate;
    private int targetConnections;
    private long lastGrowNs;
    private boolean grown;

    AdaptivePool(double ratePerSec, int maxConnections, long startNs) {
        this.ratePerSec = ratePerSec;
        this.maxConnections = maxConnections;
        this.estimatedNs = startNs;
        this.targetConnections = Math.min(MIN_CONNECTIONS, maxConnections);
    }

    /** Connections to keep open (connecting included). */
    int targetConnections() {
        return targetConnections;
    }

    void onServiceTime(long serviceNs, long nowNs) {
        serviceTimes.recordValue(Math.clamp(serviceNs, 0, LatencyRecorder.HIGHEST_TRACKABLE_NS));
        samplesSinceEstimate++;
        if (nowNs - estimatedNs >= ESTIMATE_EVERY_NS && samplesSinceEstimate >= ESTIMATE_SAMPLES) {
            long medianNs = serviceTimes.getValueAtPercentile(50);
            long needed = (long) Math.ceil(HEADROOM * ratePerSec * medianNs / 1e9);
            targetConnections = (int) Math.max(targetConnections, Math.min(needed, maxConnections));
            estimatedNs = nowNs;
            samplesSinceEstimate = 0;
        }
    }

    /** Whether one more connection may open beyond the target, for a request queued at {@code oldestQueuedNs}. */
    boolean mayGrow(long oldestQueuedNs, long nowNs) {
        return nowNs >= nextGrowNs(oldestQueuedNs);
    }

    /** When {@link #mayGrow} turns true if nothing else changes. */
    long nextGrowNs(long oldestQueuedNs) {
        long fromQueued = oldestQueuedNs + GROW_AFTER_NS;
        return grown ? Math.max(fromQueued, lastGrowNs + GROW_AFTER_NS) : fromQueued;
    }

    void grew(long nowNs) {
        grown = true;
        lastGrowNs = nowNs;
    }
}
