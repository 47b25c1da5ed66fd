package dev.gauntlet.targets;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

class DelayedCompletionTest {

    @ParameterizedTest
    @EnumSource(StoredRequests.HandOff.class)
    void everyStoredRequestCompletesOnceAndNotBeforeItsWait(StoredRequests.HandOff handOff) throws Exception {
        int requests = 500;
        CountDownLatch done = new CountDownLatch(requests);
        ConcurrentLinkedQueue<Long> earlyNs = new ConcurrentLinkedQueue<>();
        try (DelayedCompletion completion = new StoredRequests(handOff)) {
            for (int i = 0; i < requests; i++) {
                long waitMs = i % 3;
                long deadlineNs = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(waitMs);
                completion.submit(waitMs, () -> {
                    long early = deadlineNs - System.nanoTime();
                    if (early > 0) {
                        earlyNs.add(early);
                    }
                    done.countDown();
                });
            }
            assertThat(done.await(10, TimeUnit.SECONDS)).as("all completed").isTrue();
        }
        assertThat(earlyNs).as("completions before their deadline").isEmpty();
    }
}
