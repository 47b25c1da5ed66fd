package dev.gauntlet.loadgen.transport;

import dev.gauntlet.api.LoadModel;
import dev.gauntlet.api.LoadSpec;
import dev.gauntlet.loadgen.model.LoadDriver;

/**
 * When the lean transport opens a connection for requests that wait, by the driver's
 * {@link LoadModel.ConnectionPolicy}: a fixed pool kept at its size; an adaptive pool
 * ({@link AdaptivePool}) kept at its estimate and grown while requests wait; or, unbounded, one
 * connection for each waiting request that has none on the way. A connection is not bound to the
 * request it was opened for: whichever frees up or connects first takes the oldest waiting
 * request, so a slow connect never delays a request that a busy connection could serve sooner.
 * Decides only; the event loop opens. Single-threaded.
 */
final class ConnectionOpening {
    /**
     * Connects in progress at most, unless the driver asks for more (a held burst). On loopback a connect takes well
     * under a millisecond, so this never binds a healthy run; it stops a generator that fell behind (or a server that
     * stopped accepting) from turning every waiting request into one more connect, which only makes both sides fall
     * further behind. Requests keep their intended starts while they wait.
     */
    static final int MAX_CONNECTING = 32;

    private final LoadModel.ConnectionPolicy policy;
    private final int maxConnections;
    /** The fixed pool's size; 0 for the other policies. */
    private final int poolConnections;
    /** The adaptive policy's sizing; null for the others. */
    private final AdaptivePool adaptive;
    private final int maxConnecting;

    ConnectionOpening(LoadSpec spec, LoadDriver driver, int maxConnections) {
        this.policy = driver.waitingPolicy();
        this.maxConnections = maxConnections;
        this.maxConnecting = driver.connectsAtOnce(MAX_CONNECTING);
        this.poolConnections = policy == LoadModel.ConnectionPolicy.FIXED ? maxConnections : 0;
        this.adaptive = policy == LoadModel.ConnectionPolicy.ADAPTIVE
                ? new AdaptivePool(spec.model().scheduledRatePerSec(), spec.declaredWaitMs(), maxConnections, driver.phases().runStartNs()) : null;
    }

    /** Whether another connect may start while {@code connecting} are under way. */
    boolean mayConnectMore(int connecting) {
        return connecting < maxConnecting;
    }

    /** Adaptive: whether requests wait with no connect under way for them, the pool full and room under the limit. */
    boolean mayGrow(int waiting, int connecting, int open) {
        return adaptive != null && waiting > connecting && open < maxConnections && open >= adaptive.targetConnections();
    }

    /** Adaptive: grows the pool for the requests that wait, as {@link AdaptivePool#growBy} says. */
    void grow(int waiting, int connecting, int open, long oldestWaitingSinceNs, long oldestConnectAgeNs, long nowNs) {
        adaptive.growBy(waiting - connecting, open - connecting, oldestWaitingSinceNs, oldestConnectAgeNs, nowNs);
    }

    /** Adaptive: when the pool may next grow for the oldest waiting request. */
    long nextGrowNs(long oldestWaitingSinceNs) {
        return adaptive.nextGrowNs(oldestWaitingSinceNs);
    }

    /** Whether one more connection opens now; a pool refills no sooner than {@code backoffUntilNs}. */
    boolean another(int waiting, int connecting, int open, long nowNs, long backoffUntilNs) {
        if (policy == LoadModel.ConnectionPolicy.UNBOUNDED) {
            return waiting > connecting && open < maxConnections;
        }
        return open < poolTarget() && nowNs >= backoffUntilNs;
    }

    /** The connections a pool keeps open: 0 when connections open per waiting request instead. */
    int poolTarget() {
        return adaptive != null ? Math.min(adaptive.targetConnections(), maxConnections) : poolConnections;
    }

    /** Whether each waiting request gets a connection of its own. */
    boolean perWaitingRequest() {
        return policy == LoadModel.ConnectionPolicy.UNBOUNDED;
    }

    void onConnected(long connectNs) {
        if (adaptive != null) {
            adaptive.onConnected(connectNs);
        }
    }

    void onServiceTime(long serviceNs, long endNs) {
        if (adaptive != null) {
            adaptive.onServiceTime(serviceNs, endNs);
        }
    }
}
