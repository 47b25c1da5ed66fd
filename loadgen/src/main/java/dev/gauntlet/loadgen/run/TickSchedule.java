package dev.gauntlet.loadgen.run;

import java.util.concurrent.TimeUnit;

/**
 * The interval ticker's schedule: ticks at {@code firstTickMs} after {@code originNs} and every
 * second after that, so that a fixed warm-up ends on a tick; a warm-up until steady ends on the
 * tick after the one that judged it settled, and not before {@code minWarmupEndNs}.
 */
record TickSchedule(long originNs, long firstTickMs, long minWarmupEndNs) {
    static final long TICK_MS = 1_000;

    /** The first tick after {@code nowNs}, as scheduled. */
    long nextAfter(long nowNs) {
        long firstNs = originNs + TimeUnit.MILLISECONDS.toNanos(firstTickMs);
        long tickNs = TimeUnit.MILLISECONDS.toNanos(TICK_MS);
        return firstNs + (Math.max(0, nowNs - firstNs) / tickNs + 1) * tickNs;
    }
}
