package dev.gauntlet.loadgen.model;

import dev.gauntlet.api.LoadModel;
import dev.gauntlet.api.LoadSpec;
import dev.gauntlet.loadgen.measure.LatencyRecorder;
import dev.gauntlet.loadgen.measure.PhaseClock;
import dev.gauntlet.loadgen.measure.RequestCounters;

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
    public void start(Transport transport) {
        super.start(transport);
        phases.startSchedule();
    }

    /** A fixed pool's size, else what the machine allows. */
    @Override
    public int capacity(int machineLimit) {
        return model.connectionPolicy() == LoadModel.ConnectionPolicy.FIXED ? model.connections() : machineLimit;
    }

    @Override
    public LoadModel.ConnectionPolicy waitingPolicy() {
        return model.connectionPolicy();
    }

    @Override
    public void issue(long nowNs) {
        for (long intendedNs; (intendedNs = phases.takeDue(nowNs)) != Phases.NONE; ) {
            judge.lateness(intendedNs, nowNs);
            transport.dispatch(intendedNs, nowNs);
        }
    }

    @Override
    public long nextWakeNs(long nowNs) {
        return phases.issuing() ? phases.nextIntendedNs() : phases.hardCapNs();
    }

    @Override
    public boolean wakesForIntendedStart(long wakeNs) {
        return phases.issuing() && wakeNs == phases.nextIntendedNs();
    }
}
