package dev.gauntlet.loadgen;

import dev.gauntlet.api.ErrorClass;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Counts of the measured requests. Single writer (the event loop); the progress line reads them
 * from another thread, so writes are ordered releases rather than full fences.
 */
final class RequestCounters {
    private static final int SENT = 0;
    private static final int COMPLETED = 1;
    private static final int CONNECTIONS_OPENED = 2;
    private static final int FIRST_ERROR = 3;
    private static final ErrorClass[] ERROR_CLASSES = ErrorClass.values();

    private final AtomicLongArray counts = new AtomicLongArray(FIRST_ERROR + ERROR_CLASSES.length);

    void sent() {
        increment(SENT);
    }

    void completed() {
        increment(COMPLETED);
    }

    void connectionOpened() {
        increment(CONNECTIONS_OPENED);
    }

    void error(ErrorClass errorClass) {
        increment(FIRST_ERROR + errorClass.ordinal());
    }

    long sentCount() {
        return counts.getAcquire(SENT);
    }

    long completedCount() {
        return counts.getAcquire(COMPLETED);
    }

    long connectionsOpenedCount() {
        return counts.getAcquire(CONNECTIONS_OPENED);
    }

    long errorCount() {
        long sum = 0;
        for (int i = FIRST_ERROR; i < counts.length(); i++) {
            sum += counts.getAcquire(i);
        }
        return sum;
    }

    /** Every class, zeros included, in declaration order. */
    Map<ErrorClass, Long> errors() {
        Map<ErrorClass, Long> errors = new EnumMap<>(ErrorClass.class);
        for (ErrorClass errorClass : ERROR_CLASSES) {
            errors.put(errorClass, counts.getAcquire(FIRST_ERROR + errorClass.ordinal()));
        }
        return errors;
    }

    /** A snapshot of several engines' counts added up, as one more set of counters. */
    static RequestCounters sumOf(List<RequestCounters> all) {
        RequestCounters sum = new RequestCounters();
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
