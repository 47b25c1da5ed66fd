package dev.gauntlet.loadgen.measure;

import dev.gauntlet.api.ErrorClass;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Counts of the measured requests. Single writer (the event loop); the progress line reads them
 * from another thread, so writes are ordered releases rather than full fences.
 *
 * <p>A request that ends after the measured phase's end still counts as completed or failed, and
 * also as resolved after the end: the achieved rate is what completed within the phase, and what
 * was still unanswered at its end is shown, not folded into the rate.
 */
public final class RequestCounters {
    private static final int SENT = 0;
    private static final int COMPLETED = 1;
    private static final int COMPLETED_AFTER_END = 2;
    private static final int RESOLVED_AFTER_END = 3;
    private static final int CONNECTIONS_OPENED = 4;
    private static final int CONNECTIONS_OPENED_MEASURED = 5;
    private static final int DROPPED_QUEUE_FULL = 6;
    private static final int ANSWERED_IN_PHASE = 7;
    private static final int FIRST_ERROR = 8;
    private static final ErrorClass[] ERROR_CLASSES = ErrorClass.values();

    private final AtomicLongArray counts = new AtomicLongArray(FIRST_ERROR + ERROR_CLASSES.length);
    private final ErrorKinds errorKinds = new ErrorKinds();
    private final PhaseClock clock;

    /** @param clock when the measured phase ends: what resolves later is counted apart; null for a sum (counted into by no one) */
    public RequestCounters(PhaseClock clock) {
        this.clock = clock;
    }

    public void sent() {
        increment(SENT);
    }

    /** A measured request due while the queue of those waiting for a connection was full: never sent. */
    public void droppedQueueFull() {
        increment(DROPPED_QUEUE_FULL);
    }

    /** A measured request answered correctly at {@code endNs}. */
    public void completed(long endNs) {
        increment(COMPLETED);
        if (endNs > clock.measureEndNs()) {
            increment(COMPLETED_AFTER_END);
            increment(RESOLVED_AFTER_END);
        }
    }

    /**
     * Any request answered correctly at {@code endNs}, measured or not: counted when that is in the measured phase,
     * the target's goodput, which an overloaded open loop's backlog from the warm-up fills while the measured requests
     * wait behind it.
     */
    public void answered(long endNs) {
        if (endNs >= clock.measureStartNs() && endNs <= clock.measureEndNs()) {
            increment(ANSWERED_IN_PHASE);
        }
    }

    /** A connection opened at {@code nowNs}: counted apart as well when that is in the measured phase. */
    public void connectionOpened(long nowNs) {
        increment(CONNECTIONS_OPENED);
        if (nowNs >= clock.measureStartNs() && nowNs < clock.measureEndNs()) {
            increment(CONNECTIONS_OPENED_MEASURED);
        }
    }

    /** A measured request failed at {@code endNs}; {@code failure}: its exception, null when the engine kept none. */
    public void error(ErrorClass errorClass, long endNs, Throwable failure) {
        errorKinds.failed(errorClass, endNs, failure);
        counted(errorClass, endNs);
    }

    /** A measured request answered at {@code endNs} with {@code status}, not the expected one. */
    public void badStatus(int status, long endNs) {
        errorKinds.badStatus(status, endNs);
        counted(ErrorClass.BAD_STATUS, endNs);
    }

    /** The failures by kind, for the error table: read once the engine's thread has ended. */
    public ErrorKinds errorKinds() {
        return errorKinds;
    }

    private void counted(ErrorClass errorClass, long endNs) {
        increment(FIRST_ERROR + errorClass.ordinal());
        if (endNs > clock.measureEndNs()) {
            increment(RESOLVED_AFTER_END);
        }
    }

    public long sentCount() {
        return counts.getAcquire(SENT);
    }

    public long completedCount() {
        return counts.getAcquire(COMPLETED);
    }

    /** Completed within the measured phase: what the achieved rate counts. */
    public long completedInPhaseCount() {
        return counts.getAcquire(COMPLETED) - counts.getAcquire(COMPLETED_AFTER_END);
    }

    /** Requests answered correctly within the measured phase, whatever their intended start: {@link #answered}. */
    public long answeredInPhaseCount() {
        return counts.getAcquire(ANSWERED_IN_PHASE);
    }

    /** Measured requests answered, failed or cut off after the measured phase ended: unanswered at its end. */
    public long resolvedAfterEndCount() {
        return counts.getAcquire(RESOLVED_AFTER_END);
    }

    public long droppedQueueFullCount() {
        return counts.getAcquire(DROPPED_QUEUE_FULL);
    }

    public long connectionsOpenedCount() {
        return counts.getAcquire(CONNECTIONS_OPENED);
    }

    public long connectionsOpenedMeasuredCount() {
        return counts.getAcquire(CONNECTIONS_OPENED_MEASURED);
    }

    public long errorCount() {
        long sum = 0;
        for (int i = FIRST_ERROR; i < counts.length(); i++) {
            sum += counts.getAcquire(i);
        }
        return sum;
    }

    /** Every class, zeros included, in declaration order. */
    public Map<ErrorClass, Long> errors() {
        Map<ErrorClass, Long> errors = new EnumMap<>(ErrorClass.class);
        for (ErrorClass errorClass : ERROR_CLASSES) {
            errors.put(errorClass, counts.getAcquire(FIRST_ERROR + errorClass.ordinal()));
        }
        return errors;
    }

    /** A snapshot of several engines' counts added up, as one more set of counters. */
    public static RequestCounters sumOf(List<RequestCounters> all) {
        RequestCounters sum = new RequestCounters(null);
        for (RequestCounters each : all) {
            for (int i = 0; i < sum.counts.length(); i++) {
                sum.counts.setPlain(i, sum.counts.getPlain(i) + each.counts.getAcquire(i));
            }
        }
        return sum;
    }

    private void increment(int index) {
        counts.setRelease(index, counts.getPlain(index) + 1);
    }
}
