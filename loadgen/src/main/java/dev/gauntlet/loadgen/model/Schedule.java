package dev.gauntlet.loadgen.model;

import dev.gauntlet.api.LoadModel;

import java.util.concurrent.TimeUnit;

/**
 * The intended starts of an open loop, as offsets from the start of the run. Not thread-safe: one
 * event loop owns it.
 *
 * <pre>{@code
 * Schedule schedule = Schedule.of(new LoadModel.OpenLoop(1_000, InterArrival.EXPONENTIAL), 42);
 * long firstIntendedStartNs = runStartNs + schedule.nextOffsetNs();
 * }</pre>
 */
sealed interface Schedule permits ConstantRateSchedule, ExponentialSchedule, RampedSchedule {

    /** The offset of the next intended start from the start of the run; never decreasing. */
    long nextOffsetNs();

    static Schedule of(LoadModel.OpenLoop model, long seed) {
        return switch (model.interArrival()) {
            case CONSTANT -> new ConstantRateSchedule(model.ratePerSec());
            case EXPONENTIAL -> new ExponentialSchedule(model.ratePerSec(), seed);
        };
    }

    /** As {@link #of(LoadModel.OpenLoop, long)}, the rate rising from zero over the first {@code rampMs}; see {@link RampedSchedule}. */
    static Schedule of(LoadModel.OpenLoop model, long seed, long rampMs) {
        Schedule fullRate = of(model, seed);
        return rampMs == 0 ? fullRate : new RampedSchedule(fullRate, TimeUnit.MILLISECONDS.toNanos(rampMs));
    }
}
