package dev.gauntlet.loadgen.run;

import dev.gauntlet.api.ErrorClass;
import dev.gauntlet.loadgen.measure.ErrorLog;
import dev.gauntlet.loadgen.measure.IntervalLogs;

import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The errors log's open interval: its start, whole ms from the measured phase's start, and the
 * counts then. The counters count measured requests only, so the first interval starts at the
 * measured phase's start from zero, however late its first tick came, and a run that ends before
 * that start has none. Times are whole milliseconds, so each interval starts where the one before
 * ended, to the digit. The interval thread's, then the thread that ends the run.
 */
final class ErrorIntervals {
    private long errorsFromMs;
    private Map<ErrorClass, Long> errorsBefore = ErrorLog.zeros();

    /** The errors counted since the last interval ({@code errors}: the counts now) into {@code logs}. */
    void write(IntervalLogs logs, boolean measureStarted, long sinceMeasureStartNs, Map<ErrorClass, Long> errors) {
        if (!measureStarted && sinceMeasureStartNs < 0) {
            return;
        }
        long toMs = Math.max(errorsFromMs, TimeUnit.NANOSECONDS.toMillis(sinceMeasureStartNs));
        Map<ErrorClass, Long> interval = new EnumMap<>(ErrorClass.class);
        errors.forEach((errorClass, count) -> interval.put(errorClass, count - errorsBefore.get(errorClass)));
        logs.writeErrors(errorsFromMs / 1e3, (toMs - errorsFromMs) / 1e3, interval);
        errorsFromMs = toMs;
        errorsBefore = errors;
    }
}
