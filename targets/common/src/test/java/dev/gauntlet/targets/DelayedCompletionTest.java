package dev.gauntlet.targets;

import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

class DelayedCompletionTest {
    private static final long WAIT_MS = 100;
    /** Far above any hand-off's or scheduler's lateness: the bound catches a wait counted twice, not a slow machine. */
    private static final long LOOSE_MS = 1_000;

    static Stream<Named<Supplier<DelayedCompletion>>> styles() {
        return Stream.of(Named.of("async-fjp", DelayedCompletion::viaForkJoinPool),
                Named.of("async-queue", DelayedCompletion::viaQueue),
                Named.of("async-timer", DelayedCompletion::viaTimer));
    }

    @ParameterizedTest
    @MethodSource("styles")
    void everyRequestCompletesOnceAndNotBeforeItsWait(Supplier<DelayedCompletion> style) throws Exception {
        int requests = 500;
        CountDownLatch done = new CountDownLatch(requests);
        AtomicIntegerArray runs = new AtomicIntegerArray(requests);
        ConcurrentLinkedQueue<Long> earlyNs = new ConcurrentLinkedQueue<>();
        try (DelayedCompletion completion = style.get()) {
            for (int i = 0; i < requests; i++) {
                int request = i;
                long waitMs = i % 3;
                long deadlineNs = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(waitMs);
                completion.submit(waitMs, () -> {
                    long early = deadlineNs - System.nanoTime();
                    if (early > 0) {
                        earlyNs.add(early);
                    }
                    runs.incrementAndGet(request);
                    done.countDown();
                });
            }
            assertThat(done.await(10, TimeUnit.SECONDS)).as("all completed").isTrue();
        }
        assertThat(earlyNs).as("completions before their deadline").isEmpty();
        for (int i = 0; i < requests; i++) {
            assertThat(runs.get(i)).as("runs of request %d", i).isEqualTo(1);
        }
    }

    /**
     * A request stored as the sweep starts waits for its first sweep, {@value StoredRequests#SWEEP_INTERVAL_MS} ms
     * later, and then its whole wait: the sweep's cost shows in the response time, as in the 2016 study. Counted
     * from arrival, it would have been answered after the wait alone.
     */
    @ParameterizedTest
    @EnumSource(StoredRequests.HandOff.class)
    void aSweepStyleCountsTheWaitFromTheHandOff(StoredRequests.HandOff handOff) throws Exception {
        CountDownLatch done = new CountDownLatch(1);
        AtomicLong completedNs = new AtomicLong();
        long startNs = System.nanoTime();
        try (DelayedCompletion completion = new StoredRequests(handOff)) {
            long submitNs = System.nanoTime();
            completion.submit(WAIT_MS, () -> {
                completedNs.set(System.nanoTime());
                done.countDown();
            });
            assertThat(done.await(10, TimeUnit.SECONDS)).as("completed").isTrue();

            assertThat(msBetween(startNs, completedNs.get())).as("ms from the sweep's start to the answer")
                    .isGreaterThanOrEqualTo(StoredRequests.SWEEP_INTERVAL_MS + WAIT_MS);
            assertThat(msBetween(submitNs, completedNs.get())).as("ms from arrival to the answer")
                    .isLessThan(StoredRequests.SWEEP_INTERVAL_MS + WAIT_MS + LOOSE_MS);
        }
    }

    /** async-timer: no sweep, the wait counts from submit, and the one timer thread runs every completion. */
    @Test
    void theTimerCountsTheWaitFromSubmitAndCompletesOnItsOneThread() throws Exception {
        int requests = 50;
        CountDownLatch done = new CountDownLatch(requests);
        ConcurrentLinkedQueue<Long> answerMs = new ConcurrentLinkedQueue<>();
        Set<Thread> completingThreads = ConcurrentHashMap.newKeySet();
        try (DelayedCompletion completion = DelayedCompletion.viaTimer()) {
            for (int i = 0; i < requests; i++) {
                long submitNs = System.nanoTime();
                completion.submit(WAIT_MS, () -> {
                    answerMs.add(msBetween(submitNs, System.nanoTime()));
                    completingThreads.add(Thread.currentThread());
                    done.countDown();
                });
            }
            assertThat(done.await(10, TimeUnit.SECONDS)).as("all completed").isTrue();
        }
        assertThat(answerMs).as("ms from submit to the answer").allSatisfy(ms ->
                assertThat(ms).isBetween(WAIT_MS, WAIT_MS + LOOSE_MS));
        assertThat(completingThreads).as("threads that ran a completion").hasSize(1);
    }

    private static long msBetween(long fromNs, long toNs) {
        return TimeUnit.NANOSECONDS.toMillis(toNs - fromNs);
    }
}
