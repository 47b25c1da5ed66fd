package dev.gauntlet.targets;

/**
 * The async-fjp and async-queue styles of the old server benchmark: a request is stored, a sweep
 * every {@value StoredRequests#SWEEP_INTERVAL_MS} ms hands the stored batch on, and a scheduler
 * completes each request once its wait is over.
 *
 * <pre>{@code
 * DelayedCompletion completion = DelayedCompletion.viaForkJoinPool();
 * AsyncContext async = request.startAsync();
 * completion.submit(waitMs, () -> { write(response); async.complete(); stats.complete(); });
 * ...
 * completion.close();   // in HelloServer.stop()
 * }</pre>
 *
 * <p>The wait counts from {@link #submit}, not from the sweep, so a request asking for 100 ms is
 * answered after 100 ms whatever the sweep's phase; the sweep adds work, not delay.
 */
public sealed interface DelayedCompletion extends AutoCloseable permits StoredRequests {

    /** Stores a request whose {@code completion} runs once {@code waitMs} have passed. */
    void submit(long waitMs, Runnable completion);

    /** Stops the sweep and the completion threads; requests still stored are dropped. */
    @Override
    void close();

    /** async-fjp: each sweep's batch becomes one ForkJoinPool job that schedules the completions. */
    static DelayedCompletion viaForkJoinPool() {
        return new StoredRequests(StoredRequests.HandOff.FORK_JOIN_POOL);
    }

    /** async-queue: each sweep's batch goes on a queue that 3 threads poll and schedule. */
    static DelayedCompletion viaQueue() {
        return new StoredRequests(StoredRequests.HandOff.QUEUE);
    }
}
