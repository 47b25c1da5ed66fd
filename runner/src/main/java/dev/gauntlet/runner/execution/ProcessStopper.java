package dev.gauntlet.runner.execution;

import dev.gauntlet.runner.base.UserError;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * Stops a child process of the runner, by the runner's call or at the runner's own exit, so no
 * target outlives the runner that started it — whether it ends normally or by SIGTERM, SIGINT or
 * SIGHUP.
 *
 * <pre>{@code
 * ProcessStopper stopper = ProcessStopper.atRunnerExit(process, Duration.ofSeconds(5));
 * ...
 * boolean exitedByItself = stopper.stop();   // SIGTERM, then SIGKILL after 5 s; no longer at exit
 * }</pre>
 *
 * <p>A JVM may be deaf to SIGTERM: one whose heap is exhausted cannot start the thread that runs
 * its shutdown hooks. Only SIGKILL ends it, so every stop ends with one when the grace is over.
 */
public final class ProcessStopper {
    private final Process process;
    private final Duration grace;
    private final Thread hook;

    private ProcessStopper(Process process, Duration grace) {
        this.process = process;
        this.grace = grace;
        this.hook = new Thread(this::terminate, "stop-child-" + process.pid());
    }

    /**
     * Registers the stop of {@code process} as a shutdown hook of this JVM. A process started while the runner is
     * already exiting could no longer be stopped at its exit, so it is killed at once and the start fails.
     */
    public static ProcessStopper atRunnerExit(Process process, Duration grace) {
        ProcessStopper stopper = new ProcessStopper(process, grace);
        try {
            Runtime.getRuntime().addShutdownHook(stopper.hook);
        } catch (IllegalStateException e) {
            process.destroyForcibly();
            throw new UserError("the runner is stopping: process " + process.pid() + " was killed as it started");
        }
        return stopper;
    }

    /** SIGTERM, then SIGKILL if the process has not exited within the grace; whether it exited by itself. */
    public boolean stop() {
        forgetHook();
        return terminate();
    }

    /** SIGKILL at once, for a process that never became ready. */
    void kill() {
        forgetHook();
        process.destroyForcibly();
    }

    private boolean terminate() {
        process.destroy();
        try {
            if (process.waitFor(grace.toMillis(), TimeUnit.MILLISECONDS)) {
                return true;
            }
            process.destroyForcibly().waitFor(grace.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
        return false;
    }

    private void forgetHook() {
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException e) {
            // The runner is exiting: the hook runs (or ran) the same stop.
        }
    }
}
