package dev.gauntlet.runner.metrics;

import dev.gauntlet.runner.GauntletHome;
import dev.gauntlet.runner.isolation.Isolation;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/** The calibration's two JVMs on this machine, pinned as a suite's target and generator would be. */
@Tag("alone") // pins CPUs and asserts sample counts
class PlatformCalibrationIT {

    @Test
    void measuresBothSidesHiccupsAndTheRoundTripBetweenThem() {
        Isolation isolation = Isolation.defaults();

        PlatformCalibration.PlatformFloor floor = new PlatformCalibration(GauntletHome.fromSystemProperty(), isolation.target(),
                isolation.generator()).measure(Duration.ofSeconds(2));

        assertThat(floor.targetCpus()).isEqualTo(isolation.target().cpus());
        // About one wake-up a millisecond on each side, and a round trip every 2 ms or so.
        assertThat(floor.targetHiccups().count()).isBetween(1_000L, 2_100L);
        assertThat(floor.generatorHiccups().count()).isBetween(1_000L, 2_100L);
        assertThat(floor.roundTrip().count()).isBetween(100L, 1_000L);
        assertThat(floor.roundTrip().p50Ms()).isGreaterThan(0).isLessThan(floor.roundTrip().maxMs() + 1e-9);
        assertThat(floor.describe()).startsWith("platform: wake-up p99 ").contains("loopback round trip p50 ");
    }
}
