package dev.gauntlet.loadgen;

import org.HdrHistogram.Histogram;

import java.util.concurrent.TimeUnit;

/**
 * How many connections the adaptive open loop keeps, and how many it opens beyond that for
 * requests that wait. Not thread-safe: the event loop owns it.
 *
 * <pre>{@code
 * AdaptivePool pool = new AdaptivePool(ratePerSec, declaredWaitMs, maxConnections, runStartNs);
 * pool.onServiceTime(endNs - sendNs, endNs);                   // each response, warm-up included
 * while (open < pool.targetConnections()) open();               // opened ahead of need, in the warm-up
 * for (int n = pool.growBy(waiting, oldestQueuedNs, nowNs); n > 0; n--) open();
 * }</pre>
 *
 * <p>The target is Little's law with headroom: {@link #HEADROOM} × rate × the time a request holds
 * its connection. Before any response that is the wait the URL declares (a 1 s wait at 500/s needs
 * 500 connections busy at once, so the pool opens 1,000 during the warm-up, before the first
 * response could tell); then the median service time of the run so far (taken again every
 * {@link #ESTIMATE_EVERY_NS} and {@link #ESTIMATE_SAMPLES} responses). Never below
 * {@link #MIN_CONNECTIONS}, never above the connection limit, and it only grows. The median of the
 * whole run, not the mean or a short window's: a stall of the server or of the loop delays the
 * requests then in flight and the burst after it, which moves those (a pool sized by them would
 * balloon after every hiccup of a busy machine), not the run's median.
 *
 * <p>Beyond the target, once the oldest waiting request has waited {@link #GROW_AFTER_NS} since
 * the loop queued it (a loop that came late queues its due requests at once; they have not waited),
 * the pool grows at most once per {@link #GROW_AFTER_NS}: by one connection for each waiting request
 * while the target is answering (a response came within that time: the pool, not the target, is
 * short), by one only while it answers nothing (a stalled server gets a trickle of connections, not
 * one per request due during the stall).
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
    private long lastResponseNs;
    private long lastGrowNs;
    private boolean grown;
    private boolean answered;

    AdaptivePool(double ratePerSec, long declaredWaitMs, int maxConnections, long startNs) {
        this.ratePerSec = ratePerSec;
        this.maxConnections = maxConnections;
        this.estimatedNs = startNs;
        this.targetConnections = (int) Math.min(maxConnections,
                Math.max(MIN_CONNECTIONS, needed(TimeUnit.MILLISECONDS.toNanos(declaredWaitMs))));
    }

    /** Connections to keep open (connecting included). */
    int targetConnections() {
        return targetConnections;
    }

    void onServiceTime(long serviceNs, long nowNs) {
        serviceTimes.recordValue(Math.clamp(serviceNs, 0, LatencyRecorder.HIGHEST_TRACKABLE_NS));
        lastResponseNs = nowNs;
        answered = true;
        samplesSinceEstimate++;
        if (nowNs - estimatedNs >= ESTIMATE_EVERY_NS && samplesSinceEstimate >= ESTIMATE_SAMPLES) {
            long needed = needed(serviceTimes.getValueAtPercentile(50));
            targetConnections = (int) Math.max(targetConnections, Math.min(needed, maxConnections));
            estimatedNs = nowNs;
            samplesSinceEstimate = 0;
        }
    }

    /**
     * How many connections to open now beyond the target for {@code waiting} requests that have
     * no connect under way, the oldest queued at {@code oldestQueuedNs}; those opened join the
     * target, so a server that closes them gets them back.
     */
    int growBy(int waiting, long oldestQueuedNs, long nowNs) {
        if (waiting <= 0 || nowNs < nextGrowNs(oldestQueuedNs)) {
            return 0;
        }
        boolean answering = answered && nowNs - lastResponseNs < GROW_AFTER_NS;
        int more = Math.min(answering ? waiting : 1, maxConnections - targetConnections);
        grown = true;
        lastGrowNs = nowNs;
        targetConnections += Math.max(more, 0);
        return Math.max(more, 0);
    }

    /** When {@link #growBy} may next open connections if nothing else changes. */
    long nextGrowNs(long oldestQueuedNs) {
        long fromQueued = oldestQueuedNs + GROW_AFTER_NS;
        return grown ? Math.max(fromQueued, lastGrowNs + GROW_AFTER_NS) : fromQueued;
    }

    private long needed(long holdNs) {
        return (long) Math.ceil(HEADROOM * ratePerSec * holdNs / 1e9);
    }
}
