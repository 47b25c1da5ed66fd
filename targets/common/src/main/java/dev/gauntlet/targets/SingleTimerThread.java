package dev.gauntlet.targets;

import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * The async-timer style of {@link DelayedCompletion}: {@link #submit} schedules the completion on one timer thread,
 * the wait counted from there, and that thread runs every completion itself (writes the response, completes it).
 *
 * <p>A single-threaded {@link ScheduledThreadPoolExecutor} rather than {@code java.util.Timer}, as {@code Timer}'s
 * own javadoc advises: a completion that throws would kill a {@code Timer}'s thread and with it every request
 * scheduled after, where the executor keeps its thread; and the executor waits by {@code System.nanoTime}, a
 * {@code Timer} by the wall clock, which a clock step moves. Both keep their tasks in a binary heap on one thread,
 * so the style's cost is the same.
 */
final class SingleTimerThread implements DelayedCompletion {
    /** A daemon, so a forgotten close cannot keep a target alive. */
    private final ScheduledThreadPoolExecutor timer =
            new ScheduledThreadPoolExecutor(1, Thread.ofPlatform().name("timer").daemon().factory());

    @Override
    public void submit(long waitMs, Runnable completion) {
        timer.schedule(completion, waitMs, TimeUnit.MILLISECONDS);
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
