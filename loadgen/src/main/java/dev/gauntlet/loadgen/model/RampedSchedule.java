package dev.gauntlet.loadgen.model;

/**
 * Another schedule's intended starts with the rate rising linearly from zero to the full rate over
 * the first {@code rampNs}, and the full rate after. Time is warped, not requests dropped: the
 * {@code n}-th start at the full rate, at offset {@code u}, comes where the ramp has offered as many,
 * {@code sqrt(2·ramp·u)} while {@code u < ramp/2}, and {@code u + ramp/2} after. Poisson arrivals stay
 * Poisson, at the ramp's rate of the moment.
 *
 * <p>Why a ramp: a client library meets an open loop's full rate with no connection open and its code
 * not yet compiled. Each request then waits for a connect that waits for the interpreter, more arrive
 * meanwhile and each opens one more connection, and on a small machine the run never recovers. The
 * ramp lets pools and the JIT grow with the load, as any real service's load grows.
 */
final class RampedSchedule implements Schedule {
    private final Schedule fullRate;
    private final double rampNs;

    RampedSchedule(Schedule fullRate, long rampNs) {
        this.fullRate = fullRate;
        this.rampNs = rampNs;
    }

    @Override
    public long nextOffsetNs() {
        long offsetNs = fullRate.nextOffsetNs();
        return offsetNs < rampNs / 2 ? (long) Math.sqrt(2 * rampNs * offsetNs) : (long) (offsetNs + rampNs / 2);
    }
}
