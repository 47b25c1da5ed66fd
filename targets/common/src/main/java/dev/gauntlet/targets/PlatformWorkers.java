package dev.gauntlet.targets;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedTransferQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * A platform-thread pool that behaves like a servlet container's: a task goes to an idle worker
 * if there is one, else to a new worker up to {@code maxThreads}, else waits in a queue. Idle
 * workers end after a minute. Used by the sync style of servers whose own pool is not a
 * container's (JDK HttpServer, Netty).
 *
 * <pre>{@code
 * ExecutorService workers = PlatformWorkers.upTo(settings.workers(), "jdk-worker-");
 * }</pre>
 *
 * <p>A plain {@code ThreadPoolExecutor} cannot do this: with a queue it never grows past its core
 * size, and with core = max it starts a new thread per task until max even when workers are idle.
 */
public final class PlatformWorkers {
    private static final long IDLE_SEC = 60;

    private PlatformWorkers() {
    }

    /** Daemon workers, so a pool a server forgot to shut down cannot keep the target alive. */
    public static ExecutorService upTo(int maxThreads, String namePrefix) {
        HandOffQueue queue = new HandOffQueue();
        return new ThreadPoolExecutor(0, maxThreads, IDLE_SEC, TimeUnit.SECONDS, queue,
                Thread.ofPlatform().name(namePrefix, 0).daemon().factory(),
                (task, pool) -> {
                    if (pool.isShutdown()) {
                        throw new RejectedExecutionException("shut down");
                    }
                    queue.enqueue(task);
                });
    }

    /** Offers only to a worker already waiting, so the pool starts a thread when none is idle. */
    private static final class HandOffQueue extends LinkedTransferQueue<Runnable> {
        @Override
        public boolean offer(Runnable task) {
            return tryTransfer(task);
        }

        /** Every worker is busy and the pool is full: the task waits for the next free worker. */
        void enqueue(Runnable task) {
            super.offer(task);
        }
    }
}
