package dev.gauntlet.runner;

import java.nio.file.Path;

/**
 * What a suite stopped by SIGINT, SIGTERM or SIGHUP leaves behind: the report of the runs measured so far, and one
 * line saying where they are and how to measure the rest. Armed while the suite runs, disarmed when it ends by itself:
 *
 * <pre>{@code
 * try (SuiteInterruption ignored = SuiteInterruption.armed(store.dir())) {
 *     failures = suiteRunner.run(plan);
 * }
 * }</pre>
 *
 * The runs already measured are stored as each ends, so nothing is lost either way; the hook only saves a person
 * from having to know {@code ./gauntlet report} and {@code --resume}.
 */
final class SuiteInterruption implements AutoCloseable {
    private final Thread hook;

    private SuiteInterruption(Path resultsDir) {
        this.hook = new Thread(() -> {
            System.err.println("gauntlet: interrupted; the runs measured so far are in " + resultsDir
                    + "; ./gauntlet run --resume " + resultsDir + " measures the rest");
            ReportWriter.tryWrite(resultsDir).ifPresent(page -> System.err.println("gauntlet: report of those runs: " + page));
        }, "suite-interrupted");
    }

    static SuiteInterruption armed(Path resultsDir) {
        SuiteInterruption interruption = new SuiteInterruption(resultsDir);
        Runtime.getRuntime().addShutdownHook(interruption.hook);
        return interruption;
    }

    @Override
    public void close() {
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException e) {
            // The runner is already exiting: the hook runs.
        }
    }
}
