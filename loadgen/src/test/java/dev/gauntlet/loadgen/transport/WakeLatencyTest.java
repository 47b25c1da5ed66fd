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
        WakeLatency latency = WakeLatency.median();
        for (int i = 0; i < 2_000; i++) {
            latency.sample(random.nextInt(50) == 0 ? random.nextLong(1_000 * US, 9_000 * US) : 80 * US + random.nextLong(-15 * US, 15 * US));
        }
        assertThat(latency.estimateNs()).isBetween(75 * US, 88 * US);
    }

    @Test
    void neverAsksToWakeMoreThanItsCapEarly() {
        WakeLatency latency = WakeLatency.median();
        for (int i = 0; i < 10_000; i++) {
            latency.sample(TimeUnit.SECONDS.toNanos(1));
        }
        assertThat(latency.estimateNs()).isEqualTo(WakeLatency.MEDIAN_MAX_NS);
        for (int i = 0; i < 10_000; i++) {
            latency.sample(0);
        }
        assertThat(latency.estimateNs()).isZero();
    }

    @Test
    void theP99SettlesWhereOneWakeInAHundredIsLater() {
        // Wake-ups uniform over 40-240 µs: their p99 is 238 µs, whatever order they come in.
        SplittableRandom random = new SplittableRandom(7);
        WakeLatency p99 = WakeLatency.p99();
        long[] estimates = new long[20];
        for (int round = 0; round < estimates.length; round++) {
            for (int i = 0; i < 5_000; i++) {
                p99.sample(random.nextLong(40 * US, 240 * US));
            }
            estimates[round] = p99.estimateNs();
        }
        // Each estimate lies near the p99 (a late sample moves it 99 µs up, so it wanders that much).
        for (long estimate : estimates) {
            assertThat(estimate).isBetween(130 * US, 240 * US);
        }
    }

    @Test
    void theP99IsCappedAtWrk2sTimer() {
        WakeLatency p99 = WakeLatency.p99();
        for (int i = 0; i < 1_000; i++) {
            p99.sample(TimeUnit.MILLISECONDS.toNanos(5));
        }
        assertThat(p99.estimateNs()).isEqualTo(WakeLatency.P99_MAX_NS);
    }
}
