package dev.gauntlet.targets;

/**
 * The async-fjp, async-queue and async-timer styles of the 2016 server benchmark: the handler hands a request
 * over and returns; a thread that is not the server's completes it once its wait is over.
 *
 * <pre>{@code
 * DelayedCompletion completion = DelayedCompletion.viaForkJoinPool();
 * AsyncContext async = request.startAsync();
 * completion.submit(waitMs, () -> { write(response); async.complete(); stats.complete(); });
 * ...
 * completion.close();   // after the server's stop: WithStyleThreads.completing does both ends
 * }</pre>
 *
 * <p>The wait counts from the hand-off, as 2016's did. async-timer hands off in {@link #submit}: it schedules
 * the completion on its one timer thread there, so only that thread's lateness adds to the wait. async-fjp and
 * async-queue store the request instead, and a sweep every {@value StoredRequests#SWEEP_INTERVAL_MS} ms hands the
 * stored batch on to what schedules each completion for its whole wait, so a request also waits for the next
 * sweep: half a sweep's interval more on average, the cost the study's 1 s case showed (sync 1,000.6–1,000.8 ms,
 * async 1,005.6–1,006.0 ms). Every user of these styles, servlet, handler and framework targets alike, counts
 * the same way.
 */
public sealed interface DelayedCompletion extends AutoCloseable permits StoredRequests, SingleTimerThread {

    /** Hands over a request whose {@code completion} runs once {@code waitMs} have passed since the hand-off. */
    void submit(long waitMs, Runnable completion);

    /** Stops the style's threads (sweep, hand-off, completion or timer); requests not yet completed are dropped. */
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

    /** async-timer: the handler schedules the completion on one timer thread, which also runs it. */
    static DelayedCompletion viaTimer() {
        return new SingleTimerThread();
    }
}
