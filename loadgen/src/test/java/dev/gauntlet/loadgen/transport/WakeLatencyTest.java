package dev.gauntlet.loadgen.transport;

import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

class WakeLatencyTest {
    private static final long US = TimeUnit.MICROSECONDS.toNanos(1);

    @Test
    void settlesOnTheMedianWakeLatencyWhateverTheHiccups() {
        // A virtual machine's wake-ups: 80 µs ± 15 µs, and one in fifty a hiccup of 1-9 ms.
        SplittableRandom random = new SplittableRandom(11);
        WakeLatency latency = new WakeLatency();
        for (int i = 0; i < 2_000; i++) {
            latency.sample(random.nextInt(50) == 0 ? random.nextLong(1_000 * US, 9_000 * US) : 80 * US + random.nextLong(-15 * US, 15 * US));
        }
        assertThat(latency.estimateNs()).isBetween(75 * US, 88 * US);
    }

    @Test
    void neverAsksToWakeMoreThanItsCapEarly() {
        WakeLatency latency = new WakeLatency();
        for (int i = 0; i < 10_000; i++) {
            latency.sample(TimeUnit.SECONDS.toNanos(1));
        }
        assertThat(latency.estimateNs()).isEqualTo(WakeLatency.MAX_NS);
        for (int i = 0; i < 10_000; i++) {
            latency.sample(0);
        }
        assertThat(latency.estimateNs()).isZero();
    }
}
