package dev.gauntlet.loadgen.measure;

import dev.gauntlet.api.LoadSpec;

import java.util.concurrent.TimeUnit;

/**
 * When one run's measured phase starts and ends, shared by its engine threads, counters and
 * interval ticker. A fixed warm-up fixes both from the start. A warm-up until steady starts out
 * at its maximum and is brought forward once, by the ticker, to a moment still ahead of every
 * engine ({@link #startAt}): no request already issued changes sides, and the end only moves
 * earlier, so no engine stops issuing too soon.
 *
 * <pre>{@code
 * PhaseClock clock = new PhaseClock(spec, runStartNs);
 * clock.startAt(nextTickNs);                 // the ticker, once the warm-up settled
 * boolean measured = intendedNs >= clock.measureStartNs();
 * }</pre>
 */
public final class PhaseClock {
    private final long durationNs;
    private final long offsetNs;
    private final boolean fixed;
    private volatile long measureStartNs;
    private volatile long measureEndNs;

    /** @param runStartNs when this engine's share starts: the run's start plus the share's {@code startOffsetNs} */
    public PhaseClock(LoadSpec spec, long runStartNs) {
        this.durationNs = TimeUnit.MILLISECONDS.toNanos(spec.durationMs());
        this.offsetNs = spec.startOffsetNs();
        this.fixed = spec.steady() == null;
        this.measureStartNs = runStartNs + TimeUnit.MILLISECONDS.toNanos(spec.warmupMaxMs());
        this.measureEndNs = measureStartNs + durationNs;
    }

    /**
     * Brings the measured phase's start forward to the run's {@code runMeasureStartNs} (this share's
     * start offset after it), which must lie ahead of every engine's clock; once only, and only for a
     * warm-up until steady.
     */
    public void startAt(long runMeasureStartNs) {
        long startNs = runMeasureStartNs + offsetNs;
        if (fixed) {
            throw new IllegalStateException("a fixed warm-up has its start from the outset");
        }
        if (startNs < measureStartNs) {
            // The end first: an engine that sees the new start also sees the end that goes with it.
            measureEndNs = startNs + durationNs;
            measureStartNs = startNs;
        }
    }

    /** Whether the warm-up's end is still to be decided by the steady rule. */
    public boolean decides() {
        return !fixed;
    }

    public long measureStartNs() {
        return measureStartNs;
    }

    public long measureEndNs() {
        return measureEndNs;
    }
}
