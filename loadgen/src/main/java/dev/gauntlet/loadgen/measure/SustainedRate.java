package dev.gauntlet.loadgen.measure;

import java.util.ArrayList;
import java.util.List;

/**
 * Completions per second over the second half of the measured phase: whether the target kept up
 * with an open loop once its first responses were due. Unlike the achieved rate it is not filled
 * up after the phase by a target that answers its backlog late.
 *
 * <pre>{@code
 * SustainedRate sustained = new SustainedRate();
 * sustained.sample(sinceMeasureStartNs, counters.completedCount());   // once a second, in the measured phase
 * Double perSec = sustained.perSec(measuredNs);                        // null when the phase was too short
 * }</pre>
 *
 * <p>One sampling thread.
 */
public final class SustainedRate {
    private record Sample(long sinceMeasureStartNs, long completed) {
    }

    private final List<Sample> samples = new ArrayList<>();

    public void sample(long sinceMeasureStartNs, long completed) {
        samples.add(new Sample(sinceMeasureStartNs, completed));
    }

    /** From the first sample at or after the phase's middle to the last one by its end; null with fewer than two. */
    public Double perSec(long measuredNs) {
        Sample from = null;
        Sample to = null;
        for (Sample s : samples) {
            if (s.sinceMeasureStartNs() > measuredNs + measuredNs / 20) {
                break;
            }
            if (from == null && s.sinceMeasureStartNs() >= measuredNs / 2) {
                from = s;
            }
            to = s;
        }
        if (from == null || to == from) {
            return null;
        }
        return (to.completed() - from.completed()) * 1e9 / (to.sinceMeasureStartNs() - from.sinceMeasureStartNs());
    }
}
