package dev.gauntlet.runner.statistics;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

class EstimateTest {
    @Test
    void studentsIntervalOverTheSamples() {
        // Mean 3, standard deviation √2.5 over 5: standard error 0.7071, t(4, 97.5 %) = 2.7764.
        Estimate estimate = Estimate.of(new double[] {1, 2, 3, 4, 5}, 0.95);

        assertThat(estimate.mean()).isEqualTo(3);
        assertThat(estimate.low()).isCloseTo(3 - 2.7764 * 0.70711, within(1e-3));
        assertThat(estimate.high()).isCloseTo(3 + 2.7764 * 0.70711, within(1e-3));
        assertThat(estimate.describe()).isEqualTo("3 (95 % CI 1.04–4.96, 5 forks)");
    }

    @Test
    void oneSampleHasNoInterval() {
        Estimate estimate = Estimate.of(new double[] {40_500}, 0.95);

        assertThat(estimate.bounded()).isFalse();
        assertThat(estimate.describe()).isEqualTo("40500 (1 fork: no interval)");
    }

    @Test
    void aLevelOutsideZeroToOneIsRefused() {
        assertThatThrownBy(() -> Estimate.of(new double[] {1, 2}, 95)).hasMessageContaining("such as 0.95, got 95");
    }
}
