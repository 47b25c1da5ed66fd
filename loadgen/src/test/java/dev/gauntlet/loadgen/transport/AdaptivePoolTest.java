package dev.gauntlet.loadgen.transport;

import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** The adaptive pool's sizing on a simulated clock: responses fed at their completion times. */
class AdaptivePoolTest {
    private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);

    @Test
    void startsAtTheFloorWithinTheConnectionLimit() {
        assertThat(new AdaptivePool(1_000, 0, 10_000, 0).targetConnections()).isEqualTo(AdaptivePool.MIN_CONNECTIONS);
        assertThat(new AdaptivePool(1_000, 0, 5, 0).targetConnections()).isEqualTo(5);
    }

    @Test
    void sizesThePoolByLittlesLawWithHeadroom() {
        // 500/s × 100 ms: 50 in service at once, twice that with headroom.
        AdaptivePool pool = new AdaptivePool(500, 0, 10_000, 0);
        feed(pool, 500, 100 * MS, 0, 1_000 * MS, new SplittableRandom(1));
        assertThat(pool.targetConnections()).isBetween(95, 105);

        // 2,000/s × 1 ms needs 2: the floor stands.
        AdaptivePool fast = new AdaptivePool(2_000, 0, 10_000, 0);
        feed(fast, 2_000, MS, 0, 1_000 * MS, new SplittableRandom(2));
        assertThat(fast.targetConnections()).isEqualTo(AdaptivePool.MIN_CONNECTIONS);
    }

    @Test
    void neverAboveTheConnectionLimitAndNeverShrinks() {
        AdaptivePool pool = new AdaptivePool(500, 0, 60, 0);
        feed(pool, 500, 100 * MS, 0, 1_000 * MS, new SplittableRandom(3));
        assertThat(pool.targetConnections()).isEqualTo(60);
        feed(pool, 500, MS, 1_000 * MS, 2_000 * MS, new SplittableRandom(4));
        assertThat(pool.targetConnections()).isEqualTo(60);
    }

    @Test
    void aStallThatDelaysTheRequestsInServiceDoesNotGrowThePool() {
        // 2,000/s answered in 1 ms; a 50 ms stall at 500 ms: the 16 requests then in service come back
        // with up to 50 ms more, and the requests queued behind them are answered in 1 ms once sent.
        AdaptivePool pool = new AdaptivePool(2_000, 0, 10_000, 0);
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
        AdaptivePool pool = new AdaptivePool(4_500, 0, 10_000, 0);
        SplittableRandom random = new SplittableRandom(6);
        feed(pool, 4_500, MS, 0, 2_000 * MS, random);
        feed(pool, 4_500, 150 * MS, 2_000 * MS, 2_300 * MS, random);
        feed(pool, 4_500, MS, 2_300 * MS, 4_000 * MS, random);
        assertThat(pool.targetConnections()).isEqualTo(AdaptivePool.MIN_CONNECTIONS);
    }

    @Test
    void aServerThatSlowsDownForGoodGrowsThePoolOnceHalfItsResponsesAreSlow() {
        AdaptivePool pool = new AdaptivePool(500, 0, 10_000, 0);
        SplittableRandom random = new SplittableRandom(7);
        feed(pool, 500, MS, 0, 1_000 * MS, random);
        feed(pool, 500, 100 * MS, 1_000 * MS, 1_900 * MS, random);
        assertThat(pool.targetConnections()).isEqualTo(AdaptivePool.MIN_CONNECTIONS);
        feed(pool, 500, 100 * MS, 1_900 * MS, 2_500 * MS, random);
        assertThat(pool.targetConnections()).isBetween(85, 105);
    }

    @Test
    void opensForTheDeclaredWaitBeforeAnyResponse() {
        // 500/s of 1 s: 500 busy at once, 1,000 with headroom, opened before the first response could tell.
        assertThat(new AdaptivePool(500, 1_000, 10_000, 0).targetConnections()).isEqualTo(1_000);
        assertThat(new AdaptivePool(500, 1_000, 600, 0).targetConnections()).isEqualTo(600);
    }

    @Test
    void growsByTheWaitingRequestsTheBusyConnectionsWouldNotSendSoonWhileTheTargetAnswers() {
        long queuedNs = 2_000 * MS;
        // Behind a 1 s wait: 1,000 connections free 10 in the next 10 ms, so 90 of 100 waiting need new ones, 32 at a time.
        AdaptivePool slow = new AdaptivePool(500, 1_000, 10_000, 0);
        feed(slow, 500, 1_000 * MS, 1_000 * MS, queuedNs - MS, new SplittableRandom(8));
        // (answers of 1 s ± 10 %: within the declared wait and its tenth)
        // A loop that came late queues its due requests at once: they have not waited yet.
        assertThat(slow.growBy(100, 1_000, queuedNs, 0, queuedNs)).isZero();
        assertThat(slow.nextGrowNs(queuedNs)).isEqualTo(queuedNs + AdaptivePool.GROW_AFTER_NS);
        long nowNs = queuedNs + AdaptivePool.GROW_AFTER_NS;
        int target = slow.targetConnections();
        assertThat(slow.growBy(100, 1_000, queuedNs, 0, nowNs)).as("a step at most").isEqualTo(AdaptivePool.MAX_GROW_STEP);
        assertThat(slow.targetConnections()).isEqualTo(target + AdaptivePool.MAX_GROW_STEP);
        assertThat(slow.growBy(100, 1_032, queuedNs, 0, nowNs + 1)).as("once per delay").isZero();
        assertThat(slow.nextGrowNs(queuedNs)).isEqualTo(nowNs + AdaptivePool.GROW_AFTER_NS);
        slow.onConnected(20 * MS);
        assertThat(slow.growBy(100, 1_032, queuedNs, 0, nowNs + AdaptivePool.GROW_AFTER_NS))
                .as("connects took 20 ms: the target is slow to accept, one at a time").isEqualTo(1);
        assertThat(slow.growBy(100, 1_033, queuedNs, 6 * MS, nowNs + 2 * AdaptivePool.GROW_AFTER_NS))
                .as("a connect under way for 6 ms: not one more until it ends").isZero();
        slow.onServiceTime(1_000 * MS, nowNs + 3 * AdaptivePool.GROW_AFTER_NS - MS);
        assertThat(slow.growBy(60, 1_034, queuedNs, 0, nowNs + 3 * AdaptivePool.GROW_AFTER_NS))
                .as("connects prompt again, the target answering").isEqualTo(AdaptivePool.MAX_GROW_STEP);
        slow.onServiceTime(1_300 * MS, nowNs + 4 * AdaptivePool.GROW_AFTER_NS - MS);
        assertThat(slow.growBy(60, 1_066, queuedNs, 0, nowNs + 4 * AdaptivePool.GROW_AFTER_NS))
                .as("an answer 300 ms beyond the wait: the target fell behind, one at a time").isEqualTo(1);

        // After a hiccup at 50k/s of 0.2 ms the connections free within the moment: one more at a time, however many wait.
        AdaptivePool fast = new AdaptivePool(50_000, 0, 10_000, 0);
        feed(fast, 50_000, MS / 5, 1_000 * MS, nowNs - MS, new SplittableRandom(9));
        assertThat(fast.growBy(5_000, 16, queuedNs, 0, nowNs)).isEqualTo(1);
    }

    @Test
    void growsByOneAtATimeWhileTheTargetAnswersNothing() {
        // Through a 50 ms stall with requests waiting throughout and no response: 5 connections, not one per request due.
        long queuedNs = 100 * MS;
        int opened = 0;
        AdaptivePool stalled = new AdaptivePool(2_000, 0, 10_000, 0);
        for (long t = queuedNs; t <= queuedNs + 50 * MS; t += MS / 2) {
            opened += stalled.growBy(100, 16, queuedNs, 0, t);
        }
        assertThat(opened).isEqualTo(5);
    }

    @Test
    void neverGrowsPastTheConnectionLimit() {
        AdaptivePool pool = new AdaptivePool(50, 100, 20, 0);
        pool.onServiceTime(100 * MS, 10 * MS);
        assertThat(pool.growBy(100, 16, 0, 0, 10 * MS)).isEqualTo(4);
        assertThat(pool.targetConnections()).isEqualTo(20);
        assertThat(pool.growBy(100, 20, 0, 0, 30 * MS)).isZero();
    }

    /** Responses of {@code serviceNs} (± 10 %) at {@code ratePerSec} from {@code fromNs} to {@code toNs}. */
    private static void feed(AdaptivePool pool, double ratePerSec, long serviceNs, long fromNs, long toNs, SplittableRandom random) {
        long gapNs = (long) (1e9 / ratePerSec);
        for (long t = fromNs; t < toNs; t += gapNs) {
            pool.onServiceTime(serviceNs + random.nextLong(serviceNs / 5 + 1) - serviceNs / 10, t);
        }
    }
}
