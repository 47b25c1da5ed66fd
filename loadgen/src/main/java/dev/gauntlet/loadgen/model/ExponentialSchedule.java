package dev.gauntlet.loadgen.model;

import java.util.SplittableRandom;

/**
 * Poisson arrivals: exponentially distributed gaps with mean {@code 1/rate}, drawn from a seeded
 * generator so that a run's intended starts repeat.
 */
final class ExponentialSchedule implements Schedule {
    private final double meanGapNs;
    private final SplittableRandom random;
    private double offsetNs;

    ExponentialSchedule(double ratePerSec, long seed) {
        this.meanGapNs = 1e9 / ratePerSec;
        this.random = new SplittableRandom(seed);
    }

    @Override
    public long nextOffsetNs() {
        // Inverse transform: -ln(U) with U in (0, 1]; 1 - nextDouble() never yields ln(0).
        offsetNs += -Math.log(1.0 - random.nextDouble()) * meanGapNs;
        return (long) offsetNs;
    }
}
