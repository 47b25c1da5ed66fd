package dev.gauntlet.runner.execution;

import dev.gauntlet.runner.base.UserError;

import java.time.Duration;
import java.util.Locale;

/**
 * Waits, between two runs on one target JVM, until the target has finished what the previous run
 * left, and says what it had not when the wait gave up. Two signs, in order: its {@code /stats}
 * {@code inFlight} back to 0, then a {@code GET /hello} on a new connection answered within
 * {@link #PROMPT_ANSWER}. A client that closed its connection does not end a handler's wait, and
 * the held requests of a max-concurrency run outlive it: {@code inFlight} counts those. It does
 * not count requests a server has read but not started (Undertow's worker queue), and the next
 * run would begin behind them: the probe, sent after them, answers only once they are done.
 *
 * <pre>{@code
 * String note = TargetDrain.afterRun(target, previousWaitMs);   // null: nothing left
 * if (note != null) row = row.remarked(note);   // "the target took 2380 ms to answer a probe after the previous run"
 * }</pre>
 */
final class TargetDrain {
    /** How long a target may take to finish what the previous run left in progress, beyond that run's wait. */
    static final Duration MARGIN = Duration.ofSeconds(5);
    private static final Duration POLL = Duration.ofMillis(200);
    /**
     * A probe answered later than this was waiting behind something. A {@code GET /hello} with no
     * wait takes a millisecond or so; a second leaves room for a GC pause or a busy CPU.
     */
    static final Duration PROMPT_ANSWER = Duration.ofSeconds(1);

    private TargetDrain() {
    }

    /**
     * Returns once the target has finished the previous run's requests, or once the previous run's wait
     * plus {@link #MARGIN} has passed (one probe may wait {@link #PROMPT_ANSWER} beyond it): null when
     * it had finished and answered promptly, else what was left, for the next row's note.
     */
    static String afterRun(SuiteTarget target, long previousWaitMs) {
        long deadlineNs = System.nanoTime() + MARGIN.toNanos() + Duration.ofMillis(previousWaitMs).toNanos();
        Long inFlight;
        while (true) {
            try {
                inFlight = TargetEndpoint.statsField(target.endpoint().stats(), "inFlight");
            } catch (UserError e) {
                return null; // the run that follows finds out what is wrong with the target
            }
            if (inFlight == null || inFlight == 0 || System.nanoTime() - deadlineNs > 0) {
                break;
            }
            if (!sleep(POLL)) {
                return null; // the runner is being stopped
            }
        }
        if (inFlight != null && inFlight != 0) {
            return "began with " + inFlight + " requests of the previous run still in progress";
        }
        // One probe, waited for until the deadline: a second one sent after it would only queue behind it.
        Duration probeTimeout = Duration.ofNanos(Math.max(PROMPT_ANSWER.toNanos(), deadlineNs - System.nanoTime()));
        TargetEndpoint.Probe probe = target.endpoint().probe(probeTimeout);
        if (probe.answered()) {
            return probe.tookMs() <= PROMPT_ANSWER.toMillis() ? null : String.format(Locale.ROOT,
                    "the target took %d ms to answer a probe after the previous run", probe.tookMs());
        }
        // A probe refused or answered with an error: the liveness check before the run tells what that means.
        return probe.timedOut() ? String.format(Locale.ROOT,
                "the target did not answer a probe within %d ms after the previous run", probe.tookMs()) : null;
    }

    /** False when interrupted. */
    private static boolean sleep(Duration duration) {
        try {
            Thread.sleep(duration);
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
