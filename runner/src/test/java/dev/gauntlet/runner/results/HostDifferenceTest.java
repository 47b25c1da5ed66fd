package dev.gauntlet.runner.results;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gauntlet.api.Json;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static dev.gauntlet.runner.results.Capacities.QUIET;
import static dev.gauntlet.runner.results.Capacities.platform;
import static dev.gauntlet.runner.results.Capacities.times;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Whether two calibrations' capacities tell two hosts apart, on per-second indexes whose answer is worked by hand
 * ({@link Capacities}).
 */
class HostDifferenceTest {

    @Test
    void aQuarterLessCapacityOnTheTargetsCpusIsAnotherHost() {
        HostDifference hosts = HostDifference.of(platform(QUIET, QUIET), platform(times(QUIET, 0.75), QUIET), 0.95);

        // 1,880 → 1,410: -25 %. Standard error √(316.7 / 10 + 178.1 / 10) = 7.03 at Welch's 16.7 degrees of freedom,
        // t = 2.11: ±14.9, ±0.8 % of BASE.
        assertThat(hosts.differ()).isTrue();
        assertThat(hosts.changes()).filteredOn(HostDifference.Change::differs).extracting(HostDifference.Change::role)
                .containsExactly("target");
        assertThat(hosts.changes().getFirst().contrast().percentLow()).isBetween(-25.85, -25.75);
        assertThat(hosts.line()).contains("hosts differ: the target CPUs' capacity 1,880 → 1,410 (-25 %, 95 % CI -26 to -24 %)"
                + " beyond its noise; the changes below are the machine's as much as the targets', none is called a regression");
    }

    @Test
    void bothRolesDifferingAreNamedInOneLine() {
        HostDifference hosts = HostDifference.of(platform(QUIET, QUIET), platform(times(QUIET, 0.75), times(QUIET, 1.5)), 0.95);

        assertThat(hosts.line().orElseThrow()).startsWith("hosts differ: the target CPUs' capacity 1,880 → 1,410 (-25 %, ")
                .contains(" and the generator CPUs' capacity 1,880 → 2,820 (+50 %, 95 % CI ").contains(" beyond their noise; ");
    }

    @Test
    void aChangeBeyondTheNoiseButUnderTheFloorIsTheSameHost() {
        // -2 %: Welch's interval (about ±0.9 %) excludes no change, yet seconds of one machine are not independent.
        HostDifference drift = HostDifference.of(platform(QUIET, QUIET), platform(times(QUIET, 0.98), QUIET), 0.95);
        // -25 % in the mean, but seconds that swing by half of it: within the noise.
        double[] swinging = {500, 3200, 700, 3000, 1900, 600, 3100, 800, 2800, 1900};
        HostDifference noisy = HostDifference.of(platform(QUIET, QUIET), platform(times(swinging, 0.75), QUIET), 0.95);

        assertThat(drift.differ()).isFalse();
        assertThat(drift.line()).contains("hosts alike: the target CPUs' capacity 1,880 → 1,842 (-2 %, 95 % CI -3 to -1 %) "
                + "and the generator CPUs' capacity 1,880 → 1,880 (+0 %, 95 % CI -1 to +1 %), within the noise or under 5 %");
        assertThat(noisy.differ()).isFalse();
        assertThat(HostDifference.of(platform(QUIET, QUIET), platform(QUIET, QUIET), 0.95).line().orElseThrow())
                .startsWith("hosts alike: ");
    }

    @Test
    void aSideWithoutCapacityCannotBeCompared() {
        JsonNode writtenBefore = Json.json().valueToTree(Map.of("seconds", 10, "targetCpus", "0"));
        JsonNode notCalibrated = Json.json().valueToTree("not calibrated in this test");
        JsonNode failed = Json.json().valueToTree(Map.of("failed", "the calibration JVMs gave no figures"));
        JsonNode oneSecond = platform(new double[] {1880}, QUIET);

        assertThat(HostDifference.of(writtenBefore, platform(QUIET, QUIET), 0.95).line())
                .contains("capacity not recorded in BASE: the hosts cannot be compared");
        assertThat(HostDifference.of(platform(QUIET, QUIET), failed, 0.95).line())
                .contains("capacity not recorded in NEW: the hosts cannot be compared");
        assertThat(HostDifference.of(notCalibrated, oneSecond, 0.95).line())
                .contains("capacity not recorded in BASE and NEW: the hosts cannot be compared");
        assertThat(HostDifference.of(Json.json().missingNode(), notCalibrated, 0.95).differ()).isFalse();
    }
}
