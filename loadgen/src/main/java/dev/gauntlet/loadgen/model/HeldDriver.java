package dev.gauntlet.loadgen.model;

import dev.gauntlet.api.LoadModel;
import dev.gauntlet.api.LoadSpec;
import dev.gauntlet.api.RunSummary;
import dev.gauntlet.loadgen.measure.LatencyRecorder;
import dev.gauntlet.loadgen.measure.PhaseClock;
import dev.gauntlet.loadgen.measure.RequestCounters;

import java.util.function.Supplier;

/**
 * Max concurrency: one request at a time in the warm-up; at the start of the measured phase the
 * warm-up's is let go and N requests start at once, each intended then, each waiting for capacity
 * of its own; an answered one is followed by the next on its capacity, a failed one is not. At
 * the end of the measured phase: what is held and what the server says, then every request is let
 * go uncounted. The burst connects as fast as the target accepts ({@link #connectsAtOnce}), and a connect
 * that times out is tried again while the phase lasts: what is not held by its end is the target's limit,
 * or, with the generator's CPU as evidence, the generator's.
 */
final class HeldDriver extends LoadDriver {
    /**
     * Connects under way at once during the burst: as many as a listen backlog holds (Linux's somaxconn
     * default), so the target's accepting, not the generator's pacing, sets how fast the burst connects. With
     * the lean engine's usual 32 a target answering connects in 14 ms on average took on 18,049 of 19,000 in 8 s.
     */
    static final int BURST_CONNECTS_AT_ONCE = 4096;
    private final int requests;
    private final Supplier<RunSummary.ServerStats> serverStats;
    private boolean burstSent;
    private RunSummary.ServerStats serverAtStart;
    private RunSummary.Concurrency concurrency;

    /** @param serverStats fetches the target's {@code /stats}; null when the spec names no admin URL */
    HeldDriver(LoadModel.MaxConcurrency model, LoadSpec spec, long runStartNs, PhaseClock clock,
               LatencyRecorder.Writer recorder, RequestCounters counters, Supplier<RunSummary.ServerStats> serverStats) {
        super(new Phases(spec, runStartNs, clock, null), recorder, counters, spec);
        this.requests = model.requests();
        this.serverStats = serverStats;
    }

    @Override
    public int capacity(int machineLimit) {
        return requests;
    }

    @Override
    public int connectsAtOnce(int usual) {
        return Math.max(usual, BURST_CONNECTS_AT_ONCE);
    }

    @Override
    public boolean retriesConnectTimeouts() {
        return burstSent && phases.issuing();
    }

    /** The burst waits whole for its connections: it must never be cut. */
    @Override
    public int waitingCapacity(int pendingLimit) {
        return Math.max(pendingLimit, requests);
    }

    @Override
    public void issue(long nowNs) {
        if (nowNs < phases.measureStartNs()) {
            keepInFlight(1, nowNs);
        } else if (!burstSent) {
            sendBurst(nowNs);
        } else {
            phases.keepIssuing(nowNs);
        }
    }

    /** All N requests at once, each intended at the start of the measured phase. */
    private void sendBurst(long nowNs) {
        burstSent = true;
        if (serverStats != null) {
            serverAtStart = serverStats.get();
        }
        // The warm-up's request goes uncounted: the burst is N requests on fresh capacity of their own.
        transport.letGo();
        long measureStartNs = phases.measureStartNs();
        for (int i = 0; i < requests; i++) {
            // A transport that starts a thread per request can take longer than the phase: what is not
            // started by its end never is, and the held count says how far the burst got.
            if (System.nanoTime() >= phases.measureEndNs() || Thread.currentThread().isInterrupted()) {
                return;
            }
            phases.begin(measureStartNs);
            transport.dispatch(measureStartNs, nowNs);
        }
    }

    @Override
    public boolean nextOnFreed(long nowNs) {
        if (!phases.keepIssuing(nowNs) || (nowNs >= phases.measureStartNs()) != burstSent) {
            return false;
        }
        phases.begin(nowNs);
        return true;
    }

    @Override
    public boolean finished() {
        if (burstSent && !phases.issuing()) {
            endHold();
            return true;
        }
        return phases.done();
    }

    /** At the end of the measured phase: what is held, what the server says, then the held go. */
    private void endHold() {
        transport.receive();
        RunSummary.ServerStats serverAtEnd = serverStats == null ? null : serverStats.get();
        concurrency = new RunSummary.Concurrency(transport.connected(), transport.inFlight(), transport.connectRetries(),
                serverAtStart, serverAtEnd);
        transport.letGo();
    }

    @Override
    public RunSummary.Concurrency concurrency() {
        return concurrency;
    }
}
