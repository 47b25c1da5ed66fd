package dev.gauntlet.targets;

import org.junit.jupiter.api.Test;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedTransferQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class PlatformWorkersTest {

    @Test
    void growsToTheMaxThenQueues() throws Exception {
        ThreadPoolExecutor pool = (ThreadPoolExecutor) PlatformWorkers.upTo(2, "test-");
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch done = new CountDownLatch(3);
        for (int i = 0; i < 3; i++) {
            pool.execute(() -> {
                awaitQuietly(release);
                done.countDown();
            });
        }

        assertThat(pool.getPoolSize()).isEqualTo(2);
        assertThat(pool.getQueue()).hasSize(1);
        release.countDown();
        assertThat(done.await(10, TimeUnit.SECONDS)).as("queued task ran").isTrue();
        pool.shutdownNow();
    }

    @Test
    void anIdleWorkerTakesTheNextTaskInsteadOfANewThread() throws Exception {
        ThreadPoolExecutor pool = (ThreadPoolExecutor) PlatformWorkers.upTo(10, "test-");
        CountDownLatch first = new CountDownLatch(1);
        pool.execute(first::countDown);
        assertThat(first.await(10, TimeUnit.SECONDS)).isTrue();
        awaitIdleWorker((LinkedTransferQueue<Runnable>) pool.getQueue());

        CountDownLatch second = new CountDownLatch(1);
        pool.execute(second::countDown);

        assertThat(second.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(pool.getLargestPoolSize()).isEqualTo(1);
        pool.shutdownNow();
    }

    @Test
    void refusesTasksOnceShutDown() {
        ThreadPoolExecutor pool = (ThreadPoolExecutor) PlatformWorkers.upTo(1, "test-");
        pool.shutdown();

        assertThatThrownBy(() -> pool.execute(() -> { })).isInstanceOf(RejectedExecutionException.class);
    }

    /** The worker polls the queue right after its task; wait for that signal, not for time. */
    private static void awaitIdleWorker(LinkedTransferQueue<Runnable> queue) {
        long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!queue.hasWaitingConsumer()) {
            assertThat(System.nanoTime() - deadlineNs).as("worker idle within 10 s").isNegative();
            Thread.onSpinWait();
        }
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
