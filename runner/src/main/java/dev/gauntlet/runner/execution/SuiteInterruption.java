package dev.gauntlet.runner.execution;

import dev.gauntlet.runner.isolation.PlacedProcess;
import dev.gauntlet.runner.report.ReportWriter;

import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * What a suite stopped by SIGINT, SIGTERM or SIGHUP leaves behind: the runs measured so far, their report, and one
 * line saying where they are and how to measure the rest. Armed while the suite runs, disarmed when it ends by itself:
 *
 * <pre>{@code
 * SuiteInterruption interruption = SuiteInterruption.armed(store.dir());
 * try {
 *     failures = new SuiteRunner(..., interruption::happened).run(plan);
 * } finally {
 *     interruption.suiteEnded();
 * }
 * }</pre>
 *
 * The suite's thread goes on while the JVM's shutdown hooks run, and the children it was using are being stopped
 * under it: a run it measures then fails for that reason alone. So the hook first says the suite is interrupted
 * ({@link #happened()}, which the suite runner asks before it stores a row or starts anything), then waits for the
 * suite's thread to let go, and only then writes the report.
 */
public final class SuiteInterruption {
    /** Long enough for a target's graceful stop, after which the suite's thread has nothing left to wait for. */
    private static final Duration SUITE_STOP_WAIT = PlacedProcess.STOP_TIMEOUT.plusSeconds(5);

    private final Thread hook;
    private final CountDownLatch suiteEnded = new CountDownLatch(1);
    private volatile boolean happened;

    private SuiteInterruption(Path resultsDir) {
        this.hook = new Thread(() -> {
            happened = true;
            awaitSuiteEnd();
            System.err.println("gauntlet: interrupted; the runs measured so far are in " + resultsDir
                    + "; ./gauntlet run --resume " + resultsDir + " measures the rest");
            ReportWriter.tryWrite(resultsDir).ifPresent(page -> System.err.println("gauntlet: report of those runs: " + page));
        }, "suite-interrupted");
    }

    public static SuiteInterruption armed(Path resultsDir) {
        SuiteInterruption interruption = new SuiteInterruption(resultsDir);
        Runtime.getRuntime().addShutdownHook(interruption.hook);
        return interruption;
    }

    /** Whether the runner is being stopped: from then on the suite stores nothing and starts nothing. */
    public boolean happened() {
        return happened;
    }

    /** The suite's thread is done, by itself or because it was interrupted. */
    public void suiteEnded() {
        suiteEnded.countDown();
        if (happened) {
            return;
        }
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException e) {
            // The runner began exiting just now: the hook runs.
        }
    }

    private void awaitSuiteEnd() {
        try {
            suiteEnded.await(SUITE_STOP_WAIT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
