package dev.gauntlet.loadgen.transport;

import dev.gauntlet.loadgen.measure.LatencyRecorder;
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
 * the pool grows at most once per {@link #GROW_AFTER_NS}. Where requests hold their connections
 * that long or longer (a median service time of {@link #GROW_AFTER_NS} or more: a declared wait),
 * while the target is answering (a response came within that time, or within ten of the rate's mean
 * gaps when those are longer), keeps to the declared wait (every answer since the last growth within
 * it plus {@link #PROMPT_CONNECT_NS} or a tenth of it) and accepts promptly (every connect since the
 * last growth, and any still under way, within {@link #PROMPT_CONNECT_NS}), it grows by the waiting requests that the
 * open connections, each freeing once per median service time, would not send within the next
 * {@link #GROW_AFTER_NS}, {@link #MAX_GROW_STEP} at a time: behind a 1 s wait that is nearly every
 * waiting request, and the pool, not the target, is short. Otherwise it grows by one, when no connect
 * is under way. Behind short
 * answers a queue is a moment's (a hiccup of the loop or of the server) and the connections free
 * within it: at 50k/s, one connection per waiting request grew the pool to thousands of connections
 * whose upkeep made the loop later still. A stalled server, or one too busy to accept, gets a
 * trickle of connections, not one per request due meanwhile (each connect it must accept would only
 * put it further behind).
 */
final class AdaptivePool {
    static final int MIN_CONNECTIONS = 16;
    static final double HEADROOM = 2;
    static final long GROW_AFTER_NS = TimeUnit.MILLISECONDS.toNanos(10);
    static final long ESTIMATE_EVERY_NS = TimeUnit.MILLISECONDS.toNanos(100);
    static final int ESTIMATE_SAMPLES = 8;
    static final long PROMPT_CONNECT_NS = TimeUnit.MILLISECONDS.toNanos(5);
    static final int MAX_GROW_STEP = 32;

    private final double ratePerSec;
    private final int maxConnections;
    /** A target is answering while a response came within this: {@link #GROW_AFTER_NS}, or ten of the rate's gaps. */
    private final long answeringWindowNs;
    /** Two significant digits are plenty for a median. */
    private final Histogram serviceTimes = new Histogram(LatencyRecorder.HIGHEST_TRACKABLE_NS, 2);
    private long estimatedNs;
    private int samplesSinceEstimate;
    private int targetConnections;
    private long lastResponseNs;
    private long lastGrowNs;
    private boolean grown;
    private boolean answered;
    private long slowestConnectSinceGrowNs;
    private long slowestServiceSinceGrowNs;
    /** An answer slower than this is the target falling behind, not the pool being short. */
    private final long keptWaitNs;

    AdaptivePool(double ratePerSec, long declaredWaitMs, int maxConnections, long startNs) {
        this.ratePerSec = ratePerSec;
        this.maxConnections = maxConnections;
        this.answeringWindowNs = Math.max(GROW_AFTER_NS, (long) (10 * 1e9 / ratePerSec));
        long declaredWaitNs = TimeUnit.MILLISECONDS.toNanos(declaredWaitMs);
        this.keptWaitNs = declaredWaitNs + Math.max(PROMPT_CONNECT_NS, declaredWaitNs / 10);
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
        slowestServiceSinceGrowNs = Math.max(slowestServiceSinceGrowNs, serviceNs);
        samplesSinceEstimate++;
        if (nowNs - estimatedNs >= ESTIMATE_EVERY_NS && samplesSinceEstimate >= ESTIMATE_SAMPLES) {
            long needed = needed(serviceTimes.getValueAtPercentile(50));
            targetConnections = (int) Math.max(targetConnections, Math.min(needed, maxConnections));
            estimatedNs = nowNs;
            samplesSinceEstimate = 0;
        }
    }

    /** A connect the pool asked for was established after {@code connectNs}. */
    void onConnected(long connectNs) {
        slowestConnectSinceGrowNs = Math.max(slowestConnectSinceGrowNs, connectNs);
    }

    /**
     * How many connections to open now beyond the {@code openConnections}, all busy, for
     * {@code waiting} requests that have no connect under way, the oldest queued at
     * {@code oldestQueuedNs}, while the oldest connect still under way began {@code connectingForNs}
     * ago (0: none under way); those opened join the target, so a server that closes them gets them back.
     */
    int growBy(int waiting, int openConnections, long oldestQueuedNs, long connectingForNs, long nowNs) {
        if (waiting <= 0 || nowNs < nextGrowNs(oldestQueuedNs)) {
            return 0;
        }
        boolean answering = answered && nowNs - lastResponseNs < answeringWindowNs;
        boolean accepting = Math.max(slowestConnectSinceGrowNs, connectingForNs) <= PROMPT_CONNECT_NS;
        boolean keepingWait = slowestServiceSinceGrowNs <= keptWaitNs;
        grown = true;
        lastGrowNs = nowNs;
        slowestConnectSinceGrowNs = 0;
        slowestServiceSinceGrowNs = 0;
        long medianNs = serviceTimes.getValueAtPercentile(50);
        long shortfall = answering && keepingWait && accepting && medianNs >= GROW_AFTER_NS
                ? Math.min(MAX_GROW_STEP, waiting - (long) Math.floor(openConnections * (double) GROW_AFTER_NS / medianNs))
                : connectingForNs == 0 ? 1 : 0;
        int more = (int) Math.clamp(shortfall, 0, Math.min(waiting, maxConnections - targetConnections));
        targetConnections += more;
        return more;
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
