package dev.gauntlet.loadgen.model;

/** Exactly {@code 1/rate} between intended starts; the first one is at offset 0. */
final class ConstantRateSchedule implements Schedule {
    private final double periodNs;
    private long index;

    ConstantRateSchedule(double ratePerSec) {
        this.periodNs = 1e9 / ratePerSec;
    }

    @Override
    public long nextOffsetNs() {
        // Multiplying instead of summing keeps rounding errors from accumulating over long runs.
        return Math.round(index++ * periodNs);
    }
}
