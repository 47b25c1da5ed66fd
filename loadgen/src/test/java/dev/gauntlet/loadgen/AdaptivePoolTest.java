package dev.gauntlet.loadgen;

import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** The adaptive pool's sizing on a simulated clock: responses fed at their completion times. */
class AdaptivePoolTest {
    private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);

    @Test
    void startsAtTheFloorWithinTheConnectionLimit() {
        assertThat(new AdaptivePool(1_000, 10_000, 0).targetConnections()).isEqualTo(AdaptivePool.MIN_CONNECTIONS);
        assertThat(new AdaptivePool(1_000, 5, 0).targetConnections()).isEqualTo(5);
    }

    @Test
    void sizesThePoolByLittlesLawWithHeadroom() {
        // 500/s × 100 ms: 50 in service at once, twice that with headroom.
        AdaptivePool pool = new AdaptivePool(500, 10_000, 0);
        feed(pool, 500, 100 * MS, 0, 1_000 * MS, new SplittableRandom(1));
        assertThat(pool.targetConnections()).isBetween(95, 105);

        // 2,000/s × 1 ms needs 2: the floor stands.
        AdaptivePool fast = new AdaptivePool(2_000, 10_000, 0);
        feed(fast, 2_000, MS, 0, 1_000 * MS, new SplittableRandom(2));
        assertThat(fast.targetConnections()).isEqualTo(AdaptivePool.MIN_CONNECTIONS);
    }

    @Test
    void neverAboveTheConnectionLimitAndNeverShrinks() {
        AdaptivePool pool = new AdaptivePool(500, 60, 0);
        feed(pool, 500, 100 * MS, 0, 1_000 * MS, new SplittableRandom(3));
        assertThat(pool.targetConnections()).isEqualTo(60);
        feed(pool, 500, MS, 1_000 * MS, 2_000 * MS, new SplittableRandom(4));
        assertThat(pool.targetConnections()).isEqualTo(60);
    }

    @Test
    void aStallThatDelaysTheRequestsInServiceDoesNotGrowThePool() {
        // 2,000/s answered in 1 ms; a 50 ms stall at 500 ms: the 16 requests then in service come back
        // with up to 50 ms more, and the requests queued behind them are answered in 1 ms once sent.
        AdaptivePool pool = new AdaptivePool(2_000, 10_000, 0);
        SplittableRandom random = new SplittableRandom(5);
        feed(pool, 2_000, MS, 0, 500 * MS, random);
        for (int i = 0; i < AdaptivePool.MIN_CONNECTIONS; i++) {
            pool.onServiceTime(50 * MS - i * MS, 550 * MS);
        }
        feed(pool, 2_000, MS, 550 * MS, 2_000 * MS, random);
        assertThat(pool.targetConnections()).isEqualTo(AdaptivePool.MIN_CONNECTIONS);
    }

    @Test
    void aBusyMomentOfTheMachineDoesNotGrowThePool() {
        // 4,500/s answered in 1 ms for 2 s, then 300 ms in which the generator, starved of CPU, sent in
        // bursts and every response took 150 ms, then 1 ms again.
        AdaptivePool pool = new AdaptivePool(4_500, 10_000, 0);
        SplittableRandom random = new SplittableRandom(6);
        feed(pool, 4_500, MS, 0, 2_000 * MS, random);
        feed(pool, 4_500, 150 * MS, 2_000 * MS, 2_300 * MS, random);
        feed(pool, 4_500, MS, 2_300 * MS, 4_000 * MS, random);
        assertThat(pool.targetConnections()).isEqualTo(AdaptivePool.MIN_CONNECTIONS);
    }

    @Test
    void aServerThatSlowsDownForGoodGrowsThePoolOnceHalfItsResponsesAreSlow() {
        AdaptivePool pool = new AdaptivePool(500, 10_000, 0);
        SplittableRandom random = new SplittableRandom(7);
        feed(pool, 500, MS, 0, 1_000 * MS, random);
        feed(pool, 500, 100 * MS, 1_000 * MS, 1_900 * MS, random);
        assertThat(pool.targetConnections()).isEqualTo(AdaptivePool.MIN_CONNECTIONS);
        feed(pool, 500, 100 * MS, 1_900 * MS, 2_500 * MS, random);
        assertThat(pool.targetConnections()).isBetween(85, 105);
    }

    @Test
    void growsBeyondTheTargetOnlyForARequestThatWaitedAndThenOnlyOnceAWhile() {
        AdaptivePool pool = new AdaptivePool(2_000, 10_000, 0);
        long queuedNs = 100 * MS;
        // A loop that came late queues its due requests at once: they have not waited yet.
        assertThat(pool.mayGrow(queuedNs, queuedNs)).isFalse();
        assertThat(pool.mayGrow(queuedNs, queuedNs + AdaptivePool.GROW_AFTER_NS - 1)).isFalse();
        assertThat(pool.nextGrowNs(queuedNs)).isEqualTo(queuedNs + AdaptivePool.GROW_AFTER_NS);

        long nowNs = queuedNs + AdaptivePool.GROW_AFTER_NS;
        assertThat(pool.mayGrow(queuedNs, nowNs)).isTrue();
        pool.grew(nowNs);
        // Still waiting a moment later: the next connection only after another delay.
        assertThat(pool.mayGrow(queuedNs, nowNs + 1)).isFalse();
        assertThat(pool.nextGrowNs(queuedNs)).isEqualTo(nowNs + AdaptivePool.GROW_AFTER_NS);

        // Through a 50 ms stall with requests waiting throughout: 5 connections, not one per request due.
        int opened = 0;
        AdaptivePool stalled = new AdaptivePool(2_000, 10_000, 0);
        for (long t = queuedNs; t <= queuedNs + 50 * MS; t += MS / 2) {
            if (stalled.mayGrow(queuedNs, t)) {
                stalled.grew(t);
                opened++;
            }
        }
        assertThat(opened).isEqualTo(5);
    }

    /** Responses of {@code serviceNs} (± 10 %) at {@code ratePerSec} from {@code fromNs} to {@code toNs}. */
    private static void feed(AdaptivePool pool, double ratePerSec, long serviceNs, long fromNs, long toNs, SplittableRandom random) {
        long gapNs = (long) (1e9 / ratePerSec);
        for (long t = fromNs; t < toNs; t += gapNs) {
            pool.onServiceTime(serviceNs + random.nextLong(serviceNs / 5 + 1) - serviceNs / 10, t);
        }
    }
}
