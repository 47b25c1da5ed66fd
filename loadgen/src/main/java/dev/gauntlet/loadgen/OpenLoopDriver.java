package dev.gauntlet.loadgen;

import dev.gauntlet.api.LoadModel;
import dev.gauntlet.api.LoadSpec;

/**
 * The open loop: requests start at their intended starts from the {@link Schedule}, whatever is in
 * flight; one due while no capacity is free waits for it with its intended start kept, so the wait
 * shows in its response time. The schedule alone ends it: a response read after the end of the
 * measured phase must not stop a loop that has yet to send a request due before it.
 */
final class OpenLoopDriver extends LoadDriver {
    private final LoadModel.OpenLoop model;

    OpenLoopDriver(LoadModel.OpenLoop model, LoadSpec spec, long runStartNs, PhaseClock clock,
                   LatencyRecorder.Writer recorder, RequestCounters counters) {
        super(new Phases(spec, runStartNs, clock, Schedule.of(model, spec.seed(), spec.rampMs())), recorder, counters, spec);
        this.model = model;
    }

    @Override
    void start(Transport transport) {
        super.start(transport);
        phases.startSchedule();
    }

    /** A fixed pool's size, else what the machine allows. */
    @Override
    int capacity(int machineLimit) {
        return model.connectionPolicy() == LoadModel.ConnectionPolicy.FIXED ? model.connections() : machineLimit;
    }

    @Override
    LoadModel.ConnectionPolicy waitingPolicy() {
        return model.connectionPolicy();
    }

    @Override
    double ratePerSec() {
        return model.ratePerSec();
    }

    @Override
    void issue(long nowNs) {
        for (long intendedNs; (intendedNs = phases.takeDue(nowNs)) != Phases.NONE; ) {
            judge.lateness(intendedNs, nowNs);
            transport.dispatch(intendedNs, nowNs);
        }
    }

    @Override
    long nextWakeNs(long nowNs) {
        return phases.issuing() ? phases.nextIntendedNs() : phases.hardCapNs();
    }

    @Override
    boolean wakesForIntendedStart(long wakeNs) {
        return phases.issuing() && wakeNs == phases.nextIntendedNs();
    }
}
