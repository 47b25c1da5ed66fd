package dev.gauntlet.loadgen.transport;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class LongQueueTest {

    @Test
    void keepsItsOrderAcrossGrowthAndWrapping() {
        LongQueue queue = new LongQueue(1_000);
        long next = 0;
        long expected = 0;
        for (int round = 0; round < 20; round++) {
            for (int i = 0; i < 50; i++) {
                assertThat(queue.offer(next++)).isTrue();
            }
            for (int i = 0; i < 30; i++) {
                assertThat(queue.poll()).isEqualTo(expected++);
            }
        }
        assertThat(queue.size()).isEqualTo(400);
        assertThat(queue.peek()).isEqualTo(expected);
    }

    @Test
    void refusesBeyondItsCapacityAndTakesAgainOnceOneLeaves() {
        LongQueue queue = new LongQueue(100);
        for (long i = 0; i < 100; i++) {
            assertThat(queue.offer(i)).isTrue();
        }

        assertThat(queue.size()).as("full").isEqualTo(100);
        assertThat(queue.offer(100)).isFalse();
        assertThat(queue.size()).isEqualTo(100);
        assertThat(queue.poll()).isZero();
        assertThat(queue.offer(101)).isTrue();
        assertThat(queue.offer(102)).isFalse();
        for (long i = 1; i < 100; i++) {
            assertThat(queue.poll()).isEqualTo(i);
        }
        assertThat(queue.poll()).isEqualTo(101);
        assertThat(queue.isEmpty()).isTrue();
    }
}
