package dev.gauntlet.loadgen.measure;

/**
 * The bounds both the steady-state judge, during the warm-up, and the verdicts, after the run, hold a run to, so that
 * the two never judge the same figure by different bounds.
 */
public final class Tolerances {
    /** Share of the offered rate the target must complete over the second half of the measured phase. */
    public static final double SUSTAINED_SHARE = 0.9;
    /** Lateness up to the lag allowance plus this many times the hiccup p99 is the platform's. */
    public static final double HICCUP_FACTOR = 2;

    private Tolerances() {
    }
}
