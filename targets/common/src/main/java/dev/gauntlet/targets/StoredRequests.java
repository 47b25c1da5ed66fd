package dev.gauntlet.targets;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * The two sweep styles of {@link DelayedCompletion}: the store, the sweep and the completer are shared; the hand-off
 * differs. The hand-off schedules each completion for its whole wait, so a request waits for the next sweep first.
 */
final class StoredRequests implements DelayedCompletion {
    static final long SWEEP_INTERVAL_MS = 10;
    private static final int QUEUE_POLLERS = 3;

    enum HandOff { FORK_JOIN_POOL, QUEUE }

    private record Pending(long waitMs, Runnable completion) {
    }

    private final ConcurrentLinkedQueue<Pending> stored = new ConcurrentLinkedQueue<>();
    private final ScheduledExecutorService sweeper = Executors.newSingleThreadScheduledExecutor(daemon("sweep"));
    private final ScheduledThreadPoolExecutor completer = new ScheduledThreadPoolExecutor(
            Math.max(2, Runtime.getRuntime().availableProcessors()), daemon("complete"));
    private final ExecutorService handOffThreads;

    StoredRequests(HandOff handOff) {
        completer.setRemoveOnCancelPolicy(true);
        Consumer<List<Pending>> batchSink;
        if (handOff == HandOff.FORK_JOIN_POOL) {
            ForkJoinPool pool = new ForkJoinPool(Runtime.getRuntime().availableProcessors());
            batchSink = batch -> pool.execute(() -> schedule(batch));
            handOffThreads = pool;
        } else {
            BlockingQueue<List<Pending>> batches = new LinkedBlockingQueue<>();
            handOffThreads = Executors.newFixedThreadPool(QUEUE_POLLERS, daemon("queue-poll"));
            for (int i = 0; i < QUEUE_POLLERS; i++) {
                handOffThreads.execute(() -> pollForever(batches));
            }
            batchSink = batches::add;
        }
        sweeper.scheduleAtFixedRate(() -> {
            List<Pending> batch = drain();
            if (!batch.isEmpty()) {
                batchSink.accept(batch);
            }
        }, SWEEP_INTERVAL_MS, SWEEP_INTERVAL_MS, TimeUnit.MILLISECONDS);
    }

    @Override
    public void submit(long waitMs, Runnable completion) {
        stored.add(new Pending(waitMs, completion));
    }

    @Override
    public void close() {
        sweeper.shutdownNow();
        handOffThreads.shutdownNow();
        completer.shutdownNow();
    }

    private List<Pending> drain() {
        List<Pending> batch = new ArrayList<>();
        for (Pending p; (p = stored.poll()) != null; ) {
            batch.add(p);
        }
        return batch;
    }

    private void pollForever(BlockingQueue<List<Pending>> batches) {
        try {
            while (!Thread.currentThread().isInterrupted()) {
                schedule(batches.take());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The hand-off: the wait starts here, on the ForkJoinPool job or the polling thread, as in the 2016 study. */
    private void schedule(List<Pending> batch) {
        for (Pending p : batch) {
            completer.schedule(p.completion(), p.waitMs(), TimeUnit.MILLISECONDS);
        }
    }

    /** Daemon threads, so a forgotten close cannot keep a target alive. */
    private static ThreadFactory daemon(String name) {
        return Thread.ofPlatform().name(name + "-", 0).daemon().factory();
    }
}
