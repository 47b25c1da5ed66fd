package dev.gauntlet.loadgen.model;

import dev.gauntlet.api.LoadSpec;
import dev.gauntlet.loadgen.measure.LatencyRecorder;
import dev.gauntlet.loadgen.measure.PhaseClock;
import org.HdrHistogram.Histogram;

import java.util.concurrent.TimeUnit;

/**
 * The driver's side of one engine's run, whatever sends the requests: when the warm-up, the
 * measured phase and the hard cap end; the open loop's intended starts and how late the engine
 * came to each; which requests count as measured; when issuing stops (the end of the measured
 * phase or the request bound); how many requests are outstanding. Engines ask it and tell it;
 * it never touches a socket. Single-threaded: the engine's loop owns it.
 *
 * <pre>{@code
 * Phases phases = new Phases(spec, runStartNs, new PhaseClock(spec, runStartNs), schedule);
 * phases.startSchedule();                                   // open loop
 * for (long intended; (intended = phases.takeDue(nowNs)) != Phases.NONE; ) send(intended);
 * phases.resolved();                                        // each request's end, answered or failed
 * }</pre>
 */
public final class Phases {
    /** {@link #takeDue} found nothing due (no {@code nanoTime} value is this one). */
    static final long NONE = Long.MIN_VALUE;

    private final long runStartNs;
    private final PhaseClock clock;
    private final long hardCapNs;
    private final long maxRequests;
    /** Open loop: the intended starts; null for the other models. */
    private final Schedule schedule;
    /**
     * Open loop: how late the loop itself came to each intended start, before any wait for a
     * connection; it tells a generator that fell behind from a server that accepted too slowly.
     */
    private final Histogram loopLateness = LatencyRecorder.newHistogram();
    private long nextIntendedNs;
    private boolean issuing = true;
    private long issuingStoppedNs;
    private long measuredIssued;
    private long outstanding;
    private boolean hardCapReached;

    /**
     * @param clock    when the measured phase starts and ends, shared with the run's other engines
     * @param schedule the open loop's intended starts; null for the other models
     */
    Phases(LoadSpec spec, long runStartNs, PhaseClock clock, Schedule schedule) {
        this.runStartNs = runStartNs;
        this.clock = clock;
        this.hardCapNs = runStartNs + TimeUnit.MILLISECONDS.toNanos(spec.hardCapMs());
        this.maxRequests = spec.maxRequests();
        this.schedule = schedule;
    }

    /** Open loop: draws the first intended start; called once, as the engine's loop starts. */
    void startSchedule() {
        nextIntendedNs = runStartNs + schedule.nextOffsetNs();
    }

    /**
     * Open loop: the intended start due by {@code nowNs}, begun (outstanding, measured when it
     * falls in the measured phase) with the schedule moved on past it; {@link #NONE} when none is due.
     */
    long takeDue(long nowNs) {
        if (!issuing || nextIntendedNs > nowNs) {
            return NONE;
        }
        long intendedNs = nextIntendedNs;
        if (intendedNs >= clock.measureStartNs()) {
            loopLateness.recordValue(Math.min(nowNs - intendedNs, LatencyRecorder.HIGHEST_TRACKABLE_NS));
        }
        begin(intendedNs);
        if (countReached()) {
            stopIssuing(nowNs);
        } else {
            nextIntendedNs = runStartNs + schedule.nextOffsetNs();
            long measureEndNs = clock.measureEndNs();
            if (nextIntendedNs >= measureEndNs) {
                stopIssuing(measureEndNs);
            }
        }
        return intendedNs;
    }

    /**
     * Closed loop and held requests: whether a request may still be issued at {@code nowNs};
     * issuing stops for good at the end of the measured phase or at the request bound.
     */
    boolean keepIssuing(long nowNs) {
        long measureEndNs = clock.measureEndNs();
        if (issuing && (nowNs >= measureEndNs || countReached())) {
            stopIssuing(Math.min(nowNs, measureEndNs));
        }
        return issuing;
    }

    /** A request intended at {@code intendedStartNs} starts its life: outstanding until {@link #resolved}. */
    void begin(long intendedStartNs) {
        outstanding++;
        if (intendedStartNs >= clock.measureStartNs()) {
            measuredIssued++;
        }
    }

    /** A request's life ended: answered, failed, or let go. */
    void resolved() {
        outstanding--;
    }

    /** A request dropped before it was sent, its life over at once; true when it fell in the measured phase. */
    boolean droppedUnsent(long intendedStartNs) {
        resolved();
        return measured(intendedStartNs);
    }

    boolean measured(long intendedStartNs) {
        return intendedStartNs >= clock.measureStartNs();
    }

    /** The hard cap (or an interrupt) ends the run: issuing stops, and what is outstanding is the caller's to fail. */
    public void abort() {
        hardCapReached |= issuing || outstanding > 0;
        if (issuing) {
            stopIssuing(System.nanoTime());
        }
    }

    /** Whether the run is over: nothing more to issue and nothing outstanding. */
    boolean done() {
        return !issuing && outstanding == 0;
    }

    public boolean issuing() {
        return issuing;
    }

    long outstanding() {
        return outstanding;
    }

    long nextIntendedNs() {
        return nextIntendedNs;
    }

    public long runStartNs() {
        return runStartNs;
    }

    public long measureStartNs() {
        return clock.measureStartNs();
    }

    public long measureEndNs() {
        return clock.measureEndNs();
    }

    public long hardCapNs() {
        return hardCapNs;
    }

    /** The measured phase's length: to its end, or to the request that reached the count bound. */
    public long measuredNs() {
        long measureEndNs = clock.measureEndNs();
        long endNs = issuingStoppedNs == 0 ? measureEndNs : Math.min(issuingStoppedNs, measureEndNs);
        return Math.max(endNs - clock.measureStartNs(), 1);
    }

    /** Requests whose intended start fell in the measured phase. */
    public long measuredIssued() {
        return measuredIssued;
    }

    public boolean hardCapReached() {
        return hardCapReached;
    }

    /** The open loop's own lateness to each measured intended start, ns; empty for the other models. */
    public Histogram loopLateness() {
        return loopLateness;
    }

    private boolean countReached() {
        return maxRequests > 0 && measuredIssued >= maxRequests;
    }

    private void stopIssuing(long atNs) {
        issuing = false;
        issuingStoppedNs = atNs;
    }
}
