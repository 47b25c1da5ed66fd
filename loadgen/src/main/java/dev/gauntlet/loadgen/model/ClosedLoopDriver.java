package dev.gauntlet.loadgen.model;

import dev.gauntlet.api.LoadModel;
import dev.gauntlet.api.LoadSpec;
import dev.gauntlet.loadgen.measure.LatencyRecorder;
import dev.gauntlet.loadgen.measure.PhaseClock;
import dev.gauntlet.loadgen.measure.RequestCounters;

/**
 * The closed loop: C requests in flight, each answered one followed at once by the next on the
 * same capacity, intended at that moment; a failed one is replaced on new capacity.
 */
final class ClosedLoopDriver extends LoadDriver {
    private final int connections;

    ClosedLoopDriver(LoadModel.ClosedLoop model, LoadSpec spec, long runStartNs, PhaseClock clock,
                     LatencyRecorder.Writer recorder, RequestCounters counters) {
        super(new Phases(spec, runStartNs, clock, null), recorder, counters, spec);
        this.connections = model.connections();
    }

    @Override
    public int capacity(int machineLimit) {
        return connections;
    }

    @Override
    public void issue(long nowNs) {
        keepInFlight(connections, nowNs);
    }

    @Override
    public boolean nextOnFreed(long nowNs) {
        if (!phases.keepIssuing(nowNs)) {
            return false;
        }
        phases.begin(nowNs);
        return true;
    }
}
