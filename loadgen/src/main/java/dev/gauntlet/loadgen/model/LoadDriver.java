package dev.gauntlet.loadgen.model;

import dev.gauntlet.api.LoadModel;
import dev.gauntlet.api.LoadSpec;
import dev.gauntlet.api.RunSummary;
import dev.gauntlet.loadgen.measure.LatencyRecorder;
import dev.gauntlet.loadgen.measure.PhaseClock;
import dev.gauntlet.loadgen.measure.RequestCounters;

import java.util.function.Supplier;

/**
 * One load model's side of a run, whatever transport carries its requests: when each request is
 * intended to start, the phases, a held model's burst and hold, and how each request's end is
 * judged ({@link RequestJudge}). A transport's loop asks it each round what to send and when to
 * wake next, and tells it when capacity frees up; it never touches a socket or a library.
 * Single-threaded: the transport's loop owns it.
 *
 * <pre>{@code
 * LoadDriver driver = LoadDriver.of(spec, runStartNs, clock, recorder, counters, serverStats);
 * driver.start(transport);
 * while (!driver.finished()) { driver.issue(nowNs); wait(driver.nextWakeNs(nowNs)); }
 * }</pre>
 */
public abstract sealed class LoadDriver permits OpenLoopDriver, ClosedLoopDriver, HeldDriver {
    final Phases phases;
    final RequestJudge judge;
    Transport transport;

    LoadDriver(Phases phases, LatencyRecorder.Writer recorder, RequestCounters counters, LoadSpec spec) {
        this.phases = phases;
        this.judge = new RequestJudge(spec, phases, recorder, counters);
    }

    /**
     * The driver of {@code spec}'s model.
     *
     * @param serverStats fetches the target's {@code /stats} for a held model's figures; null when none
     */
    public static LoadDriver of(LoadSpec spec, long runStartNs, PhaseClock clock, LatencyRecorder.Writer recorder,
                         RequestCounters counters, Supplier<RunSummary.ServerStats> serverStats) {
        return switch (spec.model()) {
            case LoadModel.OpenLoop open -> new OpenLoopDriver(open, spec, runStartNs, clock, recorder, counters);
            case LoadModel.ClosedLoop closed -> new ClosedLoopDriver(closed, spec, runStartNs, clock, recorder, counters);
            case LoadModel.MaxConcurrency held -> new HeldDriver(held, spec, runStartNs, clock, recorder, counters, serverStats);
        };
    }

    /** Binds the transport, as its loop starts. */
    public void start(Transport transport) {
        this.transport = transport;
    }

    /** Requests (for the lean transport: connections) in flight at once at most, given what the machine allows. */
    public abstract int capacity(int machineLimit);

    /** Requests waiting for capacity at most, given the process's share {@code pendingLimit}. */
    public int waitingCapacity(int pendingLimit) {
        return pendingLimit;
    }

    /**
     * When a transport that opens connections opens one for requests that wait: the open loop's
     * policy; the other models' requests wait only in a held burst, each for a connection of its own.
     */
    public LoadModel.ConnectionPolicy waitingPolicy() {
        return LoadModel.ConnectionPolicy.UNBOUNDED;
    }

    /**
     * Connects a transport that opens connections keeps under way at once at most, given its own bound
     * {@code usual} for a loop that fell behind.
     */
    public int connectsAtOnce(int usual) {
        return usual;
    }

    /**
     * Whether a connect that timed out is tried again now rather than failing its request. Only a held burst's are:
     * there the count is what the server takes on, and a connect slowed past its timeout by a busy generator (or a
     * target between two accepts) says nothing of that; a refusal still fails.
     */
    public boolean retriesConnectTimeouts() {
        return false;
    }

    /** This round's requests: those due now, handed to the transport. */
    public abstract void issue(long nowNs);

    /**
     * A request answered and its capacity is free: whether that capacity carries the next request
     * at once, intended now; when it does, that request has begun.
     */
    public boolean nextOnFreed(long nowNs) {
        return false;
    }

    /** Whether the run is over; a held model takes its figures and lets go of its requests here. */
    public boolean finished() {
        return phases.done();
    }

    /** When the driver needs the loop next, whatever arrives meanwhile. */
    public long nextWakeNs(long nowNs) {
        if (!phases.issuing()) {
            return phases.hardCapNs();
        }
        return nowNs < phases.measureStartNs() ? phases.measureStartNs() : phases.measureEndNs();
    }

    /** Whether {@code wakeNs} is an intended start, to be kept to within the platform's wake-up jitter. */
    public boolean wakesForIntendedStart(long wakeNs) {
        return false;
    }

    /** The held model's figures; null for the other models. */
    public RunSummary.Concurrency concurrency() {
        return null;
    }

    public Phases phases() {
        return phases;
    }

    public RequestJudge judge() {
        return judge;
    }

    /**
     * Keeps {@code requests} in flight, each new one intended now, while the phase lets requests
     * issue. The phase is asked even when none is missing, so that issuing stops at its end while
     * every request is still in flight.
     */
    final void keepInFlight(int requests, long nowNs) {
        while (phases.keepIssuing(nowNs) && phases.outstanding() < requests && transport.mayStartNew()) {
            phases.begin(nowNs);
            transport.startNew(nowNs);
        }
    }
}
