package dev.gauntlet.bench;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class PairCostTest {
    private static final GateCase OPEN_10K = GateCase.named("open-10k");
    private static final GateCase CLOSED = GateCase.named("closed");

    @Test
    void anOpenLoopWindowCountsOnlyAtItsRateWithinFivePercent() {
        // 10,000/s over the 0.6 s window: 6,000 requests.
        assertThat(OPEN_10K.atItsLoad(window(5_700, 0))).isTrue();
        assertThat(OPEN_10K.atItsLoad(window(6_300, 0))).isTrue();
        assertThat(OPEN_10K.atItsLoad(window(2_001, 0))).as("wrk2 not yet at its rate").isFalse();
        assertThat(OPEN_10K.atItsLoad(window(6_400, 0))).as("catching up after falling behind").isFalse();
        assertThat(CLOSED.atItsLoad(window(1, 0))).as("a closed loop's load is whatever it reached").isTrue();
        assertThat(CLOSED.atItsLoad(window(0, 0))).isFalse();
    }

    @Test
    void aPairIsSpoiltWhenEitherClientIsOffItsRate() {
        WindowCost peer = window(6_000, 0);
        assertThat(new PairCost(window(6_000, 0), peer).spoilt(OPEN_10K)).isNull();
        assertThat(new PairCost(window(6_000, 0), window(2_001, 0)).spoilt(OPEN_10K)).isEqualTo("not at the case's rate");
        assertThat(new PairCost(window(7_000, 0), peer).spoilt(OPEN_10K)).isEqualTo("not at the case's rate");
    }

    @Test
    void theRatioIsGauntletsCostPerRequestOverThePeersTheJitLeftOut() {
        assertThat(new PairCost(new WindowCost(66_000_000, 0, 6_000), new WindowCost(60_000_000, 0, 6_000)).ratio())
                .isCloseTo(1.1, org.assertj.core.data.Offset.offset(1e-9));
        // 6 ms of Gauntlet's 72 ms went to its JIT compiler: its cost is the other 66 ms.
        assertThat(new PairCost(new WindowCost(72_000_000, 6_000_000, 6_000), new WindowCost(60_000_000, 0, 6_000)).ratio())
                .isCloseTo(1.1, org.assertj.core.data.Offset.offset(1e-9));
    }

    /** A window of 10 µs of CPU per request, {@code jitNs} of it the JIT's. */
    private static WindowCost window(long requests, long jitNs) {
        return new WindowCost(60_000_000, jitNs, requests);
    }
}
