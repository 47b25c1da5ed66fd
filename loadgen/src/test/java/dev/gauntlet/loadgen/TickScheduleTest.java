package dev.gauntlet.loadgen;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class TickScheduleTest {
    private static final long MS = 1_000_000;
    /** A run started at 10 s on the nano clock with a 2.5 s warm-up: ticks at 10.5 s, 11.5 s, 12.5 s (the measured phase's start), ... */
    private final TickSchedule ticks = new TickSchedule(10_000 * MS, 500, 12_500 * MS);

    @Test
    void aTickerStartedBeforeTheFirstTickWaitsForIt() {
        assertThat(ticks.nextAtOrAfter(10_100 * MS)).isEqualTo(10_500 * MS);
        assertThat(ticks.nextAtOrAfter(10_500 * MS)).isEqualTo(10_500 * MS);
    }

    /** A set-up that took 1.3 s (a client library's, a shard's late start) leaves the ticks on the run's own seconds. */
    @Test
    void aTickerStartedLateKeepsTheRunsSchedule() {
        assertThat(ticks.nextAtOrAfter(11_300 * MS)).isEqualTo(11_500 * MS);
        assertThat(ticks.nextAtOrAfter(11_500 * MS + 1)).isEqualTo(12_500 * MS);
    }

    @Test
    void theTickAfterOneIsASecondLater() {
        assertThat(ticks.nextAfter(11_500 * MS)).isEqualTo(12_500 * MS);
        assertThat(ticks.nextAfter(11_700 * MS)).isEqualTo(12_500 * MS);
    }
}
