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
 * of the last window (at least {@link #WINDOW_NS} and {@link #WINDOW_SAMPLES} responses), never
 * below {@link #MIN_CONNECTIONS}, never above the connection limit, and it only grows. The median,
 * not the mean: a stall of the server or of the loop delays the few requests then in flight,
 * which moves the mean and not the median, so a stall does not grow the pool. Beyond the target
 * the pool grows by one connection every {@link #GROW_AFTER_NS} at most, while the oldest waiting
 * request has waited that long since the loop queued it: a loop that came late (its requests all
 * queued at once) does not count as waiting, and a stalled server gets a trickle of connections,
 * not one per request due during the stall.
 */
final class AdaptivePool {
    static final int MIN_CONNECTIONS = 16;
    static final double HEADROOM = 2;
    static final long GROW_AFTER_NS = TimeUnit.MILLISECONDS.toNanos(10);
    static final long WINDOW_NS = TimeUnit.MILLISECONDS.toNanos(100);
    static final int WINDOW_SAMPLES = 8;

    private final double ratePerSec;
    private final int maxConnections;
    /** Two significant digits are plenty for a median; the window is reset once read. */
    private final Histogram window = new Histogram(LatencyRecorder.HIGHEST_TRACKABLE_NS, 2);
    private long windowStartNs;
    private int targetConnections;
    private long lastGrowNs;
    private boolean grown;

    AdaptivePool(double ratePerSec, int maxConnections, long startNs) {
        this.ratePerSec = ratePerSec;
        this.maxConnections = maxConnections;
        this.windowStartNs = startNs;
        this.targetConnections = Math.min(MIN_CONNECTIONS, maxConnections);
    }

    /** Connections to keep open (connecting included). */
    int targetConnections() {
        return targetConnections;
    }

    void onServiceTime(long serviceNs, long nowNs) {
        window.recordValue(Math.clamp(serviceNs, 0, LatencyRecorder.HIGHEST_TRACKABLE_NS));
        if (nowNs - windowStartNs >= WINDOW_NS && window.getTotalCount() >= WINDOW_SAMPLES) {
            long medianNs = window.getValueAtPercentile(50);
            long needed = (long) Math.ceil(HEADROOM * ratePerSec * medianNs / 1e9);
            targetConnections = (int) Math.max(targetConnections, Math.min(needed, maxConnections));
            window.reset();
            windowStartNs = nowNs;
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
